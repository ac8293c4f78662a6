/**
 * One page of a walk through history: commits from the cursor's offset, at most `limit` and within the page
 * budget, the cursor of the next page, and whether history ended early (a shallow clone's boundary, or the
 * walk bound) rather than at the first commit.
 */
import { takePage } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { cursorOffset, nextCursor } from './cursor.js';
import { MAX_WALK } from './git-args.js';
import type { WorkspaceRepository } from './repository.js';

export interface HistoryPage<T> {
  readonly items: readonly T[];
  readonly rendered: readonly string[];
  readonly offset: number;
  readonly nextCursor: string | null;
  readonly truncated: boolean;
  readonly truncatedReason?: string;
}

export interface HistoryPageRequest<T> {
  readonly repo: WorkspaceRepository;
  readonly mode: string;
  readonly cursor: string | undefined;
  readonly limit: number;
  readonly budgetBytes: number;
  /** Up to `max` entries after the first `skip` of the walk. */
  readonly fetch: (skip: number, max: number) => Promise<readonly T[]>;
  readonly render: (item: T) => string;
}

export const SHALLOW_REASON =
  'shallow clone: commits before its boundary are not in this repository (`git fetch --unshallow` fetches them)';
const walkReason = `walk bound: history is read at most ${MAX_WALK} commits deep`;

export async function historyPage<T>(request: HistoryPageRequest<T>): Promise<HistoryPage<T>> {
  const { repo } = request;
  const offset = cursorOffset(request.cursor, request.mode, repo.head);
  if (offset >= MAX_WALK)
    throw new ToolError('invalid_argument', `History is read at most ${MAX_WALK} commits deep.`);
  const max = Math.min(request.limit + 1, MAX_WALK - offset);
  const fetched = await request.fetch(offset, max);
  const page = takePage(fetched, {
    offset: 0,
    limit: request.limit,
    budgetBytes: request.budgetBytes,
    render: (item) => request.render(item),
  });
  const more = page.end < fetched.length;
  const walkEnded = !more && fetched.length === max && offset + max >= MAX_WALK;
  const shallowEnd = !more && repo.shallow;
  return {
    items: page.items,
    rendered: page.rendered,
    offset,
    nextCursor: nextCursor(request.mode, repo.head, more ? offset + page.end : undefined),
    truncated: walkEnded || shallowEnd,
    ...(walkEnded ? { truncatedReason: walkReason } : shallowEnd ? { truncatedReason: SHALLOW_REASON } : {}),
  };
}

/** The page's honesty fields for the JSON answer. */
export const pageJson = (repo: WorkspaceRepository, page: HistoryPage<unknown>) => ({
  head: repo.head ?? null,
  offset: page.offset,
  next_cursor: page.nextCursor,
  truncated: page.truncated,
  ...(page.truncatedReason !== undefined ? { truncated_reason: page.truncatedReason } : {}),
});

/** The lines under a page: more to read, or why history ended early. */
export function pageNotes(page: HistoryPage<unknown>, unit: string): string {
  const notes: string[] = [];
  if (page.nextCursor !== null)
    notes.push(
      `Showing ${page.offset + 1}–${page.offset + page.items.length} ${unit}. More: \`cursor: "${page.nextCursor}"\`.`,
    );
  if (page.truncated) notes.push(`> History is incomplete: ${page.truncatedReason ?? ''}.`);
  return notes.length > 0 ? `\n${notes.join('\n')}\n` : '';
}
