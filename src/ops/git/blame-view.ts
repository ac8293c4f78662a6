/** How blame hunks read in answers, and one page of them: shared by `blame` and `blame_symbol`. */
import { z } from 'zod';
import { takePage } from '../../core/budget.js';
import { cursorOffset, nextCursor } from './cursor.js';
import type { Blame, BlameHunk } from './blame-read.js';
import { SHALLOW_REASON } from './history-page.js';
import { shortSha, type WorkspaceRepository } from './repository.js';

export const BLAME_LIMITS = { default: 100, max: 1000 };

export const blameFields = {
  total_hunks: z.number().int(),
  offset: z.number().int(),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  truncated: z
    .boolean()
    .describe('True in a shallow clone when lines are attributed to its boundary commit.'),
  truncated_reason: z.string().optional(),
  hunks: z.array(
    z.looseObject({
      start_line: z.number().int(),
      end_line: z.number().int(),
      commit: z.string().nullable().describe('Null for lines not committed yet.'),
      author: z.string(),
      date: z.string(),
      summary: z.string(),
      lines: z.string().describe('The lines, secrets masked.'),
    }),
  ),
};

const hunkJson = (h: BlameHunk) => ({
  start_line: h.startLine,
  end_line: h.endLine,
  commit: h.commit ?? null,
  author: h.author,
  email: h.email,
  date: h.date,
  summary: h.summary,
  ...(h.boundary ? { boundary: true } : {}),
  lines: h.lines.join('\n'),
});

function renderHunk(h: BlameHunk): string {
  const span = h.startLine === h.endLine ? `L${h.startLine}` : `L${h.startLine}–${h.endLine}`;
  const who =
    h.commit === undefined
      ? 'not committed yet'
      : `\`${shortSha(h.commit)}\` ${h.date.slice(0, 10)} ${h.author}: ${h.summary}`;
  return `- ${span} ${who}\n  \`\`\`\n${h.lines.map((l) => `  ${l}`).join('\n')}\n  \`\`\`\n`;
}

export interface BlamePage {
  readonly data: Record<string, unknown>;
  readonly markdown: string;
  readonly redactions: number;
}

/** One page of the blame's hunks under the page budget, with the cursor of the next one. */
export function blamePage(
  repo: WorkspaceRepository,
  mode: string,
  blame: Blame,
  options: { cursor: string | undefined; limit: number; budgetBytes: number },
): BlamePage {
  const offset = cursorOffset(options.cursor, mode, repo.head);
  const page = takePage(blame.hunks, {
    offset,
    limit: Math.min(options.limit, BLAME_LIMITS.max),
    budgetBytes: options.budgetBytes,
    render: renderHunk,
  });
  const next = nextCursor(mode, repo.head, page.hasMore ? page.end : undefined);
  const truncated = repo.shallow && blame.hunks.some((h) => h.boundary);
  return {
    data: {
      total_hunks: blame.hunks.length,
      offset: page.start,
      next_cursor: next,
      truncated,
      ...(truncated ? { truncated_reason: SHALLOW_REASON } : {}),
      hunks: page.items.map(hunkJson),
    },
    markdown:
      page.rendered.join('') +
      (next !== null
        ? `\nShowing hunks ${page.start + 1}–${page.end} of ${blame.hunks.length}. More: \`cursor: "${next}"\`.\n`
        : '') +
      (truncated ? `\n> Lines shown under the boundary commit may be older: ${SHALLOW_REASON}.\n` : ''),
    // Masking ran over every blamed line; the count is of the whole blame, an upper bound for this page.
    redactions: blame.redactions,
  };
}
