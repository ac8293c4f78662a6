/** git as the git modes call it: failures become ToolErrors, output is text, the walk's bound applies. */
import { ToolError } from '../../core/errors.js';
import { describeGitFailure, runGit, type GitResult } from '../shared/git/run-git.js';
import type { WorkspaceRepository } from './repository.js';

/** History output is larger than plumbing output; beyond this the answer would be cut anyway. */
export const HISTORY_BYTES = 32 * 1024 * 1024;
/** A walk through 10,000 commits, a blame of a large file: longer than a plumbing command. */
export const HISTORY_TIMEOUT_MS = 30_000;

export interface CallOptions {
  readonly signal: AbortSignal;
  readonly maxBytes?: number;
}

function failure(result: Exclude<GitResult, { kind: 'ok' }>): ToolError {
  if (result.kind === 'cancelled') return new ToolError('cancelled', 'The call was cancelled.');
  if (result.kind === 'timeout')
    return new ToolError(
      'unavailable',
      `git did not answer within ${HISTORY_TIMEOUT_MS / 1000} s: narrow the question (a \`path\`, a smaller \`limit\`).`,
    );
  return new ToolError('unavailable', `git failed: ${describeGitFailure(result)}.`);
}

/** Runs git in the repository; the raw result, for callers that read a failure as an answer. */
export const gitRaw = (
  repo: WorkspaceRepository,
  args: readonly string[],
  options: CallOptions,
): Promise<GitResult> =>
  runGit(args, {
    cwd: repo.top,
    signal: options.signal,
    maxBytes: options.maxBytes ?? HISTORY_BYTES,
    timeoutMs: HISTORY_TIMEOUT_MS,
  });

/** Runs git in the repository and returns its output as UTF-8 text, or throws a ToolError. */
export async function gitText(
  repo: WorkspaceRepository,
  args: readonly string[],
  options: CallOptions,
): Promise<string> {
  const result = await gitRaw(repo, args, options);
  if (result.kind !== 'ok') throw failure(result);
  return result.stdout.toString('utf8');
}
