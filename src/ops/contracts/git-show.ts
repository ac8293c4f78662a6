import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../core/errors.js';

/** Every git command gets this long; a hung credential helper or a huge repository must not hang a call. */
export const GIT_TIMEOUT_MS = 5_000;
/** Output of plumbing commands (a SHA, a tree entry) is tiny; anything bigger is refused. */
export const SMALL_OUTPUT_BYTES = 64 * 1024;
const STDERR_BYTES = 8 * 1024;
const MAX_BASE_BYTES = 256;

/**
 * Variables that point git at another repository, index, object store or configuration. A server launched
 * from inside a git hook or an IDE terminal may inherit them, and then every command would read a
 * repository other than the one holding the file. `GIT_CEILING_DIRECTORIES` is kept: it only limits discovery.
 */
export const REPOSITORY_REDIRECT_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_QUARANTINE_PATH',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_REPLACE_REF_BASE',
] as const;

/** The environment git runs with: no redirection, no prompts, no optional locks, untranslated messages. */
export function gitEnvironment(inherited: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(inherited)) {
    if ((REPOSITORY_REDIRECT_VARIABLES as readonly string[]).includes(key)) continue;
    // The numbered companions of GIT_CONFIG_COUNT are inert without it, but they are configuration too.
    if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(key)) continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_OPTIONAL_LOCKS = '0';
  // Paths given to ls-tree are file names, never pathspec patterns.
  env.GIT_LITERAL_PATHSPECS = '1';
  env.LC_ALL = 'C';
  return env;
}

export type GitResult =
  | { readonly kind: 'ok'; readonly stdout: Buffer }
  | { readonly kind: 'failed'; readonly code: number | null; readonly stderr: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'too_large'; readonly limit: number }
  | { readonly kind: 'cancelled' };

export interface GitOptions {
  readonly cwd: string;
  /** Stdout beyond this is refused (the process is killed). Default `SMALL_OUTPUT_BYTES`. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Runs `git` with an argv array (never a shell), the safe environment, a timeout and capped output. */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? SMALL_OUTPUT_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: GitResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const child = spawn('git', ['-c', 'core.fsmonitor=false', '--no-pager', ...args], {
      cwd: options.cwd,
      env: gitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const kill = () => {
      try {
        child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => {
      kill();
      finish({ kind: 'cancelled' });
    };
    const timer = setTimeout(() => {
      kill();
      finish({ kind: 'timeout' });
    }, options.timeoutMs ?? GIT_TIMEOUT_MS);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        kill();
        finish({ kind: 'too_large', limit: maxBytes });
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_BYTES) stderr = (stderr + chunk.toString('utf8')).slice(0, STDERR_BYTES);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'failed', code: null, stderr: error.message },
      );
    });
    child.on('close', (code) => {
      if (code === 0) finish({ kind: 'ok', stdout: Buffer.concat(chunks) });
      else finish({ kind: 'failed', code, stderr: stderr.trim() });
    });
  });
}

/** A git failure as one line a caller can read. */
export function describeGitFailure(result: Exclude<GitResult, { kind: 'ok' }>): string {
  switch (result.kind) {
    case 'missing':
      return 'git is not installed or not on PATH';
    case 'timeout':
      return `git did not answer within ${GIT_TIMEOUT_MS / 1000} s`;
    case 'too_large':
      return `git output exceeded ${result.limit} bytes`;
    case 'cancelled':
      return 'the call was cancelled';
    case 'failed': {
      const line =
        result.stderr.split('\n').find((l) => l.trim() !== '') ?? `exit code ${String(result.code)}`;
      return line.replace(/^(fatal|error): /, '').trim();
    }
  }
}

/**
 * Checks a caller's git revision before it gets near a command line: it must read as one revision, never as
 * an option (`-x`), a `revision:path` (`a:b`) or several words.
 */
export function validateBase(base: string): void {
  if (base === '') {
    throw new ToolError(
      'invalid_argument',
      '`base` is empty: name a git revision such as "main", "origin/main", a tag or a commit SHA, or omit `base` for the default merge base.',
    );
  }
  const bytes = Buffer.byteLength(base, 'utf8');
  if (bytes > MAX_BASE_BYTES) {
    throw new ToolError(
      'invalid_argument',
      `\`base\` must be at most ${MAX_BASE_BYTES} bytes, got ${bytes} bytes.`,
    );
  }
  if (base.startsWith('-')) {
    throw new ToolError(
      'invalid_argument',
      `\`base\` must not start with "-" (git would read it as an option), got ${JSON.stringify(base)}.`,
    );
  }
  if (base.includes(':')) {
    throw new ToolError(
      'invalid_argument',
      `\`base\` must not contain ":" (name a revision, not "revision:path"), got ${JSON.stringify(base)}.`,
    );
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/u.test(base)) {
    throw new ToolError(
      'invalid_argument',
      `\`base\` must not contain whitespace or control characters, got ${JSON.stringify(base)}.`,
    );
  }
}

export interface RepoLocation {
  /** The work tree's top folder, canonical. */
  readonly top: string;
  /** The file relative to `top`, `/`-separated. */
  readonly relative: string;
}

export type RepoLookup =
  | { readonly kind: 'repo'; readonly location: RepoLocation }
  | { readonly kind: 'no_repo' }
  | { readonly kind: 'failed'; readonly reason: string };

