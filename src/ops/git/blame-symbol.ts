import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { declarationArgs, targetDeclaration } from '../code/declaration-target.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { describeSymbol } from '../shared/symbol-address.js';
import { displayOf } from '../shared/workspace-paths.js';
import { readBlame } from './blame-read.js';
import { BLAME_LIMITS, blameFields, blamePage } from './blame-view.js';
import { declarationLines } from './declaration-lines.js';
import { requireParser } from './declaration-versions.js';
import { cursorArg, limitArg, revisionArg } from './git-args.js';
import { noCommitsYet, repoRelative, repositoryFor, shortSha } from './repository.js';
import { commitOf } from './revisions.js';

export const gitBlameSymbol = defineOperation({
  domain: 'git',
  mode: 'blame_symbol',
  flatName: 'blame_symbol',
  title: 'Who last changed each line of one declaration',
  description:
    'Blames the lines of one declaration, found through the index like code expand finds it: runs of lines with the commit, author, date and summary that last changed them, secrets masked — e.g. path "services/payment/server.go" with name "ProcessPayment", or symbol "services/orders/src/repo.ts:PgRepo.save". DO NOT USE for arbitrary line ranges (use git blame / blame_lines) or for every commit that changed the declaration (use git symbol_history / symbol_history).',
  args: {
    ...declarationArgs,
    rev: revisionArg(
      'Blame the declaration as of this commit (found there by kind and name); omit for the working tree',
    ),
    limit: limitArg('Hunks', BLAME_LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    path: z.string(),
    kind: z.string(),
    qualified_name: z.string(),
    start_line: z.number().int(),
    end_line: z.number().int(),
    rev: z.string().describe('A commit SHA, or "working tree".'),
    ...blameFields,
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.path ?? args.symbol ?? args.name,
  truncationHint: () => 'The blame was too large: page with `cursor`, or lower `limit`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const { file, symbol } = targetDeclaration(snapshot, args);
    const shown = displayOf(snapshot, file);
    const repo = await repositoryFor(snapshot, file.absolutePath, ctx.signal);
    const identity = { path: shown, kind: symbol.kind, qualified_name: symbol.qualifiedName };
    if (repo.head === undefined)
      return {
        data: {
          ...identity,
          start_line: symbol.startLine,
          end_line: symbol.endLine,
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
    const parser = requireParser(ctx.services.parseDeclarations);
    const lines = await declarationLines(parser, repo, file, symbol, commit, ctx.signal);
    const blame = await readBlame(
      repo,
      { relative: repoRelative(repo, file.absolutePath), commit, range: lines },
      ctx.signal,
    );
    const page = blamePage(repo, 'blame_symbol', blame, {
      cursor: args.cursor,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
    });
    const at = commit === undefined ? 'working tree' : `\`${shortSha(commit)}\``;
    return {
      data: {
        ...identity,
        start_line: lines.start,
        end_line: lines.end,
        rev: commit ?? 'working tree',
        ...page.data,
      },
      markdown: `## Blame of ${describeSymbol({ ...symbol, startLine: lines.start, endLine: lines.end })} — \`${shown}\` (${at})\n\n${page.markdown}`,
      filesRead: [shown],
      redactions: page.redactions,
    };
  },
});
