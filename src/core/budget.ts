/** Hard cap on every text answer (about 12k tokens); list pages stop well before it. */
export const MAX_OUTPUT_BYTES = 48 * 1024;
/** Rendered entries a list page may hold unless the caller's context says otherwise. */
export const DEFAULT_PAGE_BUDGET_BYTES = 8 * 1024;
/** A truncation hint echoes caller arguments, so it is flattened and bounded. */
export const MAX_HINT_BYTES = 512;

const encoder = new TextEncoder();
export const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8 without splitting a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off over UTF-8 continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return Buffer.from(bytes.subarray(0, end)).toString('utf8');
}

/** One line, at most `MAX_HINT_BYTES`, so a hint that echoes arguments can never break the layout. */
export function flattenHint(hint: string): string {
  const flat = hint.replace(/\s+/g, ' ').trim();
  if (byteLength(flat) <= MAX_HINT_BYTES) return flat;
  return `${cutToBytes(flat, MAX_HINT_BYTES - 3)}...`;
}

interface OpenFence {
  readonly char: '`' | '~';
  readonly length: number;
}

/** The code fence still open at the end of `text`, following CommonMark's opening and closing rules. */
export function openFenceAt(text: string): OpenFence | undefined {
  let open: OpenFence | undefined;
  for (const line of text.split('\n')) {
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!match) continue;
    const run = match[1] ?? '';
    const char = run[0] as '`' | '~';
    const rest = match[2] ?? '';
    if (!open) {
      // A backtick fence's info string may not contain backticks.
      if (char === '`' && rest.includes('`')) continue;
      open = { char, length: run.length };
    } else if (char === open.char && run.length >= open.length && rest.trim() === '') {
      open = undefined;
    }
  }
  return open;
}

/**
 * Cuts `text` to the hard cap: on a line boundary when that keeps at least half, any open fence closed, then
 * a note that says what was cut and how to ask for less. The result never exceeds `maxBytes`.
 */
export function capText(text: string, hint: string | undefined, maxBytes = MAX_OUTPUT_BYTES): string {
  if (byteLength(text) <= maxBytes) return text;
  const advice = flattenHint(
    hint ?? 'Narrow the request (a smaller `limit`, a `scope`, or a more specific target).',
  );
  const note = `\n\n> [!NOTE]\n> Output truncated at the ${Math.round(maxBytes / 1024)} KiB cap. ${advice}\n`;
  // Room for the note and for a closing fence of any plausible length.
  const room = maxBytes - byteLength(note) - 64;
  let body = cutToBytes(text, room);
  const lastNewline = body.lastIndexOf('\n');
  if (lastNewline >= body.length / 2) body = body.slice(0, lastNewline);
  const fence = openFenceAt(body);
  if (fence) body += `\n${fence.char.repeat(fence.length)}`;
  return body + note;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly rendered: readonly string[];
  /** First index shown (0-based). */
  readonly start: number;
  /** One past the last index shown; the `offset` of the next page. */
  readonly end: number;
  readonly total: number;
  readonly hasMore: boolean;
}

/**
 * Takes entries from `offset` until `limit` entries or `budgetBytes` of rendered text, whichever comes
 * first; always at least one entry so that paging makes progress.
 */
export function takePage<T>(
  all: readonly T[],
  options: { offset: number; limit: number; budgetBytes: number; render: (item: T, index: number) => string },
): Page<T> {
  const items: T[] = [];
  const rendered: string[] = [];
  let used = 0;
  let index = options.offset;
  while (index < all.length && items.length < options.limit) {
    const item = all[index] as T;
    const text = options.render(item, index);
    const size = byteLength(text);
    if (items.length > 0 && used + size > options.budgetBytes) break;
    items.push(item);
    rendered.push(text);
    used += size;
    index++;
  }
  return {
    items,
    rendered,
    start: options.offset,
    end: index,
    total: all.length,
    hasMore: index < all.length,
  };
}

/**
 * The line under a page: what was shown and the exact follow-up call, or, past the end, where the last page
 * starts. `unit` is plural ("results", "rows").
 */
export function pageFooter(page: Page<unknown>, unit: string, lastPageSize: number): string {
  if (page.total === 0) return '';
  if (page.start >= page.total) {
    const lastStart = Math.max(0, page.total - Math.max(1, lastPageSize));
    return `No ${unit} at \`offset: ${page.start}\`: there are ${page.total} in total. Request \`offset: ${lastStart}\` for the last ones.`;
  }
  const shown = `Showing ${page.start + 1}–${page.end} of ${page.total} ${unit}.`;
  return page.hasMore ? `${shown} More: \`offset: ${page.end}\`.` : `${shown} This is the last page.`;
}
