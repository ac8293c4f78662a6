/**
 * The git repository a question is about. A workspace may hold several repositories (one per root, or a
 * monorepo holding them all, or a repository holding the workspace among other things): a path picks the one
 * holding it, no path picks the only one, and several without a path is an error naming them.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../core/errors.js';
import type { RootInfo, SnapshotReader } from '../../index/reader.js';
import { describeGitFailure, runGit } from '../shared/git/run-git.js';
import { displayPath } from '../shared/workspace-paths.js';

export interface WorkspaceRepository {
  /** The work tree's top folder, canonical. */
  readonly top: string;
  /** HEAD's commit, undefined in a repository without commits. */
  readonly head: string | undefined;
  /** The branch HEAD is on, undefined when detached (or unborn without a name). */
  readonly branch: string | undefined;
  /** A shallow clone: history stops at its boundary commits. */
  readonly shallow: boolean;
  /** The workspace roots, canonical: answers show paths as the index does, through them. */
  readonly roots: readonly RootInfo[];
  /**
   * Pathspecs (literal, relative to `top`) limiting history to what the question covers: the folder or file
   * asked about, else the roots inside the repository. Empty: the whole repository.
   */
  readonly scope: readonly string[];
}

const canonical = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

/** The nearest folder that exists at or above `absolute` (a deleted file's folder may be gone too). */
function existingFolder(absolute: string): string {
  let dir = absolute;
  while (!existsSync(dir) || !statSync(dir).isDirectory()) {
    const parent = path.dirname(dir);
    if (parent === dir) return dir;
    dir = parent;
  }
  return dir;
}

type Probe = Omit<WorkspaceRepository, 'roots' | 'scope'>;

const failed = (result: Exclude<Awaited<ReturnType<typeof runGit>>, { kind: 'ok' }>): ToolError =>
  result.kind === 'cancelled'
    ? new ToolError('cancelled', 'The call was cancelled.')
    : new ToolError('unavailable', `git failed: ${describeGitFailure(result)}.`);

/** A repository without commits: HEAD names nothing yet, so it is read in parts. */
async function probeUnborn(folder: string, signal: AbortSignal): Promise<Probe | undefined> {
  const opts = { cwd: folder, signal };
  const [top, branch] = await Promise.all([
    runGit(['rev-parse', '--show-toplevel', '--is-shallow-repository'], opts),
    runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], opts),
  ]);
  if (top.kind === 'failed' && /not a git repository/i.test(top.stderr)) return undefined;
  if (top.kind !== 'ok') throw failed(top);
  const [dir = '', shallow = ''] = top.stdout.toString('utf8').split('\n');
  const name = branch.kind === 'ok' ? branch.stdout.toString('utf8').trim() : '';
  return dir === ''
    ? undefined
    : { top: canonical(dir), head: undefined, branch: name || undefined, shallow: shallow === 'true' };
}

/**
 * The work tree holding `folder`, its HEAD, branch and shallowness, in one command for the usual case;
 * undefined when the folder is in no work tree.
 */
export async function probe(folder: string, signal: AbortSignal): Promise<Probe | undefined> {
  const result = await runGit(
    ['rev-parse', '--show-toplevel', '--is-shallow-repository', 'HEAD', '--symbolic-full-name', 'HEAD', '--'],
    { cwd: folder, signal },
  );
  if (result.kind === 'failed' && /not a git repository/i.test(result.stderr)) return undefined;
  if (result.kind === 'failed') return probeUnborn(folder, signal);
  if (result.kind !== 'ok') throw failed(result);
  const [top = '', shallow = '', head = '', ref = ''] = result.stdout.toString('utf8').split('\n');
  if (top === '') return undefined;
  return {
    top: canonical(top),
    head: head || undefined,
    // A detached HEAD has no symbolic name: git prints `HEAD` back.
    branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined,
    shallow: shallow === 'true',
  };
}

const posixRelative = (from: string, to: string): string => path.relative(from, to).split(path.sep).join('/');
const isInside = (relative: string): boolean =>
  relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));

