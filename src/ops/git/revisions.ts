/** Revisions a caller names, turned into commits, and whether a file exists at one. */
import { existsSync, statSync } from 'node:fs';
import { ToolError } from '../../core/errors.js';
import { checkedRevision } from './git-args.js';
import { gitRaw, gitText } from './git-call.js';
import type { WorkspaceRepository } from './repository.js';

/** The commit a revision names, or a ToolError saying it names none. */
export async function commitOf(
  repo: WorkspaceRepository,
  argument: string,
  revision: string,
  signal: AbortSignal,
): Promise<string> {
  checkedRevision(argument, revision);
  if (repo.head === undefined)
    throw new ToolError(
      'not_found',
      `The repository has no commits yet, so \`${argument}\` "${revision}" names none.`,
    );
  const result = await gitRaw(
    repo,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
    {
      signal,
    },
  );
  const sha = result.kind === 'ok' ? result.stdout.toString('utf8').trim() : '';
  if (sha === '')
    throw new ToolError(
      'not_found',
      `\`${argument}\` ${JSON.stringify(revision)} is not a commit in this repository: name a branch, tag or commit SHA (\`git recent\` lists commits).`,
    );
  return sha;
}

/** Whether the file (repository-relative) is a blob in the commit's tree. */
export async function presentAt(
  repo: WorkspaceRepository,
  commit: string,
  relative: string,
  signal: AbortSignal,
): Promise<boolean> {
  const out = await gitText(
    repo,
    ['ls-tree', '-z', '--full-tree', '--end-of-options', commit, '--', relative],
    {
      signal,
    },
  );
  return out.split('\0').some((entry) => entry.endsWith(`\t${relative}`) && / blob /.test(entry));
}

export const presentOnDisk = (absolute: string): boolean => {
  try {
    return existsSync(absolute) && statSync(absolute).isFile();
  } catch {
    return false;
  }
};
