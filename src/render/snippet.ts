import { cutToBytes, byteLength } from '../core/budget.js';
import type { MaskedLines } from '../trust/secret-mask.js';

export const SNIPPET_LINES = 15;
export const SNIPPET_LEAD = 2;
export const MAX_SNIPPET_LINE_BYTES = 256;

export interface BodyRange {
  /** 1-based, inclusive: the declaration's first and last lines. */
  readonly startLine: number;
  readonly endLine: number;
  /** 1-based, inclusive: the body as the extractor delimited it. */
  readonly bodyStartLine: number;
  readonly bodyEndLine: number;
}

export interface SnippetRequest {
  /**
   * The file's current lines with their secrets masked, the whole file at once (`maskSecretLines`): a line's
   * masking can depend on lines above the window, such as the BEGIN line of a private key.
   */
  readonly source: MaskedLines;
  /** 1-based line the snippet is about. */
  readonly anchor: number;
  /** Bodies to replace by a marker (none when the caller asked for bodies). */
  readonly bodies: readonly BodyRange[];
  /** Python-like languages mark a stripped body with `...`; brace languages with a comment. */
  readonly indentBodies: boolean;
  /** The body ranges include the brace lines (JVM extractors) rather than only the lines inside them. */
  readonly bracesIncluded?: boolean;
}

export interface Snippet {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly redactions: number;
}

interface ViewLine {
  readonly text: string;
  readonly from: number;
  readonly to: number;
  /** A marker standing for stripped body lines, not a line of the file. */
  readonly stripped?: boolean;
}

/**
 * Lines strictly inside each body, merged so a method inside a stripped class method is not counted twice.
 * Most extractors give the lines inside the braces; the JVM extractors give the block with its brace lines
 * (`bracesIncluded`), which keep the signature and the closing brace visible here.
 */
function strippedRanges(
  bodies: readonly BodyRange[],
  indentBodies: boolean,
  bracesIncluded: boolean,
): { from: number; to: number }[] {
  const inset = bracesIncluded ? 1 : 0;
  const ranges = bodies
    .map((b) =>
      indentBodies
        ? { from: Math.max(b.bodyStartLine, b.startLine + 1), to: b.bodyEndLine }
        : {
            from: Math.max(b.bodyStartLine + inset, b.startLine + 1),
            to: Math.min(b.bodyEndLine - inset, b.endLine - 1),
          },
    )
    .filter((r) => r.to >= r.from)
    .sort((a, b) => a.from - b.from || b.to - a.to);
  const merged: { from: number; to: number }[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * At most `SNIPPET_LINES` lines around `anchor`, starting `SNIPPET_LEAD` lines above it, with stripped bodies
 * shown as one marker line, each line cut to `MAX_SNIPPET_LINE_BYTES` on a character boundary. Line numbers
 * stay those of the original file; `redactions` counts the masked secrets on the lines shown.
 */
export function renderSnippet(request: SnippetRequest): Snippet {
  const { lines } = request.source;
  const ranges = strippedRanges(request.bodies, request.indentBodies, request.bracesIncluded ?? false);
  const view: ViewLine[] = [];
  let rangeIndex = 0;
  for (let line = 1; line <= lines.length; line++) {
    const range = ranges[rangeIndex];
    if (range && line === range.from) {
      const indent = /^\s*/.exec(lines[line - 1] ?? '')?.[0] ?? '';
      const marker = request.indentBodies
        ? `${indent}...`
        : `${indent}/* … ${range.to - range.from + 1} line(s) stripped … */`;
      view.push({ text: marker, from: range.from, to: Math.min(range.to, lines.length), stripped: true });
      line = range.to;
      rangeIndex++;
      continue;
    }
    view.push({ text: lines[line - 1] ?? '', from: line, to: line });
  }
  let anchorIndex = view.findIndex((v) => v.from <= request.anchor && request.anchor <= v.to);
  if (anchorIndex === -1) anchorIndex = Math.max(0, view.length - 1);
  const start = Math.max(0, anchorIndex - SNIPPET_LEAD);
  const window = view.slice(start, start + SNIPPET_LINES);
  const body = window
    .map((v) =>
      byteLength(v.text) > MAX_SNIPPET_LINE_BYTES
        ? `${cutToBytes(v.text, MAX_SNIPPET_LINE_BYTES - 3)}...`
        : v.text,
    )
    .join('\n');
  const shown = window.filter((v) => !v.stripped).map((v) => v.from - 1);
  return {
    startLine: window[0]?.from ?? 1,
    endLine: window[window.length - 1]?.to ?? 1,
    text: body,
    redactions: request.source.redactionsOn(shown),
  };
}

/** A code fence longer than any backtick run inside the text, so the snippet cannot close it early. */
export function fenced(text: string, language: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}
