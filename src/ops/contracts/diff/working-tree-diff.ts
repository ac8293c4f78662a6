/**
 * What changed between a git revision and the working tree, in every repository the workspace's roots are
 * in: tracked files (staged and unstaged alike, as `git diff <revision>` compares the files on disk) and
 * untracked files that are not ignored. Each root may be in its own repository, several in one, or in none.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { ToolError } from '../../../core/errors.js';
import type { RootInfo, SnapshotReader } from '../../../index/reader.js';
import { probe, rootsScope } from '../../git/repository.js';
import { describeGitFailure, runGit } from '../../shared/git/run-git.js';
import { displayPath } from '../../shared/workspace-paths.js';
import { resolveBase, type RepoLocation, type ResolvedBase } from '../git-show.js';
import { parseUnifiedDiff, type ChangedRange, type DiffFile } from './unified-diff.js';

/** A diff of a large change is long; beyond this the answer would be cut anyway. */
const DIFF_BYTES = 32 * 1024 * 1024;
const DIFF_TIMEOUT_MS = 30_000;

export interface ChangedFile {
  /** The root holding it (the innermost), and the path relative to that root. */
  readonly root: string;
  readonly path: string;
  /** Workspace-relative, as answers show paths. */
  readonly display: string;
  /** Where git finds it: the repository top and the repository-relative path. */
  readonly location: RepoLocation;
  readonly status: DiffFile['status'];
  readonly ranges: readonly ChangedRange[];
}

export interface RepositoryDiff {
  readonly top: string;
  /** The roots this repository holds (or is held by), by name. */
  readonly roots: readonly string[];
  readonly base: ResolvedBase;
  readonly files: readonly ChangedFile[];
}

export interface WorkingTreeDiff {
  readonly revision: string;
  readonly repositories: readonly RepositoryDiff[];
  /** Roots in no git repository: nothing of theirs was compared. */
  readonly outside: readonly string[];
}

const posixRelative = (from: string, to: string): string => path.relative(from, to).split(path.sep).join('/');
const isInside = (relative: string): boolean =>
  relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
/** The roots of the workspace grouped by the repository holding them; roots in none apart. */
async function repositoriesOf(
  roots: readonly RootInfo[],
  signal: AbortSignal,
): Promise<{ tops: Map<string, RootInfo[]>; outside: string[] }> {
  const tops = new Map<string, RootInfo[]>();
  const outside: string[] = [];
  for (const root of roots) {
    const top = existsSync(root.path) ? (await probe(root.path, signal))?.top : undefined;
    if (top === undefined) outside.push(root.name);
    else tops.set(top, [...(tops.get(top) ?? []), root]);
  }
  return { tops, outside };
}

/** The innermost root holding an absolute path, with the path relative to it. */
function rootOfPath(
  roots: readonly RootInfo[],
  absolute: string,
): { root: RootInfo; path: string } | undefined {
  let best: { root: RootInfo; path: string } | undefined;
  for (const root of roots) {
    const relative = posixRelative(root.path, absolute);
    if (relative !== '' && isInside(relative) && (!best || root.path.length > best.root.path.length))
      best = { root, path: relative };
  }
  return best;
}

async function gitOutput(top: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  const result = await runGit(args, { cwd: top, signal, maxBytes: DIFF_BYTES, timeoutMs: DIFF_TIMEOUT_MS });
  if (result.kind === 'cancelled') throw new ToolError('cancelled', 'The call was cancelled.');
  if (result.kind !== 'ok') throw new ToolError('unavailable', `git failed: ${describeGitFailure(result)}.`);
  return result.stdout.toString('utf8');
}

/** The changed files of one repository, tracked then untracked, mapped to the roots. */
async function repositoryDiff(
  top: string,
  held: readonly RootInfo[],
  all: readonly RootInfo[],
  revision: string,
  signal: AbortSignal,
): Promise<RepositoryDiff> {
  const names = held.map((r) => r.name);
  const resolved = await resolveBase(top, revision, signal);
  if (resolved.kind === 'failed')
    throw new ToolError(
      'invalid_argument',
      `\`diff\`: ${resolved.reason} (the repository holding ${names.map((n) => `\`${n}\``).join(', ')}). Name a branch, tag or commit SHA of it, e.g. "HEAD" for uncommitted work or "main".`,
    );
  // Limited to the roots' part of the repository (all of it when a root holds the whole).
  const specs = rootsScope(top, held);
  const diffText = await gitOutput(
    top,
    [
      '-c',
      'core.quotePath=false',
      'diff',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      '--no-relative',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '--end-of-options',
      resolved.base.commit,
      '--',
      ...specs,
    ],
    signal,
  );
  const untracked = await gitOutput(
    top,
    ['ls-files', '--others', '--exclude-standard', '-z', '--', ...specs],
    signal,
  );
  const entries: DiffFile[] = [
    ...parseUnifiedDiff(diffText),
    ...untracked
      .split('\0')
      .filter(Boolean)
      .map((p): DiffFile => ({
        path: p,
        status: 'added',
        ranges: [{ start: 1, end: Number.MAX_SAFE_INTEGER, deletion: false }],
      })),
  ];
  const files: ChangedFile[] = [];
  for (const entry of entries) {
    const at = rootOfPath(all, path.join(top, ...entry.path.split('/')));
    if (!at) continue;
    files.push({
      root: at.root.name,
      path: at.path,
      display: displayPath(all, at.root.name, at.path),
      location: { top, relative: entry.path },
      status: entry.status,
      ranges: entry.ranges,
    });
  }
  files.sort((a, b) =>
    a.root === b.root ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.root < b.root ? -1 : 1,
  );
  return { top, roots: names, base: resolved.base, files };
}

/** The working tree against `revision` in each repository holding a root. */
export async function workingTreeDiff(
  snapshot: SnapshotReader,
  revision: string,
  signal: AbortSignal,
): Promise<WorkingTreeDiff> {
  const { tops, outside } = await repositoriesOf(snapshot.roots, signal);
  if (tops.size === 0)
    throw new ToolError(
      'not_found',
      'No root of the workspace is inside a git repository: `diff` compares the working tree with a git revision, so there is nothing to compare. Use `target` or `symbol` to name what changes instead.',
    );
  const repositories: RepositoryDiff[] = [];
  for (const [top, held] of [...tops.entries()].sort(([a], [b]) => (a < b ? -1 : 1)))
    repositories.push(await repositoryDiff(top, held, snapshot.roots, revision, signal));
  return { revision, repositories, outside };
}
