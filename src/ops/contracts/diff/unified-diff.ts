/**
 * Reads `git diff -U0` output: which files changed, and which lines of the working-tree side each hunk
 * covers. Only hunk headers are read; the changed text itself is never needed (declarations and contracts
 * are compared from the parsed files).
 */

/** Lines of the working-tree file a hunk covers; a pure deletion covers the gap between two lines. */
export interface ChangedRange {
  readonly start: number;
  readonly end: number;
  /** Lines were only removed, between `start` and `end` (= start + 1). */
  readonly deletion: boolean;
}

export interface DiffFile {
  /** Repository-relative, `/`-separated: the working-tree path, or the base path when deleted. */
  readonly path: string;
  readonly status: 'added' | 'deleted' | 'modified';
  readonly ranges: readonly ChangedRange[];
}

/** A path as git prints it after `a/` or `b/`: C-quoted when it holds special characters. */
function unquote(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const sidePath = (line: string, prefix: '--- ' | '+++ '): string | undefined => {
  const raw = line.slice(prefix.length);
  if (raw === '/dev/null') return undefined;
  const path = unquote(raw);
  return path.slice(2);
};

/** The files of a `git diff -U0 --no-renames` output, each with its working-tree ranges. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let current: { oldPath?: string; newPath?: string; ranges: ChangedRange[] } | undefined;
  const flush = () => {
    if (!current) return;
    const { oldPath, newPath, ranges } = current;
    const path = newPath ?? oldPath;
    if (path !== undefined)
      files.push({
        path,
        status: oldPath === undefined ? 'added' : newPath === undefined ? 'deleted' : 'modified',
        ranges,
      });
    current = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      flush();
      current = { ranges: [] };
    } else if (current && line.startsWith('--- ')) {
      const path = sidePath(line, '--- ');
      if (path !== undefined) current.oldPath = path;
    } else if (current && line.startsWith('+++ ')) {
      const path = sidePath(line, '+++ ');
      if (path !== undefined) current.newPath = path;
    } else if (current && line.startsWith('@@ ')) {
      const match = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!match) continue;
      const start = Number(match[1]);
      const count = match[2] === undefined ? 1 : Number(match[2]);
      current.ranges.push(
        count === 0
          ? { start, end: start + 1, deletion: true }
          : { start, end: start + count - 1, deletion: false },
      );
    }
  }
  flush();
  return files;
}

/** Whether a declaration spanning `start..end` is touched by a range. */
export function touches(range: ChangedRange, start: number, end: number): boolean {
  if (range.deletion) return start <= range.start && end >= range.end;
  return start <= range.end && end >= range.start;
}
