/**
 * Matching lines of one text, the way ripgrep reports them: a line matches when the expression matches
 * inside it, never across a line break. The expression runs over the whole text (one native scan, not one
 * call per line) and each hit is confirmed on its own line, which also rejects a hit that needed the line
 * break; the scan then resumes on the next line.
 */

export interface LineHit {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units, of the first match on the line. */
  readonly column: number;
}

export interface FileHits {
  /** The first `keep` matching lines. */
  readonly lines: readonly LineHit[];
  /** Every matching line, or at least `stopAt` when the scan stopped there. */
  readonly count: number;
}

/**
 * The matching lines of `text`. `regex` must carry the `g` and `m` flags. Counting stops at `stopAt` matching
 * lines (the caller's overall budget).
 */
export function matchingLines(text: string, regex: RegExp, keep: number, stopAt: number): FileHits {
  const lines: LineHit[] = [];
  let count = 0;
  let lineNumber = 1;
  /** Where `lineNumber` starts in `text`. */
  let counted = 0;
  let from = 0;
  while (from < text.length && count < stopAt) {
    regex.lastIndex = from;
    const hit = regex.exec(text);
    if (!hit) break;
    const start = text.lastIndexOf('\n', hit.index - 1) + 1;
    const newline = text.indexOf('\n', hit.index);
    const end = newline === -1 ? text.length : newline;
    // A hit that begins on the line break itself belongs to the next line.
    const lineStart = hit.index === end && newline !== -1 && hit[0].length > 0 ? end + 1 : start;
    // The empty "line" after a final line break is no line (an empty file has none either).
    if (lineStart >= text.length) break;
    const lineEnd = lineStart === start ? end : nextBreak(text, lineStart);
    for (let i = text.indexOf('\n', counted); i !== -1 && i < lineStart; i = text.indexOf('\n', i + 1)) {
      lineNumber++;
      counted = i + 1;
    }
    const column = columnOnLine(text.slice(lineStart, lineEnd), regex);
    if (column !== undefined) {
      count++;
      if (lines.length < keep) lines.push({ line: lineNumber, column });
    }
    if (lineEnd >= text.length) break;
    from = lineEnd + 1;
  }
  return { lines, count };
}

const nextBreak = (text: string, from: number): number => {
  const i = text.indexOf('\n', from);
  return i === -1 ? text.length : i;
};

/** 1-based column of the first match inside `line` alone, or undefined when the line alone does not match. */
function columnOnLine(line: string, regex: RegExp): number | undefined {
  regex.lastIndex = 0;
  const hit = regex.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  return hit ? hit.index + 1 : undefined;
}
