import { readFileSync } from 'node:fs';
import { byteLength, cutToBytes, pageFooter, takePage } from '../../core/budget.js';
import type { OperationOutput } from '../../core/operation.js';
import { maskedLinesOf, mayMatchMasked } from '../../trust/secret-search.js';
import type { MaskedLines } from '../../trust/secret-mask.js';
import { fenced } from '../../render/snippet.js';
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { RejectedNote } from '../shared/rejected-note.js';
import { displayOf, inScope } from '../shared/workspace-paths.js';

const LINES_PER_FILE = 3;
const MAX_LINE_BYTES = 256;

export interface FuzzyScanRequest {
  readonly snapshot: SnapshotReader;
  readonly query: string;
  readonly scope: string | undefined;
  readonly label: string;
  readonly limit: number;
  readonly offset: number;
  readonly pageBudget: number;
  readonly note: RejectedNote;
  readonly signal: AbortSignal;
}

interface TextHit {
  readonly file: IndexedFile;
  readonly lines: { line: number; text: string }[];
  readonly count: number;
}

/**
 * The full-text fallback: files in scope whose content contains the query. It stops as soon as it has seen
 * one match beyond the page, so its total is a lower bound ("at least N") unless it read everything.
 */
export function fuzzyScan(request: FuzzyScanRequest): OperationOutput {
  const { snapshot, query } = request;
  const { hits, complete, redactions } = findTextHits(request);
  const page = takePage(hits, {
    offset: request.offset,
    limit: request.limit,
    budgetBytes: request.pageBudget,
    render: (hit: TextHit, index: number) => renderHit(snapshot, hit, index),
  });
  const totalText = complete ? `${hits.length}` : `at least ${hits.length}`;
  const header =
    `## Full-text results for \`${query}\` (scope: ${request.label})\n` +
    `_No declaration is named like \`${query}\`; these ${totalText} file(s) contain the text._\n`;
  const zero =
    hits.length === 0
      ? `Exactly 0 indexed files in scope contain \`${query}\` (declared names and file contents both searched).\n`
      : '';
  const footer = complete
    ? pageFooter(page, 'files', request.limit)
    : `Showing ${page.start + 1}–${page.end} of at least ${hits.length} files. More: \`offset: ${page.end}\`.`;
  const markdown = `${header}\n${zero}${page.rendered.join('\n')}${footer ? `\n${footer}\n` : ''}${request.note.markdown}`;
  return {
    data: {
      query,
      scope: request.label,
      fuzzy: true,
      total_files: hits.length,
      total_is_partial: !complete,
      offset: page.start,
      results: page.items.map((hit) => ({
        path: displayOf(snapshot, hit.file),
        matches: hit.count,
        lines: hit.lines,
      })),
      next_offset: page.hasMore ? page.end : null,
      not_indexed: request.note.json,
    },
    markdown,
    filesRead: page.items.map((hit) => displayOf(snapshot, hit.file)),
    redactions,
  };
}

/**
 * Files in scope, in snapshot order, whose text contains the query once its secrets are masked (so that the
 * answer never tells whether a masked secret holds a string), up to one beyond the requested page.
 */
function findTextHits(request: FuzzyScanRequest): { hits: TextHit[]; complete: boolean; redactions: number } {
  const needle = request.query.toLowerCase();
  const wanted = request.offset + request.limit + 1;
  const hits: TextHit[] = [];
  let complete = true;
  let redactions = 0;
  for (const file of request.snapshot.files) {
    if (request.signal.aborted) break;
    if (!inScope(file.absolutePath, request.scope)) continue;
    let text: string;
    try {
      text = readFileSync(file.absolutePath, 'utf8');
    } catch {
      continue;
    }
    if (!mayMatchMasked(text.toLowerCase(), needle)) continue;
    const masked = maskedLinesOf(text);
    if (!masked.lines.join('\n').toLowerCase().includes(needle)) continue;
    const matched = matchLines(file, masked, needle);
    redactions += matched.redactions;
    hits.push(matched.hit);
    if (hits.length >= wanted) {
      complete = false;
      break;
    }
  }
  return { hits, complete, redactions };
}

/** The first matching lines of a masked file that contains the needle, and how many lines match in all. */
function matchLines(
  file: IndexedFile,
  masked: MaskedLines,
  needle: string,
): { hit: TextHit; redactions: number } {
  const lines: { line: number; text: string }[] = [];
  let count = 0;
  masked.lines.forEach((content, i) => {
    if (!content.toLowerCase().includes(needle)) return;
    count++;
    if (lines.length < LINES_PER_FILE) lines.push({ line: i + 1, text: content });
  });
  const hit = { file, lines, count };
  return { hit, redactions: masked.redactionsOn(lines.map((l) => l.line - 1)) };
}

function renderHit(snapshot: SnapshotReader, hit: TextHit, index: number): string {
  const body = hit.lines
    .map(({ line, text }) => {
      const cut = byteLength(text) > MAX_LINE_BYTES ? `${cutToBytes(text, MAX_LINE_BYTES - 3)}...` : text;
      return `L${line}: ${cut.trim()}`;
    })
    .join('\n');
  const more = hit.count > hit.lines.length ? ` (${hit.count} lines match)` : '';
  return `### [${index + 1}] \`${displayOf(snapshot, hit.file)}\`${more}\n${fenced(body, 'text')}\n`;
}
