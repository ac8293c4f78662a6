import { z } from 'zod';
import { takePage } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { cursorOffset, nextCursor } from './cursor.js';
import { maskHunk, parseDiff, type DiffHunk } from './diff-parse.js';
import { clampLimit, cursorArg, filePathArg, limitArg, revisionArg } from './git-args.js';
import { gitText } from './git-call.js';
import { repoRelative, repositoryFor, shortSha, shownPath } from './repository.js';
import { commitOf, presentAt, presentOnDisk } from './revisions.js';

const LIMITS = { default: 20, max: 100 };

const hunkJson = (h: DiffHunk) => ({
  old_start: h.oldStart,
  old_lines: h.oldLines,
  new_start: h.newStart,
  new_lines: h.newLines,
  context: h.context,
  lines: h.lines.join('\n'),
});

const renderHunk = (h: DiffHunk): string =>
  `\`\`\`diff\n@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.context ? ` ${h.context}` : ''}\n${h.lines.join('\n')}\n\`\`\`\n`;

export const gitDiff = defineOperation({
  domain: 'git',
  mode: 'diff',
  flatName: 'file_diff',
  title: 'Diff of one file between two revisions',
  description:
    'Shows the changed hunks of one file between two revisions, or between a revision and the working tree, with 1-based line ranges on both sides and secrets masked — e.g. path "services/payment/server.go", rev_old "HEAD~3" (rev_new omitted: the working tree). DO NOT USE for which declarations changed (use git diff_outline / outline_diff) or for uncommitted files in general (use git status / git_status).',
  args: {
    path: filePathArg('The file, which may be absent on one side'),
    rev_old: revisionArg('The older side (default "HEAD")'),
    rev_new: revisionArg('The newer side; omit for the working tree'),
    limit: limitArg('Hunks', LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    path: z.string(),
    rev_old: z.string(),
    rev_new: z.string().describe('A commit SHA, or "working tree".'),
    present_at_old: z.boolean(),
    present_at_new: z.boolean(),
    binary: z.boolean(),
    total_hunks: z.number().int(),
    offset: z.number().int(),
    next_cursor: z.string().nullable(),
    hunks: z.array(
      z.looseObject({
        old_start: z.number().int(),
        old_lines: z.number().int(),
        new_start: z.number().int(),
        new_lines: z.number().int(),
        context: z.string(),
        lines: z.string().describe('"-", "+" and " " prefixed lines, secrets masked.'),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  missingPathsAllowed: true,
  subject: (args) => args.path,
  truncationHint: () => 'The diff was too large: lower `limit` and page with `cursor`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    if (args.path === undefined)
      throw new ToolError(
        'invalid_argument',
        '`path` must name one file, e.g. "services/payment/server.go".',
      );
    const repo = await repositoryFor(requireSnapshot(ctx.services), args.path, ctx.signal);
    const relative = repoRelative(repo, args.path);
    const shown = shownPath(repo, relative);
    const oldCommit = await commitOf(repo, 'rev_old', args.rev_old ?? 'HEAD', ctx.signal);
    const newCommit =
      args.rev_new === undefined ? undefined : await commitOf(repo, 'rev_new', args.rev_new, ctx.signal);
    const offset = cursorOffset(args.cursor, 'diff', repo.head);
    const [atOld, atNew] = await Promise.all([
      presentAt(repo, oldCommit, relative, ctx.signal),
      newCommit === undefined ? presentOnDisk(args.path) : presentAt(repo, newCommit, relative, ctx.signal),
    ]);
    const output = await gitText(
      repo,
      [
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        '--no-renames',
        '-U3',
        '--end-of-options',
        oldCommit,
        ...(newCommit !== undefined ? [newCommit] : []),
        '--',
        relative,
      ],
      { signal: ctx.signal },
    );
    const parsed = parseDiff(output);
    const masked = parsed.hunks.map(maskHunk);
    const page = takePage(
      masked.map((m) => m.hunk),
      {
        offset,
        limit: clampLimit(args.limit, LIMITS.max),
        budgetBytes: ctx.pageBudget,
        render: renderHunk,
      },
    );
    const newLabel = newCommit === undefined ? 'working tree' : newCommit;
    const next = nextCursor('diff', repo.head, page.hasMore ? page.end : undefined);
    const sides = `\`${shortSha(oldCommit)}\` → ${newCommit === undefined ? 'working tree' : `\`${shortSha(newCommit)}\``}`;
    const absent = !atOld && !atNew ? 'The file exists on neither side.\n' : '';
    const same = parsed.hunks.length === 0 && !parsed.binary && (atOld || atNew) ? 'No difference.\n' : '';
    return {
      data: {
        path: shown,
        rev_old: oldCommit,
        rev_new: newLabel,
        present_at_old: atOld,
        present_at_new: atNew,
        binary: parsed.binary,
        total_hunks: parsed.hunks.length,
        offset: page.start,
        next_cursor: next,
        hunks: page.items.map(hunkJson),
      },
      markdown:
        `## Diff of \`${shown}\` ${sides}\n_${atOld ? 'present' : 'absent'} at old, ${atNew ? 'present' : 'absent'} at new_\n\n` +
        absent +
        same +
        (parsed.binary ? 'Binary file: no lines to show.\n' : '') +
        page.rendered.join('') +
        (next !== null
          ? `\nShowing hunks ${page.start + 1}–${page.end} of ${parsed.hunks.length}. More: \`cursor: "${next}"\`.\n`
          : ''),
      filesRead: [shown],
      redactions: masked.slice(page.start, page.end).reduce((sum, m) => sum + m.redactions, 0),
    };
  },
});
