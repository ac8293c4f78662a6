import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { noNote } from './missing-note.js';
import { checkedKey, keyField } from './note-fields.js';
import { noteJson, noteShape } from './note-render.js';
import { notesOf } from './notes-service.js';

export const memoryDelete = defineOperation({
  domain: 'memory',
  mode: 'delete',
  flatName: 'delete_note',
  title: 'Delete a note',
  description:
    'Deletes the note stored under one exact key and returns what it said — e.g. key "deploy/payment-worker" once the note no longer holds. DO NOT USE to correct a note (use memory put, which replaces it).',
  args: { key: keyField() },
  output: z.looseObject({ deleted: noteShape.describe('The note as it was before it was deleted.') }),
  capabilities: { writes: true, destructive: true, idempotent: true },
  readsIndex: () => false,
  subject: (args) => args.key,
  async run(args, ctx: OperationContext<MeshServices>) {
    const key = checkedKey(args.key);
    const store = await notesOf(ctx);
    const note = await store.get(key);
    if (!note || !(await store.delete(key))) throw await noNote(store, key);
    return { data: { deleted: noteJson(note) }, markdown: `Deleted note \`${key}\`.\n` };
  },
});
