import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import {
  AUTHOR_MAX_CHARS,
  TAGS_MAX,
  VALUE_MAX_BYTES,
  authorOf,
  checkedKey,
  checkedTags,
  keyField,
  maskedValue,
} from './note-fields.js';
import { pinFor } from './note-pin.js';
import { noteJson, noteMarkdown, noteShape } from './note-render.js';
import { notesOf } from './notes-service.js';

export const memoryPut = defineOperation({
  domain: 'memory',
  mode: 'put',
  flatName: 'put_note',
  title: 'Write a note',
  description:
    'Writes a note about this workspace under a key, replacing the note already there, for any agent to read later (secrets in it are masked before it is stored); optionally pinned to a file or a declaration so that memory audit reports when that code changes — e.g. key "deploy/payment-worker", value "restarts need the queue drained first", path "services/payment-worker/main.go", name "drain". DO NOT USE to read notes (use memory get, list or search).',
  args: {
    key: keyField(),
    value: z
      .string()
      .describe(
        `What to remember, at most ${VALUE_MAX_BYTES / 1024} KiB of text; secrets are masked before it is stored.`,
      ),
    tags: z
      .string()
      .optional()
      .describe(`Comma-separated tags to filter by, at most ${TAGS_MAX}, e.g. "decision,payments".`),
    author: z
      .string()
      .optional()
      .describe(
        `Who writes the note, at most ${AUTHOR_MAX_CHARS} characters; defaults to the MCP client's name, else "unknown".`,
      ),
    path: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Pin the note to this indexed file (workspace-relative), e.g. "services/orders/src/order.repo.ts".',
      ),
    name: z
      .string()
      .min(1)
      .optional()
      .describe(
        'With `path`: pin to the declaration of this name in the file instead, e.g. "OrderRepo.save".',
      ),
    kind: z
      .string()
      .min(1)
      .optional()
      .describe('With `name`: the declaration kind, when the name has several, e.g. "method".'),
  },
  output: z.looseObject({
    created: z.boolean().describe('True for a new key, false when a note was replaced.'),
    redactions: z.number().int().describe('Secrets masked in the value before it was stored.'),
    note: noteShape,
    location: z
      .string()
      .describe(
        'Where the notes are kept: the SQLite file, or the PostgreSQL store with tenant and workspace.',
      ),
  }),
  // Writing the same note again changes nothing but its time; replacing a note loses the one it replaces.
  capabilities: { writes: true, destructive: true, idempotent: true },
  pathFields: ['path'],
  readsIndex: (args) => args.path !== undefined,
  subject: (args) => args.key,
  async run(args, ctx: OperationContext<MeshServices>) {
    const key = checkedKey(args.key);
    const value = maskedValue(args.value);
    const tags = checkedTags(args.tags);
    const author = authorOf(args.author, ctx.client);
    const pin =
      args.path === undefined && args.name === undefined && args.kind === undefined
        ? undefined
        : pinFor(requireSnapshot(ctx.services), { path: args.path, name: args.name, kind: args.kind });
    const store = await notesOf(ctx);
    const { note, created } = await store.put({
      key,
      value: value.text,
      tags,
      author,
      ...(pin ? { pin } : {}),
    });
    const masked = value.redactions > 0 ? ` ${value.redactions} secret(s) masked before storing.` : '';
    return {
      data: { created, redactions: value.redactions, note: noteJson(note), location: store.location },
      markdown: `${created ? 'Wrote' : 'Replaced'} note \`${key}\`.${masked}\n\n${noteMarkdown(note)}`,
      redactions: value.redactions,
    };
  },
});
