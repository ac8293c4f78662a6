/** The answer to a key that names no note: the closest keys, so that a typo is one call away from fixed. */
import { ToolError } from '../../core/errors.js';
import type { NotesStore } from '../../core/notes.js';
import { editDistance } from '../../core/suggest.js';

/** Keys looked through for a suggestion when a key is not found. */
const SUGGESTION_POOL = 2000;

/** A failure naming the closest keys, or saying there are none at all. */
export async function noNote(store: NotesStore, key: string): Promise<ToolError> {
  const keys = await store.keys('', SUGGESTION_POOL);
  if (keys.length === 0)
    return new ToolError(
      'not_found',
      `No note under \`${key}\`: this workspace has no notes yet (memory put writes one).`,
    );
  const close = keys
    .map((k) => ({ k, d: editDistance(key.toLowerCase(), k.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d || (a.k < b.k ? -1 : 1))
    .slice(0, 3)
    .map((x) => `\`${x.k}\``);
  if (close.length === 0)
    return new ToolError(
      'not_found',
      `No note under \`${key}\`, nor under a key close to it. memory list shows the keys, memory search finds notes by their words.`,
    );
  return new ToolError(
    'not_found',
    `No note under \`${key}\`. Closest keys: ${close.join(', ')}. memory list shows them all, memory search finds notes by their words.`,
  );
}
