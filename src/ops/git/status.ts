import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { changedFileShape } from './commit-view.js';
import { scopePathArg } from './git-args.js';
import { gitText } from './git-call.js';
import {
  repositoryFor,
  repositoryLabel,
  shortSha,
  shownPath,
  type WorkspaceRepository,
} from './repository.js';
import { parseStatus, type StatusEntry } from './status-parse.js';

/** Paths listed per group in the Markdown; the JSON keeps up to `LISTED_JSON`. */
const LISTED = 50;
const LISTED_JSON = 1000;

const entryJson = (repo: WorkspaceRepository, e: StatusEntry) => ({
  status: e.status,
  path: shownPath(repo, e.path),
  ...(e.oldPath !== undefined ? { old_path: shownPath(repo, e.oldPath) } : {}),
});

function group(repo: WorkspaceRepository, title: string, entries: readonly StatusEntry[]): string {
  if (entries.length === 0) return '';
  const lines = entries.slice(0, LISTED).map((e) => {
    const from = e.oldPath !== undefined ? `\`${shownPath(repo, e.oldPath)}\` → ` : '';
    return `- ${e.status === '?' ? '' : `${e.status} `}${from}\`${shownPath(repo, e.path)}\``;
  });
  const more = entries.length > LISTED ? [`- … ${entries.length - LISTED} more`] : [];
  return `\n**${title}** (${entries.length})\n${[...lines, ...more].join('\n')}\n`;
}

export const gitStatus = defineOperation({
  domain: 'git',
  mode: 'status',
  flatName: 'git_status',
  title: 'Working tree status',
  description:
    'Shows what is uncommitted in the repository: staged, unstaged, untracked and conflicted files, whether the tree is clean, and the branch (or a detached HEAD) with its upstream — e.g. path "services/payment" to look at one folder. DO NOT USE for history (use git recent / recent_commits) or for the changed lines (use git diff / file_diff).',
  args: { path: scopePathArg('the status') },
  output: z.looseObject({
    repository: z.string(),
    head: z.string().nullable().describe('HEAD commit; null before the first commit.'),
    branch: z.string().nullable().describe('The branch checked out; null when HEAD is detached.'),
    detached: z.boolean(),
    upstream: z.string().nullable(),
    ahead: z.number().int().nullable(),
    behind: z.number().int().nullable(),
    clean: z.boolean().describe('Nothing staged, unstaged, untracked or conflicted.'),
    staged: z.array(changedFileShape),
    unstaged: z.array(changedFileShape),
    untracked: z.array(changedFileShape),
    conflicted: z.array(changedFileShape),
  }),
  capabilities: { requiresIndex: true, idempotent: true },
  pathFields: ['path'],
  subject: (args) => args.path,
  async run(args, ctx: OperationContext<MeshServices>) {
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const label = repositoryLabel(repo);
    const output = await gitText(
      repo,
      [
        'status',
        '--porcelain=v2',
        '-z',
        '--branch',
        '--untracked-files=all',
        '--no-renames',
        '--',
        ...repo.scope,
      ],
      { signal: ctx.signal },
    );
    const status = parseStatus(output);
    const detached = status.branch === undefined && repo.head !== undefined;
    const clean =
      status.staged.length + status.unstaged.length + status.untracked.length + status.conflicted.length ===
      0;
    const where = detached
      ? `detached HEAD at \`${shortSha(repo.head ?? '')}\``
      : `branch \`${status.branch ?? repo.branch ?? '?'}\`${repo.head === undefined ? ' (no commits yet)' : ` at \`${shortSha(repo.head)}\``}`;
    const tracking =
      status.upstream !== undefined
        ? `, tracking \`${status.upstream}\` (${status.ahead ?? 0} ahead, ${status.behind ?? 0} behind)`
        : '';
    const list = (entries: readonly StatusEntry[]) =>
      entries.slice(0, LISTED_JSON).map((e) => entryJson(repo, e));
    return {
      data: {
        repository: label,
        head: repo.head ?? null,
        branch: detached ? null : (status.branch ?? repo.branch ?? null),
        detached,
        upstream: status.upstream ?? null,
        ahead: status.ahead ?? null,
        behind: status.behind ?? null,
        clean,
        staged: list(status.staged),
        unstaged: list(status.unstaged),
        untracked: list(status.untracked),
        conflicted: list(status.conflicted),
      },
      markdown:
        `## Status of ${label}\n_${where}${tracking}_\n` +
        (clean ? '\nClean: nothing to commit.\n' : '') +
        group(repo, 'Conflicted', status.conflicted) +
        group(repo, 'Staged', status.staged) +
        group(repo, 'Unstaged', status.unstaged) +
        group(repo, 'Untracked', status.untracked),
    };
  },
});
