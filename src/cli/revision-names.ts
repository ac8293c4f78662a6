/**
 * Revision names a prompt's `base` argument completes with: the branches, remote branches and tags of the
 * repositories holding the workspace's roots. Read on each request (refs move while a server runs); one git
 * process per root at most, and nothing when git or a repository is missing.
 */
import { runGit } from '../ops/shared/git/run-git.js';

/** Roots asked at most: a workspace of many roots usually holds them in one repository. */
const MAX_ROOTS = 8;
/** Ref names read per repository at most (the git output cap bounds it too). */
const OUTPUT_BYTES = 256 * 1024;

export async function revisionNames(rootPaths: readonly string[]): Promise<readonly string[]> {
  const lists = await Promise.all(
    [...new Set(rootPaths)].slice(0, MAX_ROOTS).map(async (cwd) => {
      const result = await runGit(
        ['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes', 'refs/tags'],
        { cwd, maxBytes: OUTPUT_BYTES },
      );
      return result.kind === 'ok' ? result.stdout.toString('utf8').split('\n') : [];
    }),
  );
  const names = new Set(lists.flat().filter((name) => name !== '' && !name.endsWith('/HEAD')));
  return names.size === 0 ? [] : ['HEAD', ...[...names].sort()];
}