/** The git work tree holding a file (the innermost one, so a submodule's own), if any. */
export async function locateRepository(file: string, signal?: AbortSignal): Promise<RepoLookup> {
  const cwd = path.dirname(file);
  const result = await runGit(['rev-parse', '--show-toplevel'], { cwd, ...(signal ? { signal } : {}) });
  if (result.kind === 'failed' && /not a git repository/i.test(result.stderr)) return { kind: 'no_repo' };
  if (result.kind !== 'ok') return { kind: 'failed', reason: describeGitFailure(result) };
  const reported = result.stdout.toString('utf8').trim();
  // A bare repository or a `.git` folder has no work tree to hold the file.
  if (reported === '') return { kind: 'no_repo' };
  let top: string;
  let real: string;
  try {
    top = realpathSync.native(reported);
    real = realpathSync.native(file);
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
  const relative = path.relative(top, real);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return { kind: 'no_repo' };
  return { kind: 'repo', location: { top, relative: relative.split(path.sep).join('/') } };
}

export interface ResolvedBase {
  /** What the caller named, or the ref the default was derived from (`origin/main`), or `HEAD`. */
  readonly ref: string;
  /** Full commit SHA. */
  readonly commit: string;
  readonly how: 'explicit' | 'merge-base' | 'head';
}

export type BaseLookup =
  { readonly kind: 'ok'; readonly base: ResolvedBase } | { readonly kind: 'failed'; readonly reason: string };

/** Refs whose merge base with HEAD is the default comparison point, first existing wins. */
export const DEFAULT_BASE_REFS = ['origin/HEAD', 'origin/main', 'main'] as const;

async function commitOf(top: string, revision: string, signal?: AbortSignal): Promise<GitResult> {
  return runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], {
    cwd: top,
    ...(signal ? { signal } : {}),
  });
}

const sha = (result: { stdout: Buffer }): string => result.stdout.toString('utf8').trim();

/**
 * The commit to compare against: the caller's revision, else `git merge-base HEAD <ref>` for the first
 * existing default ref, else HEAD. Never `HEAD~1`: the previous commit says nothing about what a branch
 * changed.
 */
export async function resolveBase(
  top: string,
  explicit: string | undefined,
  signal?: AbortSignal,
): Promise<BaseLookup> {
  const opts = signal ? { signal } : {};
  if (explicit !== undefined) {
    const result = await commitOf(top, explicit, signal);
    if (result.kind === 'ok' && sha(result) !== '')
      return { kind: 'ok', base: { ref: explicit, commit: sha(result), how: 'explicit' } };
    if (result.kind === 'failed' || result.kind === 'ok') {
      return { kind: 'failed', reason: `${JSON.stringify(explicit)} is not a commit in this repository` };
    }
    return { kind: 'failed', reason: describeGitFailure(result) };
  }
  for (const ref of DEFAULT_BASE_REFS) {
    const exists = await commitOf(top, ref, signal);
    if (exists.kind === 'failed') continue;
    if (exists.kind !== 'ok') return { kind: 'failed', reason: describeGitFailure(exists) };
    const mergeBase = await runGit(['merge-base', 'HEAD', '--end-of-options', ref], { cwd: top, ...opts });
    if (mergeBase.kind === 'ok' && sha(mergeBase) !== '')
      return { kind: 'ok', base: { ref, commit: sha(mergeBase), how: 'merge-base' } };
    if (mergeBase.kind === 'failed') return { kind: 'failed', reason: `HEAD and ${ref} have no merge base` };
    return {
      kind: 'failed',
      reason: mergeBase.kind === 'ok' ? `HEAD and ${ref} have no merge base` : describeGitFailure(mergeBase),
    };
  }
  const head = await commitOf(top, 'HEAD', signal);
  if (head.kind === 'ok' && sha(head) !== '')
    return { kind: 'ok', base: { ref: 'HEAD', commit: sha(head), how: 'head' } };
  if (head.kind === 'failed' || head.kind === 'ok')
    return { kind: 'failed', reason: 'the repository has no commit yet' };
  return { kind: 'failed', reason: describeGitFailure(head) };
}

export type BlobLookup =
  | { readonly kind: 'content'; readonly text: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'too_large'; readonly size: number }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * A file's content at a commit, read in memory: the tree entry first (absent, or too large, is answered
 * without reading the blob), then `git show --no-textconv` so no configured filter program runs.
 */
export async function showAtCommit(
  location: RepoLocation,
  commit: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<BlobLookup> {
  const opts = { cwd: location.top, ...(signal ? { signal } : {}) };
  const entry = await runGit(
    ['ls-tree', '-z', '-l', '--full-tree', '--end-of-options', commit, '--', location.relative],
    opts,
  );
  if (entry.kind !== 'ok') return { kind: 'failed', reason: describeGitFailure(entry) };
  const line = entry.stdout
    .toString('utf8')
    .split('\0')
    .find((l) => l.endsWith(`\t${location.relative}`));
  if (!line) return { kind: 'absent' };
  const match = /^\d+ (\w+) [0-9a-f]+ +(-|\d+)\t/.exec(line);
  if (!match || match[1] !== 'blob') return { kind: 'absent' };
  const size = Number(match[2]);
  if (Number.isFinite(size) && size > maxBytes) return { kind: 'too_large', size };
  const shown = await runGit(
    ['show', '--no-textconv', '--end-of-options', `${commit}:${location.relative}`],
    { ...opts, maxBytes },
  );
  if (shown.kind === 'too_large') return { kind: 'too_large', size: maxBytes + 1 };
  if (shown.kind !== 'ok') return { kind: 'failed', reason: describeGitFailure(shown) };
  return { kind: 'content', text: shown.stdout.toString('utf8') };
}