/** The roots' part of a repository: all of it when a root is the repository (or holds it). */
export function rootsScope(top: string, roots: readonly RootInfo[]): string[] {
  const inside = roots.map((r) => posixRelative(top, canonical(r.path)));
  if (inside.some((rel) => rel === '' || !isInside(rel))) return [];
  return inside.sort();
}

/**
 * The repository holding `absolute` (a jailed path: a file, a folder, or a file deleted since), scoped to it;
 * without a path, the only repository the workspace's roots are in.
 */
export async function repositoryFor(
  snapshot: SnapshotReader,
  absolute: string | undefined,
  signal: AbortSignal,
): Promise<WorkspaceRepository> {
  const roots = snapshot.roots;
  if (absolute !== undefined) {
    const found = await probe(existingFolder(absolute), signal);
    if (found === undefined)
      throw new ToolError(
        'not_found',
        `\`${shownAbsolute(roots, absolute)}\` is not inside a git repository.`,
      );
    const top = found.top;
    const relative = posixRelative(top, absolute);
    const inRepo = roots.filter(
      (r) =>
        isInside(posixRelative(top, canonical(r.path))) || isInside(posixRelative(canonical(r.path), top)),
    );
    return { ...found, roots, scope: relative === '' ? rootsScope(top, inRepo) : [relative] };
  }
  const probes = await Promise.all(
    roots.map((root) => (existsSync(root.path) ? probe(root.path, signal) : Promise.resolve(undefined))),
  );
  const tops = new Map<string, { probe: Probe; names: string[] }>();
  probes.forEach((found, i) => {
    if (found === undefined) return;
    const entry = tops.get(found.top) ?? { probe: found, names: [] };
    entry.names.push(roots[i]?.name ?? '');
    tops.set(found.top, entry);
  });
  if (tops.size === 0)
    throw new ToolError('not_found', 'No root of the workspace is inside a git repository.');
  if (tops.size > 1) {
    const listed = [...tops.values()].map((entry) => `[${entry.names.join(', ')}]`);
    throw new ToolError(
      'invalid_argument',
      `The workspace holds ${tops.size} git repositories (roots ${listed.join(' and ')}): pass \`path\` naming a folder or file inside one of them.`,
    );
  }
  const [only] = [...tops.values()] as [{ probe: Probe; names: string[] }];
  const inRepo = roots.filter((r) => only.names.includes(r.name));
  return { ...only.probe, roots, scope: rootsScope(only.probe.top, inRepo) };
}

/** An absolute path as answers show paths: through the innermost root holding it, else as it is. */
function shownAbsolute(roots: readonly RootInfo[], absolute: string): string {
  let best: { root: RootInfo; relative: string } | undefined;
  for (const root of roots) {
    const relative = posixRelative(root.path, absolute);
    if (relative !== '' && isInside(relative) && (!best || root.path.length > best.root.path.length))
      best = { root, relative };
  }
  return best ? displayPath(roots, best.root.name, best.relative) : absolute.split(path.sep).join('/');
}

/** A repository-relative path as answers show paths (through the root holding it). */
export const shownPath = (repo: WorkspaceRepository, repoRelative: string): string =>
  shownAbsolute(repo.roots, path.join(repo.top, ...repoRelative.split('/')));

/** The path of a jailed file relative to its repository's top, as git names it. */
export const repoRelative = (repo: WorkspaceRepository, absolute: string): string =>
  posixRelative(repo.top, absolute);

/** Seven hex digits, as people read commits. */
export const shortSha = (sha: string): string => sha.slice(0, 7);

/** The repository as answers name it: the roots it holds, or the folder of the root holding it. */
export function repositoryLabel(repo: WorkspaceRepository): string {
  const held = repo.roots.filter((r) => isInside(posixRelative(repo.top, canonical(r.path))));
  const shownRoots = 3;
  if (held.length > shownRoots)
    return `${held
      .slice(0, shownRoots)
      .map((r) => r.name)
      .join(', ')} and ${held.length - shownRoots} more roots`;
  if (held.length > 0) return held.map((r) => r.name).join(', ');
  return shownAbsolute(repo.roots, repo.top);
}

/** The answer to a history question in a repository without commits. */
export const noCommitsYet = (repo: WorkspaceRepository): string =>
  `The repository holding ${repositoryLabel(repo)} has no commits yet: there is no history to show.`;
