import { z } from 'zod';
import { takePage } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { maskSecrets } from '../../trust/secret-mask.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { commitJson, commitMarkdown, commitShape, historyFields } from './commit-view.js';
import { cursorOffset, nextCursor } from './cursor.js';
import { clampLimit, cursorArg, limitArg, MAX_WALK, scopePathArg } from './git-args.js';
import { SHALLOW_REASON } from './history-page.js';
import { readLog, type CommitRecord } from './log-records.js';
import { noCommitsYet, repositoryFor, repositoryLabel } from './repository.js';

const LIMITS = { default: 20, max: 100 };
const FIELDS = ['author', 'message', 'all'] as const;
type Field = (typeof FIELDS)[number];

/**
 * The text a field searches, lower-cased; secrets are masked before matching, so that a search cannot probe
 * for a token pasted into a message.
 */
function haystack(commit: CommitRecord, field: Field): string {
  const author = `${commit.author} <${commit.email}>`;
  const message = field === 'author' ? '' : maskSecrets(commit.message ?? commit.subject).text;
  return (
    field === 'author' ? author : field === 'message' ? message : `${author}\n${message}`
  ).toLowerCase();
}

const walkReason = `walk bound: only the newest ${MAX_WALK} commits were searched`;

export const gitSearch = defineOperation({
  domain: 'git',
  mode: 'search',
  flatName: 'search_commits',
  title: 'Search commit messages and authors',
  description:
    'Finds commits whose message and/or author contains every word of the pattern (case-insensitive, words in any order), newest first, over the history reachable from HEAD — e.g. pattern "refund order", field "message". DO NOT USE to search code (use code grep / grep_code) or for the commits of one file (use git touching / commits_touching).',
  args: {
    pattern: z
      .string()
      .min(1)
      .max(256)
      .describe('Words that must all appear (case-insensitive), e.g. "fix payment timeout".'),
    field: z
      .enum(FIELDS)
      .default('all')
      .describe('Where to look: "author" (name and email), "message" (subject and body) or "all" (default).'),
    path: scopePathArg('the search'),
    limit: limitArg('Commits', LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    repository: z.string(),
    total_matches: z.number().int(),
    commits_searched: z.number().int(),
    partial: z.boolean().describe('True when the walk bound stopped the search before the first commit.'),
    ...historyFields,
    commits: z.array(commitShape),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  missingPathsAllowed: true,
  subject: (args) => args.pattern,
  truncationHint: () => 'Too many commits for one answer: lower `limit` or add words to `pattern`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    const words = args.pattern
      .toLowerCase()
      .split(/\s+/u)
      .filter((w) => w !== '');
    if (words.length === 0)
      throw new ToolError('invalid_argument', '`pattern` holds no word: pass at least one, e.g. "refund".');
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const label = repositoryLabel(repo);
    const offset = cursorOffset(args.cursor, 'search', repo.head);
    if (repo.head === undefined)
      return {
        data: {
          repository: label,
          total_matches: 0,
          commits_searched: 0,
          partial: false,
          head: null,
          next_cursor: null,
          truncated: false,
          commits: [],
        },
        markdown: `${noCommitsYet(repo)}\n`,
      };
    const walked = await readLog(repo, { message: true, max: MAX_WALK + 1, paths: repo.scope }, ctx.signal);
    const partial = walked.length > MAX_WALK;
    const searched = walked.slice(0, MAX_WALK);
    const matches = searched.filter((c) => {
      const text = haystack(c, args.field);
      return words.every((w) => text.includes(w));
    });
    const page = takePage(matches, {
      offset,
      limit: clampLimit(args.limit, LIMITS.max),
      budgetBytes: ctx.pageBudget,
      render: (c) => `${commitMarkdown(repo, c, false)}\n`,
    });
    const truncated = partial || repo.shallow;
    const reason = partial ? walkReason : SHALLOW_REASON;
    const next = nextCursor('search', repo.head, page.hasMore ? page.end : undefined);
    const none =
      matches.length === 0
        ? `No commit's ${args.field === 'all' ? 'author or message' : args.field} contains ${words.map((w) => `"${w}"`).join(' and ')}.\n`
        : '';
    const more =
      next !== null
        ? `\nShowing ${page.start + 1}–${page.end} of ${matches.length} commits. More: \`cursor: "${next}"\`.\n`
        : '';
    return {
      data: {
        repository: label,
        total_matches: matches.length,
        commits_searched: searched.length,
        partial,
        head: repo.head,
        offset: page.start,
        next_cursor: next,
        truncated,
        ...(truncated ? { truncated_reason: reason } : {}),
        commits: page.items.map((c) => commitJson(repo, c, false)),
      },
      markdown:
        `## Commits matching ${JSON.stringify(args.pattern)} (${args.field}) in ${label}\n\n` +
        none +
        page.rendered.join('') +
        more +
        (truncated ? `\n> History searched is incomplete: ${reason}.\n` : ''),
    };
  },
});
