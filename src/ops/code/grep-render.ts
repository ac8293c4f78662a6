/**
 * How a `code grep` answer reads: matching lines grouped by file, ripgrep-style (`12:` a match, `13-` context,
 * `--` a gap), and the same lines as JSON rows with their context.
 */
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import { fenced } from '../../render/snippet.js';
import { redactionsIn } from '../../trust/secret-mask.js';
import { grepCorpusOf } from './grep-corpus.js';
import type { LineHit } from './grep-lines.js';
import type { FileMatches, GrepOutcome } from './grep-search.js';

/** A shown line is cut here (minified code has been rejected by the guard, but a long line is still possible). */
const MAX_SHOWN_CHARS = 300;

export interface Listed {
  readonly match: FileMatches;
  readonly hit: LineHit;
}

const cut = (line: string): string => {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS - 1)}…` : text;
};

/** Masked lines of the files a page shows, read once per answer. */
export function lineReader(snapshot: SnapshotReader): (file: IndexedFile) => readonly string[] {
  const corpus = grepCorpusOf(snapshot);
  const cache = new Map<IndexedFile, readonly string[]>();
  return (file) => {
    let lines = cache.get(file);
    if (!lines) {
      lines = corpus.maskedText(file)?.text.split('\n') ?? [];
      cache.set(file, lines);
    }
    return lines;
  };
}

/** Line numbers a listed line shows: itself and its context, within the file. */
function shownRange(hit: LineHit, context: number, lineCount: number): { from: number; to: number } {
  return { from: Math.max(1, hit.line - context), to: Math.min(lineCount, hit.line + context) };
}

/** One file's listed lines on a page, ripgrep-style: `12:` a match, `13-` context, `--` a gap. */
export function renderFileBlock(
  items: readonly Listed[],
  lines: readonly string[],
  context: number,
): { body: string; redactions: number } {
  const matched = new Set(items.map((i) => i.hit.line));
  const out: string[] = [];
  let last = 0;
  let redactions = 0;
  for (const item of items) {
    const { from, to } = shownRange(item.hit, context, lines.length);
    for (let n = Math.max(from, last + 1); n <= to; n++) {
      if (last > 0 && n > last + 1) out.push('--');
      const text = lines[n - 1] ?? '';
      redactions += redactionsIn(text);
      out.push(`${n}${matched.has(n) ? ':' : '-'}${cut(text)}`);
      last = n;
    }
  }
  return { body: out.join('\n'), redactions };
}

function groupedByFile(items: readonly Listed[]): Listed[][] {
  const groups: Listed[][] = [];
  for (const item of items) {
    const current = groups[groups.length - 1];
    if (current && current[0]?.match === item.match) current.push(item);
    else groups.push([item]);
  }
  return groups;
}

export function summaryLine(outcome: GrepOutcome, listed: number, counted: number): string {
  const at = outcome.partial ? 'at least ' : '';
  const capped = outcome.files.filter((f) => f.count > f.hits.length).length;
  const cappedText =
    capped > 0
      ? ` ${capped} file(s) have more matching lines than \`max_per_file\`; their first ones are listed.`
      : '';
  const stop = outcome.partial
    ? ` The search stopped once it had counted ${counted} matching lines and filled this page: narrow \`pattern\`, \`path\` or \`language\` for exact totals.`
    : '';
  return `_${at}${outcome.totalLines} matching line(s) in ${at}${outcome.files.length} file(s) (${listed} listed; ${outcome.read} of ${outcome.inScope} indexed files in scope read).${cappedText}${stop}_\n`;
}

/** The page's lines as Markdown blocks, one per file, and the masked values they show. */
export function pageBlocks(
  items: readonly Listed[],
  readLines: (file: IndexedFile) => readonly string[],
  context: number,
): { blocks: string[]; redactions: number } {
  let redactions = 0;
  const blocks = groupedByFile(items).map((group) => {
    const first = group[0] as Listed;
    const block = renderFileBlock(group, readLines(first.match.file), context);
    redactions += block.redactions;
    const more = first.match.count > first.match.hits.length ? `, ${first.match.hits.length} listed` : '';
    return `### \`${first.match.path}\` (${first.match.count} matching line(s)${more})\n${fenced(block.body, 'text')}\n`;
  });
  return { blocks, redactions };
}

/** The page's lines as JSON rows, with their context lines when asked for. */
export function resultRows(
  items: readonly Listed[],
  readLines: (file: IndexedFile) => readonly string[],
  context: number,
) {
  return items.map(({ match, hit }) => {
    const lines = readLines(match.file);
    const around = (from: number, to: number) => lines.slice(Math.max(0, from - 1), Math.max(0, to)).map(cut);
    return {
      path: match.path,
      line: hit.line,
      column: hit.column,
      text: cut(lines[hit.line - 1] ?? ''),
      ...(context > 0
        ? {
            before: around(hit.line - context, hit.line - 1),
            after: around(hit.line + 1, Math.min(lines.length, hit.line + context)),
          }
        : {}),
    };
  });
}
