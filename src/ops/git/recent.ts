import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { commitJson, commitMarkdown, commitShape, historyFields } from './commit-view.js';
import { clampLimit, cursorArg, limitArg, scopePathArg } from './git-args.js';
import { historyPage, pageJson, pageNotes } from './history-page.js';
import { readLog } from './log-records.js';
import { noCommitsYet, repositoryFor, repositoryLabel } from './repository.js';

const LIMITS = { default: 20, max: 100 };

export const gitRecent = defineOperation({
  domain: 'git',
  mode: 'recent',
  flatName: 'recent_commits',
  title: 'Newest commits',
  description:
    'Lists the newest commits reachable from HEAD, newest first, optionally with the files each one changed and limited to a folder — e.g. path "services/payment", include_files true. DO NOT USE to find the commits of one file (use git touching / commits_touching) or to search messages (use git search / search_commits).',
  args: {
    path: scopePathArg('the history'),
    limit: limitArg('Commits', LIMITS),
    cursor: cursorArg,
    include_files: z
      .boolean()
      .default(false)
      .describe('List the files each commit changed (renames as old → new), e.g. true.'),
  },
  output: z.looseObject({
    repository: z.string(),
    ...historyFields,
    commits: z.array(commitShape),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  missingPathsAllowed: true,
  subject: (args) => args.path,
  truncationHint: () => 'Too many commits for one answer: lower `limit`, or drop `include_files`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const label = repositoryLabel(repo);
    if (repo.head === undefined)
      return {
        data: { repository: label, head: null, next_cursor: null, truncated: false, commits: [] },
        markdown: `${noCommitsYet(repo)}\n`,
      };
    const page = await historyPage({
      repo,
      mode: 'recent',
      cursor: args.cursor,
      limit: clampLimit(args.limit, LIMITS.max),
      budgetBytes: ctx.pageBudget,
      fetch: (skip, max) =>
        readLog(repo, { files: args.include_files, max, skip, paths: repo.scope }, ctx.signal),
      render: (commit) => `${commitMarkdown(repo, commit, args.include_files)}\n`,
    });
    const heading = `## Newest commits in ${label}${repo.branch ? ` (\`${repo.branch}\`)` : ' (detached HEAD)'}\n\n`;
    return {
      data: {
        repository: label,
        ...pageJson(repo, page),
        commits: page.items.map((c) => commitJson(repo, c, args.include_files)),
      },
      markdown: heading + page.rendered.join('') + pageNotes(page, 'commits'),
    };
  },
});
