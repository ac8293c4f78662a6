import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { readBlame } from './blame-read.js';
import { BLAME_LIMITS, blameFields, blamePage } from './blame-view.js';
import { cursorArg, filePathArg, limitArg, revisionArg } from './git-args.js';
import { noCommitsYet, repoRelative, repositoryFor, shortSha, shownPath } from './repository.js';
import { commitOf } from './revisions.js';

const lineArg = (what: string) =>
  z.number().int().min(1).optional().describe(`${what} (1-based, with the other one), e.g. 40.`);

export const gitBlame = defineOperation({
  domain: 'git',
  mode: 'blame',
  flatName: 'blame_lines',
  title: 'Who last changed each line',
  description:
    'Tells, for each run of lines of one file, the commit that last changed them with its author, date and summary, the lines shown with secrets masked — e.g. path "services/payment/server.go", line_start 40, line_end 60; without `rev` the working tree is blamed, so uncommitted lines show as such. DO NOT USE for one declaration by name (use git blame_symbol / blame_symbol) or for a file\'s commit list (use git touching / commits_touching).',
  args: {
    path: filePathArg('The file (one deleted since can be blamed with `rev`)'),
    rev: revisionArg('Blame the file as of this commit; omit for the working tree'),
    line_start: lineArg('First line'),
    line_end: lineArg('Last line'),
    limit: limitArg('Hunks', BLAME_LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    path: z.string(),
    rev: z.string().describe('A commit SHA, or "working tree".'),
    ...blameFields,
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  // A file deleted since can still be blamed as of a revision that holds it.
  missingPathsAllowed: true,
  subject: (args) => args.path,
  truncationHint: () => 'The blame was too large: pass `line_start` and `line_end`, or page with `cursor`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    if (args.path === undefined)
      throw new ToolError(
        'invalid_argument',
        '`path` must name one file, e.g. "services/payment/server.go".',
      );
    if ((args.line_start === undefined) !== (args.line_end === undefined))
      throw new ToolError(
        'invalid_argument',
        '`line_start` and `line_end` go together: pass both, or neither for the whole file.',
      );
    if (args.line_start !== undefined && args.line_end !== undefined && args.line_start > args.line_end)
      throw new ToolError(
        'invalid_argument',
        `\`line_start\` (${args.line_start}) is after \`line_end\` (${args.line_end}).`,
      );
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const relative = repoRelative(repo, args.path);
    const shown = shownPath(repo, relative);
    if (repo.head === undefined && args.rev === undefined)
      return {
        data: {
          path: shown,
          rev: 'working tree',
          total_hunks: 0,
          offset: 0,
          next_cursor: null,
          truncated: false,
          hunks: [],
        },
        markdown: `${noCommitsYet(repo)}\n`,
      };
    const commit = args.rev === undefined ? undefined : await commitOf(repo, 'rev', args.rev, ctx.signal);
    const range =
      args.line_start !== undefined && args.line_end !== undefined
        ? { start: args.line_start, end: args.line_end }
        : undefined;
    const blame = await readBlame(repo, { relative, commit, ...(range ? { range } : {}) }, ctx.signal);
    const page = blamePage(repo, 'blame', blame, {
      cursor: args.cursor,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
    });
    const at = commit === undefined ? 'working tree' : `\`${shortSha(commit)}\``;
    const span = range ? ` L${range.start}–${range.end}` : '';
    return {
      data: { path: shown, rev: commit ?? 'working tree', ...page.data },
      markdown: `## Blame of \`${shown}\`${span} (${at})\n\n${page.markdown}`,
      filesRead: [shown],
      redactions: page.redactions,
    };
  },
});
