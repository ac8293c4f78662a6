import { z } from 'zod';
import { takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { historyFields } from './commit-view.js';
import { cursorOffset, nextCursor } from './cursor.js';
import { clampLimit, cursorArg, limitArg, scopePathArg } from './git-args.js';
import { SHALLOW_REASON } from './history-page.js';
import { readLog, type CommitRecord } from './log-records.js';
import {
  noCommitsYet,
  repositoryFor,
  repositoryLabel,
  shownPath,
  type WorkspaceRepository,
} from './repository.js';

const LIMITS = { default: 20, max: 200 };
const WINDOW = { default: 200, max: 2000 };

interface Churn {
  readonly path: string;
  changes: number;
  added: number;
  modified: number;
  deleted: number;
  renamed: number;
}

/** Changes per file over the commits, a rename counted on the new path. */
function tally(repo: WorkspaceRepository, commits: readonly CommitRecord[]): Churn[] {
  const byPath = new Map<string, Churn>();
  for (const commit of commits) {
    for (const file of commit.files) {
      const shown = shownPath(repo, file.path);
      let row = byPath.get(shown);
      if (!row)
        byPath.set(shown, (row = { path: shown, changes: 0, added: 0, modified: 0, deleted: 0, renamed: 0 }));
      row.changes++;
      if (file.status === 'A' || file.status === 'C') row.added++;
      else if (file.status === 'D') row.deleted++;
      else if (file.status === 'R') row.renamed++;
      else row.modified++;
    }
  }
  return [...byPath.values()].sort(
    (a, b) => b.changes - a.changes || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

const render = (row: Churn): string =>
  `- \`${row.path}\`: ${row.changes} change(s) (${row.added} added, ${row.modified} modified, ${row.deleted} deleted${row.renamed > 0 ? `, ${row.renamed} renamed` : ''})\n`;

export const gitChurn = defineOperation({
  domain: 'git',
  mode: 'churn',
  flatName: 'file_churn',
  title: 'Most-changed files',
  description:
    'Ranks the files changed most often in the newest N commits (merges not counted twice), with how many changes added, modified, deleted or renamed each — e.g. window 200, path "services/payment". DO NOT USE for the commits of one file (use git touching / commits_touching).',
  args: {
    path: scopePathArg('the count'),
    window: z
      .number()
      .int()
      .min(1)
      .default(WINDOW.default)
      .describe(`Newest commits to count (default ${WINDOW.default}, clamped to ${WINDOW.max}), e.g. 500.`),
    limit: limitArg('Files', LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    repository: z.string(),
    commits_counted: z.number().int(),
    total_files: z.number().int(),
    ...historyFields,
    files: z.array(
      z.looseObject({
        path: z.string(),
        changes: z.number().int(),
        added: z.number().int(),
        modified: z.number().int(),
        deleted: z.number().int(),
        renamed: z.number().int(),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  missingPathsAllowed: true,
  subject: (args) => args.path,
  truncationHint: () => 'Too many files for one answer: lower `limit`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const label = repositoryLabel(repo);
    const offset = cursorOffset(args.cursor, 'churn', repo.head);
    if (repo.head === undefined)
      return {
        data: {
          repository: label,
          commits_counted: 0,
          total_files: 0,
          head: null,
          next_cursor: null,
          truncated: false,
          files: [],
        },
        markdown: `${noCommitsYet(repo)}\n`,
      };
    const window = Math.min(args.window, WINDOW.max);
    const commits = await readLog(repo, { files: true, max: window, paths: repo.scope }, ctx.signal);
    const rows = tally(repo, commits);
    const page = takePage(rows, {
      offset,
      limit: clampLimit(args.limit, LIMITS.max),
      budgetBytes: ctx.pageBudget,
      render,
    });
    const truncated = repo.shallow && commits.length < window;
    const next = nextCursor('churn', repo.head, page.hasMore ? page.end : undefined);
    const more =
      next !== null
        ? `\nShowing ${page.start + 1}–${page.end} of ${rows.length} files. More: \`cursor: "${next}"\`.\n`
        : '';
    return {
      data: {
        repository: label,
        commits_counted: commits.length,
        total_files: rows.length,
        head: repo.head,
        offset: page.start,
        next_cursor: next,
        truncated,
        ...(truncated ? { truncated_reason: SHALLOW_REASON } : {}),
        files: page.items,
      },
      markdown:
        `## Most-changed files in ${label} over the newest ${commits.length} commit(s)\n\n` +
        page.rendered.join('') +
        more +
        (truncated ? `\n> History is incomplete: ${SHALLOW_REASON}.\n` : ''),
    };
  },
});
