import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describeGitFailure, runGit, type GitResult } from '../shared/git/run-git.js';
import { validateRevision } from '../shared/git/revision.js';

export {
  describeGitFailure,
  gitEnvironment,
  GIT_TIMEOUT_MS,
  REPOSITORY_REDIRECT_VARIABLES,
  runGit,
  SMALL_OUTPUT_BYTES,
  type GitOptions,
  type GitResult,
} from '../shared/git/run-git.js';

/**
 * Checks a caller's git revision before it gets near a command line: it must read as one revision, never as
 * an option (`-x`), a `revision:path` (`a:b`) or several words.
 */
export function validateBase(base: string): void {
  validateRevision('base', base, 'or omit `base` for the default merge base');
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
  // No `.git` in any folder above: git would find no repository either (the variables that could point it
  // elsewhere are removed from its environment), so a process start per call is saved.
  if (!hasGitAbove(cwd)) return { kind: 'no_repo' };
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

function hasGitAbove(start: string): boolean {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
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
