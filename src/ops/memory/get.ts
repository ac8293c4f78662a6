import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { noNote } from './missing-note.js';
import { checkedKey, keyField } from './note-fields.js';
import { noteJson, noteMarkdown, noteShape } from './note-render.js';
import { notesOf } from './notes-service.js';

export const memoryGet = defineOperation({
  domain: 'memory',
  mode: 'get',
  flatName: 'get_note',
  title: 'Read a note',
  description:
    'Returns the note stored under one exact key, with its tags, author, times and pin — e.g. key "deploy/payment-worker". DO NOT USE when you do not know the key (use memory search, or memory list with a prefix).',
  args: { key: keyField() },
  output: z.looseObject({ note: noteShape }),
  capabilities: { idempotent: true },
  readsIndex: () => false,
  subject: (args) => args.key,
  async run(args, ctx: OperationContext<MeshServices>) {
    const key = checkedKey(args.key);
    const store = await notesOf(ctx);
    const note = await store.get(key);
    if (!note) throw await noNote(store, key);
    return { data: { note: noteJson(note) }, markdown: noteMarkdown(note) };
  },
});
