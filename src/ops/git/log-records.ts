/**
 * Reads `git log` into commit records. The output is NUL-separated (`-z`), so file names with spaces, quotes,
 * newlines or any Unicode arrive as they are; each commit's header is one NUL-terminated token whose fields
 * are separated by the unit separator, the subject (which may hold anything) last.
 */
import { gitText } from './git-call.js';
import type { WorkspaceRepository } from './repository.js';

export interface ChangedFile {
  /** A added, M modified, D deleted, R renamed, C copied, T type changed. */
  readonly status: string;
  /** Repository-relative, as of this commit. */
  readonly path: string;
  /** For a rename or copy: the path before. */
  readonly oldPath?: string;
}

export interface CommitRecord {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly author: string;
  readonly email: string;
  /** Author date, ISO 8601 with the author's offset. */
  readonly date: string;
  readonly subject: string;
  /** The whole message, when asked for. */
  readonly message?: string;
  readonly files: readonly ChangedFile[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';

/** The `--format` of a record; with `message`, the whole message follows the subject. */
export const logFormat = (message: boolean): string =>
  `--format=${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%s${message ? `${FIELD}%B` : ''}`;

function headerOf(token: string, message: boolean): Omit<CommitRecord, 'files'> {
  const fields = token.slice(token.indexOf(RECORD) + 1).split(FIELD);
  const [sha = '', parents = '', author = '', email = '', date = ''] = fields;
  // Everything after the fifth separator is the subject (and message): they may contain the separator.
  const rest = fields.slice(5);
  const subject = message ? (rest.slice(0, 1)[0] ?? '') : rest.join(FIELD);
  return {
    sha,
    parents: parents === '' ? [] : parents.split(' '),
    author,
    email,
    date,
    subject,
    ...(message ? { message: rest.slice(1).join(FIELD).trimEnd() } : {}),
  };
}

const STATUS = /^[ACDMRTUXB]\d*$/;

/** Parses `git log -z [--name-status]` output made with `logFormat(message)`. */
export function parseLog(output: string, message: boolean): CommitRecord[] {
  const tokens = output.split('\0');
  const commits: CommitRecord[] = [];
  let files: ChangedFile[] = [];
  let header: Omit<CommitRecord, 'files'> | undefined;
  const flush = () => {
    if (header) commits.push({ ...header, files });
    header = undefined;
    files = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = (tokens[i] ?? '').replace(/^\n/, '');
    if (token === '') continue;
    const status = header !== undefined && STATUS.test(token) ? token : undefined;
    if (status === undefined) {
      if (token.startsWith(RECORD)) {
        flush();
        header = headerOf(token, message);
      }
      continue;
    }
    const twoPaths = status.startsWith('R') || status.startsWith('C');
    const first = tokens[++i] ?? '';
    if (twoPaths) {
      const second = tokens[++i] ?? '';
      files.push({ status: status[0] as string, path: second, oldPath: first });
    } else {
      files.push({ status, path: first });
    }
  }
  flush();
  return commits;
}

export interface LogQuery {
  /** Extra options before the revision (`--follow`, `--author=`…), each a whole argument. */
  readonly options?: readonly string[];
  /** With each commit's changed files (rename detection on). */
  readonly files?: boolean;
  /** With each commit's whole message. */
  readonly message?: boolean;
  /** At most this many commits. */
  readonly max: number;
  readonly skip?: number;
  /** Literal pathspecs, repository-relative. */
  readonly paths?: readonly string[];
}

/** Commits reachable from HEAD, newest first, as `git log` walks them. */
export async function readLog(
  repo: WorkspaceRepository,
  query: LogQuery,
  signal: AbortSignal,
): Promise<CommitRecord[]> {
  if (repo.head === undefined) return [];
  const args = [
    'log',
    '-z',
    '--no-color',
    '--no-show-signature',
    '--no-mailmap',
    logFormat(query.message === true),
    ...(query.files ? ['--name-status', '-M'] : []),
    `--max-count=${query.max}`,
    ...(query.skip ? [`--skip=${query.skip}`] : []),
    ...(query.options ?? []),
    '--end-of-options',
    repo.head,
    '--',
    ...(query.paths ?? []),
  ];
  return parseLog(await gitText(repo, args, { signal }), query.message === true);
}
