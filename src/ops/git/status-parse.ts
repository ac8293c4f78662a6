/**
 * Reads `git status --porcelain=v2 -z --branch`: the branch header lines, then one NUL-terminated entry per
 * path (a rename's entry is followed by its old path as a second token), names exactly as on disk.
 */

export interface StatusEntry {
  /** Repository-relative. */
  readonly path: string;
  readonly oldPath?: string;
  /** One letter: A added, M modified, D deleted, R renamed, C copied, T type changed, U unmerged. */
  readonly status: string;
}

export interface WorkTreeStatus {
  readonly oid: string | undefined;
  /** The branch, undefined when HEAD is detached. */
  readonly branch: string | undefined;
  readonly upstream: string | undefined;
  readonly ahead: number | undefined;
  readonly behind: number | undefined;
  readonly staged: StatusEntry[];
  readonly unstaged: StatusEntry[];
  readonly untracked: StatusEntry[];
  readonly conflicted: StatusEntry[];
}

/** Fields before the path: `1 XY sub mH mI mW hH hI`, `2 … Xscore`, `u XY sub m1 m2 m3 mW h1 h2 h3`. */
const FIELDS_BEFORE_PATH: Record<string, number> = { '1': 8, '2': 9, u: 10 };

function afterFields(token: string, count: number): string {
  let at = 0;
  for (let i = 0; i < count; i++) at = token.indexOf(' ', at) + 1;
  return token.slice(at);
}

export function parseStatus(output: string): WorkTreeStatus {
  const status: {
    -readonly [K in keyof WorkTreeStatus]: WorkTreeStatus[K];
  } = {
    oid: undefined,
    branch: undefined,
    upstream: undefined,
    ahead: undefined,
    behind: undefined,
    staged: [],
    unstaged: [],
    untracked: [],
    conflicted: [],
  };
  const tokens = output.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (token === '') continue;
    const kind = token[0] ?? '';
    if (kind === '#') {
      const [, key = '', ...rest] = token.split(' ');
      const value = rest.join(' ');
      if (key === 'branch.oid') status.oid = value === '(initial)' ? undefined : value;
      if (key === 'branch.head') status.branch = value === '(detached)' ? undefined : value;
      if (key === 'branch.upstream') status.upstream = value;
      if (key === 'branch.ab') {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        if (match) {
          status.ahead = Number(match[1]);
          status.behind = Number(match[2]);
        }
      }
      continue;
    }
    if (kind === '?') {
      status.untracked.push({ path: token.slice(2), status: '?' });
      continue;
    }
    const fields = FIELDS_BEFORE_PATH[kind];
    if (fields === undefined) continue;
    const path = afterFields(token, fields);
    const [x = '.', y = '.'] = token.slice(2, 4);
    if (kind === 'u') {
      status.conflicted.push({ path, status: 'U' });
      continue;
    }
    const oldPath = kind === '2' ? (tokens[++i] ?? '') : undefined;
    const entry = (letter: string): StatusEntry => ({
      path,
      status: letter,
      ...(oldPath !== undefined && (letter === 'R' || letter === 'C') ? { oldPath } : {}),
    });
    if (x !== '.') status.staged.push(entry(x));
    if (y !== '.') status.unstaged.push(entry(y));
  }
  return status;
}
