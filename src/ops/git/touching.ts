import { statSync } from 'node:fs';
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { commitJson, commitMarkdown, commitShape, historyFields } from './commit-view.js';
import { clampLimit, cursorArg, filePathArg, limitArg } from './git-args.js';
import { historyPage, pageJson, pageNotes } from './history-page.js';
import { readLog } from './log-records.js';
import { noCommitsYet, repositoryFor, repositoryLabel, shownPath } from './repository.js';

const LIMITS = { default: 20, max: 100 };

const isFolder = (absolute: string): boolean => {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
};

export const gitTouching = defineOperation({
  domain: 'git',
  mode: 'touching',
  flatName: 'commits_touching',
  title: 'Commits that changed a path',
  description:
    'Lists the commits that changed one file (following it back through renames by default) or any file under a folder, newest first, each with how it changed the path — e.g. path "services/payment/server.go"; a deleted file can be named too. DO NOT USE for the newest commits of the whole repository (use git recent / recent_commits) or for the history of one function (use git symbol_history / symbol_history).',
  args: {
    path: filePathArg('The file or folder, which may have been deleted since'),
    follow: z
      .boolean()
      .default(true)
      .describe(
        'Follow a file back through renames (default true; ignored for a folder). false lists only commits under this exact path.',
      ),
    limit: limitArg('Commits', LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    repository: z.string(),
    path: z.string(),
    followed_renames: z.boolean(),
    ...historyFields,
    commits: z.array(commitShape),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  missingPathsAllowed: true,
  subject: (args) => args.path,
  truncationHint: () => 'Too many commits for one answer: lower `limit`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    // The jail turns "." (everything) into no path at all; a history of everything is `git recent`.
    if (args.path === undefined)
      throw new ToolError(
        'invalid_argument',
        '`path` must name a file or folder; for the newest commits of everything use `git recent`.',
      );
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const label = repositoryLabel(repo);
    const target = repo.scope[0] ?? '';
    const shown = target === '' ? label : shownPath(repo, target);
    const follow = args.follow && !isFolder(args.path) && repo.scope.length === 1;
    if (repo.head === undefined)
      return {
        data: {
          repository: label,
          path: shown,
          followed_renames: follow,
          head: null,
          next_cursor: null,
          truncated: false,
          commits: [],
        },
        markdown: `${noCommitsYet(repo)}\n`,
      };
    const page = await historyPage({
      repo,
      mode: 'touching',
      cursor: args.cursor,
      limit: clampLimit(args.limit, LIMITS.max),
      budgetBytes: ctx.pageBudget,
      // `--skip` counts commits `--follow` has not filtered yet, so a followed walk is sliced here instead.
      fetch: async (skip, max) =>
        follow
          ? (
              await readLog(
                repo,
                { files: true, max: skip + max, options: ['--follow'], paths: repo.scope },
                ctx.signal,
              )
            ).slice(skip)
          : readLog(repo, { files: true, max, skip, paths: repo.scope }, ctx.signal),
      render: (commit) => `${commitMarkdown(repo, commit, true)}\n`,
    });
    const none =
      page.items.length === 0 && page.offset === 0 ? `No commit in this history changed \`${shown}\`.\n` : '';
    return {
      data: {
        repository: label,
        path: shown,
        followed_renames: follow,
        ...pageJson(repo, page),
        commits: page.items.map((c) => commitJson(repo, c, true)),
      },
      markdown: `## Commits that changed \`${shown}\`${follow ? ' (renames followed)' : ''}\n\n${none}${page.rendered.join('')}${pageNotes(page, 'commits')}`,
    };
  },
});
