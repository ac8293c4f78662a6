import { ToolError } from '../../core/errors.js';
import type { OperationContext } from '../../core/operation.js';
import type { NotesStore } from '../../core/notes.js';
import type { MeshServices } from '../services.js';

/** The workspace's notes, or a failure saying this server keeps none. */
export async function notesOf(ctx: OperationContext<MeshServices>): Promise<NotesStore> {
  const open = ctx.services.notes;
  if (!open)
    throw new ToolError(
      'unavailable',
      'This server keeps no notes (no notes store is configured); the memory modes need one.',
    );
  return open();
}
