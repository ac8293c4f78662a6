/**
 * Opaque page cursors for history answers. A cursor holds the HEAD it was made at: history pages are
 * offsets into a walk from HEAD, so after a commit or a checkout the same offset would skip or repeat
 * commits. Such a cursor is refused with a message saying so, never silently reread.
 */
import { ToolError } from '../../core/errors.js';
import { shortSha } from './repository.js';

interface CursorState {
  readonly mode: string;
  /** HEAD's commit when the cursor was made ('' in a repository without commits). */
  readonly head: string;
  readonly offset: number;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify([state.mode, state.head, state.offset]), 'utf8').toString('base64url');
}

function decode(cursor: string): CursorState | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [mode, head, offset] = value as unknown[];
    if (typeof mode !== 'string' || typeof head !== 'string') return undefined;
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) return undefined;
    return { mode, head, offset };
  } catch {
    return undefined;
  }
}

/** The offset a cursor continues from (0 without one), or a ToolError saying why it cannot be used. */
export function cursorOffset(cursor: string | undefined, mode: string, head: string | undefined): number {
  if (cursor === undefined) return 0;
  const state = decode(cursor);
  if (!state)
    throw new ToolError(
      'invalid_argument',
      '`cursor` is not a cursor meshlens made: pass the `next_cursor` of the previous page unchanged, or omit it.',
    );
  if (state.mode !== mode)
    throw new ToolError(
      'invalid_argument',
      `\`cursor\` was made by \`git ${state.mode}\`, not \`git ${mode}\`: omit it to start from the first page.`,
    );
  if (state.head !== (head ?? '')) {
    const then = state.head === '' ? 'no commit' : shortSha(state.head);
    const now = head === undefined ? 'no commit' : shortSha(head);
    throw new ToolError(
      'invalid_argument',
      `\`cursor\` was made when HEAD was ${then}, but HEAD is now ${now} (a commit or checkout happened since): repeat the call without \`cursor\` to start from the first page.`,
    );
  }
  return state.offset;
}

/** The cursor of the next page, or null on the last page. */
export const nextCursor = (
  mode: string,
  head: string | undefined,
  nextOffset: number | undefined,
): string | null =>
  nextOffset === undefined ? null : encodeCursor({ mode, head: head ?? '', offset: nextOffset });
