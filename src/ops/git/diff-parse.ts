/** Reads the hunks of a unified diff of one file, and masks the secrets in their lines. */
import { maskSecretLines } from '../../trust/secret-mask.js';

export interface DiffHunk {
  /** 1-based first line on each side; a side with no lines starts at the line before (0 at the top). */
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** What git shows after `@@`: the enclosing function's line, when it finds one. */
  readonly context: string;
  /** `-`, `+` and ` ` prefixed lines. */
  readonly lines: readonly string[];
}

export interface ParsedDiff {
  readonly hunks: DiffHunk[];
  readonly binary: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

export function parseDiff(output: string): ParsedDiff {
  const hunks: DiffHunk[] = [];
  let binary = false;
  let current: { head: RegExpExecArray; lines: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    const [, a, b, c, d, context] = current.head;
    hunks.push({
      oldStart: Number(a),
      oldLines: b === undefined ? 1 : Number(b),
      newStart: Number(c),
      newLines: d === undefined ? 1 : Number(d),
      context: context ?? '',
      lines: current.lines,
    });
    current = undefined;
  };
  for (const line of output.split('\n')) {
    const head = HUNK.exec(line);
    if (head) {
      flush();
      current = { head, lines: [] };
      continue;
    }
    if (current) {
      if (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ')) current.lines.push(line);
      else if (line.startsWith('\\')) continue;
      else flush();
    } else if (/^Binary files .* differ$/.test(line)) binary = true;
  }
  flush();
  return { hunks, binary };
}

/** A hunk with secrets masked, its lines masked together so that a secret spread over lines is caught. */
export function maskHunk(hunk: DiffHunk): { hunk: DiffHunk; redactions: number } {
  const body = hunk.lines.map((l) => l.slice(1));
  const masked = maskSecretLines(body);
  const context = maskSecretLines([hunk.context]);
  return {
    hunk: {
      ...hunk,
      context: context.lines[0] ?? '',
      lines: masked.lines.map((l, i) => `${(hunk.lines[i] ?? ' ')[0] ?? ' '}${l}`),
    },
    redactions: masked.redactions + context.redactions,
  };
}
