/**
 * Markdown docs (READMEs, ADRs, RFCs) for docs search: sections split at headings, each with its text, and a
 * `heading` symbol per heading for outlines. Section text reaches an agent verbatim, so text written to steer
 * a model (chat-template markers, "ignore previous instructions") is replaced by `[FILTERED]` at index time,
 * and secrets are masked then too (trust/secret-mask.ts): docs search matches and shows only masked text.
 *
 * Headings: ATX (`#` to `######`, at most three spaces of indent) and one-line setext (`Title` over `===` or
 * `---`); never inside fenced code, HTML comments or the front matter. An ATX heading with no text is not a
 * section boundary. The text before the first heading is a level-0 section titled with the file stem.
 */
import type { DocSectionFact, FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { maskSecrets } from '../../../trust/secret-mask.js';
import { FactBuilder } from '../shared/fact-builder.js';

export const FILTERED = '[FILTERED]';

const INJECTION = new RegExp(
  [
    // Chat-template and role markers.
    String.raw`<\|\s*(?:im_start|im_end|im_sep|system|assistant|user|endoftext|eot_id|start_header_id|end_header_id)\s*\|>`,
    String.raw`\[\s*\/?\s*(?:system|assistant|inst)\s*\]`,
    String.raw`<\s*\/?\s*(?:system|system_message)\s*>`,
    String.raw`<<\s*\/?\s*sys\s*>>`,
    // Instructions aimed at the reader model.
    String.raw`\b(?:ignore|disregard|forget)\s+(?:(?:all|any)\s+)?(?:(?:of\s+)?(?:the|your|my)\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:instructions?|guidelines?|rules|directions|prompts?)\b`,
    String.raw`\bbypass\s+(?:(?:all|any|the)\s+)?safety\s+(?:checks?|filters?|guidelines?|measures)\b`,
    String.raw`\bnew\s+system\s+prompt\b(?:\s*:)?`,
    String.raw`\bsystem\s+prompt\s*:`,
    String.raw`\byou\s+are\s+now\b`,
  ].join('|'),
  'gi',
);

/** Replaces prompt-injection phrases and chat-template markers by `[FILTERED]` (case- and whitespace-insensitive). */
export function sanitizeDocText(text: string): { text: string; filtered: number } {
  let filtered = 0;
  const out = text.replace(INJECTION, () => {
    filtered += 1;
    return FILTERED;
  });
  return { text: out, filtered };
}

interface Heading {
  readonly line: number;
  /** The last line of the heading itself (the underline of a setext heading). */
  readonly lastLine: number;
  readonly level: number;
  readonly title: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** Lines that cannot be the text of a setext heading: list items, quotes, tables, indented code, HTML. */
const NOT_PARAGRAPH = /^(?: {4}|\t|\s*(?:[-*+]|\d+[.)])(?:\s|$)|\s*>|\s*\||\s*<)/;

/** Heading positions; fenced code, HTML comments and front matter are skipped. */
function findHeadings(lines: readonly string[]): Heading[] {
  const headings: Heading[] = [];
  let start = 0;
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
    if (close > 0) start = close + 1;
  }
  let fence: { char: string; length: number } | undefined;
  let inComment = false;
  /** Whether the previous line could be a one-line paragraph turned into a setext heading. */
  let candidate: { line: number; text: string } | undefined;
  let previousBlank = true;
  for (let i = start; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const blank = line.trim() === '';
    if (fence !== undefined) {
      const close = FENCE.exec(line);
      if (
        close?.[1]?.[0] === fence.char &&
        close[1].length >= fence.length &&
        (close[2] ?? '').trim() === ''
      ) {
        fence = undefined;
      }
      previousBlank = true;
      candidate = undefined;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      previousBlank = true;
      candidate = undefined;
      continue;
    }
    const open = FENCE.exec(line);
    if (open?.[1] !== undefined && !(open[1][0] === '`' && (open[2] ?? '').includes('`'))) {
      fence = { char: open[1][0] as string, length: open[1].length };
      candidate = undefined;
      continue;
    }
    if (/^\s*<!--/.test(line) && !line.includes('-->')) {
      inComment = true;
      candidate = undefined;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx?.[1] !== undefined) {
      const title = (atx[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
      if (title !== '') headings.push({ line: i + 1, lastLine: i + 1, level: atx[1].length, title });
      candidate = undefined;
      previousBlank = true;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext?.[1] !== undefined && candidate !== undefined) {
      headings.push({
        line: candidate.line,
        lastLine: i + 1,
        level: setext[1][0] === '=' ? 1 : 2,
        title: candidate.text,
      });
      candidate = undefined;
      previousBlank = true;
      continue;
    }
    candidate =
      !blank && previousBlank && !NOT_PARAGRAPH.test(line) ? { line: i + 1, text: line.trim() } : undefined;
    previousBlank = blank;
  }
  return headings;
}

/** Resident-size estimate per section beyond its text: object headers, the symbol, its names. */
const SECTION_OVERHEAD = 64;
const MIN_BUDGET = 64 * 1024;

/** A heading kept as a section, named by its path of titles (`Guide > Install`). */
type QualifiedHeading = Heading & { readonly qualifiedName: string; readonly parent?: number };

export function extractMarkdown(input: ExtractInput): FileFacts {
  const sanitize = input.options?.sanitizeDocs !== false;
  const clean = (text: string): string => {
    const masked = maskSecrets(text).text;
    return sanitize ? sanitizeDocText(masked).text : masked;
  };
  const lines = input.source.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const headings = qualifiedHeadings(lines, clean, Math.max(MIN_BUDGET, input.source.length * 3));

  const sections: DocSectionFact[] = [];
  const lastContent = (from: number, to: number): number => {
    let end = to;
    while (end >= from && (lines[end - 1] ?? '').trim() === '') end -= 1;
    return end;
  };
  const textOf = (from: number, to: number): string =>
    clean(
      lines
        .slice(from - 1, to)
        .join('\n')
        .trim(),
    );

  const firstLine = headings[0]?.line ?? lines.length + 1;
  const preambleStart = lines.findIndex((l) => l.trim() !== '') + 1;
  if (preambleStart > 0 && preambleStart < firstLine) {
    const end = lastContent(preambleStart, firstLine - 1);
    sections.push({
      title: clean(stemOf(input.path)),
      level: 0,
      startLine: preambleStart,
      endLine: end,
      text: textOf(preambleStart, end),
    });
  }
  headings.forEach((heading, i) => {
    const next = headings[i + 1]?.line ?? lines.length + 1;
    const end = Math.max(heading.lastLine, lastContent(heading.lastLine + 1, next - 1));
    sections.push({
      title: heading.title,
      level: heading.level,
      startLine: heading.line,
      endLine: end,
      text: textOf(heading.lastLine + 1, end),
    });
  });

  const facts = new FactBuilder(input.language);
  addHeadingSymbols(facts, headings, lines.length, lastContent);
  return facts.build({ sections });
}

/**
 * Headings with their titles cleaned and qualified. A heading beyond the memory budget ends the list: its
 * lines stay in the section before it.
 */
function qualifiedHeadings(
  lines: readonly string[],
  clean: (text: string) => string,
  budget: number,
): QualifiedHeading[] {
  const headings: QualifiedHeading[] = [];
  const stack: { level: number; index: number }[] = [];
  let left = budget;
  for (const heading of findHeadings(lines)) {
    const title = clean(heading.title);
    while ((stack.at(-1)?.level ?? 0) >= heading.level) stack.pop();
    const parentIndex = stack.at(-1)?.index;
    const parentName = parentIndex !== undefined ? headings[parentIndex]?.qualifiedName : undefined;
    const qualifiedName = parentName !== undefined ? `${parentName} > ${title}` : title;
    left -= SECTION_OVERHEAD + title.length * 2 + qualifiedName.length;
    if (left < 0) break;
    stack.push({ level: heading.level, index: headings.length });
    headings.push({
      ...heading,
      title,
      qualifiedName,
      ...(parentIndex !== undefined ? { parent: parentIndex } : {}),
    });
  }
  return headings;
}

/** One symbol per heading, spanning up to the next heading of the same or a higher level. */
function addHeadingSymbols(
  facts: FactBuilder,
  headings: readonly QualifiedHeading[],
  lineCount: number,
  lastContent: (from: number, to: number) => number,
): void {
  const nextLines = headings.map(() => lineCount + 1);
  const open: number[] = [];
  headings.forEach((heading, j) => {
    while (open.length > 0 && (headings[open.at(-1) as number] as Heading).level >= heading.level) {
      nextLines[open.pop() as number] = heading.line;
    }
    open.push(j);
  });
  headings.forEach((heading, id) => {
    facts.addSymbol({
      kind: 'heading',
      name: heading.title,
      qualifiedName: heading.qualifiedName,
      signature: `${'#'.repeat(heading.level)} ${heading.title}`,
      startLine: heading.line,
      endLine: Math.max(heading.lastLine, lastContent(heading.lastLine + 1, (nextLines[id] as number) - 1)),
      parent: heading.parent,
    });
  });
}

function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
