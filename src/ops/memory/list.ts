import { z } from 'zod';
import { pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { pageArgs } from '../code/page-args.js';
import { pageFields } from '../shared/output-shapes.js';
import { checkedTag, tagField } from './note-fields.js';
import { noteJson, noteMarkdown, noteShape } from './note-render.js';
import { notesOf } from './notes-service.js';

export const LIST_LIMITS = { default: 50, max: 500 } as const;

export const memoryList = defineOperation({
  domain: 'memory',
  mode: 'list',
  flatName: 'list_notes',
  title: 'List notes',
  description:
    'Lists this workspace\'s notes in key order, whole, optionally only keys starting with a prefix or notes carrying a tag, paged — e.g. prefix "deploy/" or tag "decision". DO NOT USE to find notes about a subject (use memory search).',
  args: {
    prefix: z
      .string()
      .min(1)
      .optional()
      .describe('Only keys starting with this text (case-sensitive, not a pattern), e.g. "deploy/".'),
    tag: tagField(),
    ...pageArgs('Notes', LIST_LIMITS),
  },
  output: z.looseObject({ total: z.number().int(), ...pageFields, notes: z.array(noteShape) }),
  capabilities: { idempotent: true, paged: true },
  readsIndex: () => false,
  subject: (args) => args.prefix,
  async run(args, ctx: OperationContext<MeshServices>) {
    const tag = args.tag === undefined ? undefined : checkedTag(args.tag, 'tag');
    const store = await notesOf(ctx);
    const { notes, total } = await store.list({
      ...(args.prefix !== undefined ? { prefix: args.prefix } : {}),
      ...(tag !== undefined ? { tag } : {}),
      offset: args.offset,
      limit: args.limit,
    });
    // The store pages by count; the page budget may cut a page of long notes shorter still.
    const page = takePage(notes, {
      offset: 0,
      limit: notes.length,
      budgetBytes: ctx.pageBudget,
      render: noteMarkdown,
    });
    const shown = {
      ...page,
      start: args.offset,
      end: args.offset + page.end,
      total,
      hasMore: args.offset + page.end < total,
    };
    const filter = [
      ...(args.prefix !== undefined ? [`keys starting with \`${args.prefix}\``] : []),
      ...(tag !== undefined ? [`tag \`${tag}\``] : []),
    ];
    const scope = filter.length > 0 ? ` (${filter.join(', ')})` : '';
    const head = total === 0 ? `No notes${scope}.` : `${total} note(s)${scope}.`;
    const footer = pageFooter(shown, 'notes', args.limit);
    return {
      data: {
        total,
        offset: args.offset,
        next_offset: shown.hasMore ? shown.end : null,
        notes: page.items.map(noteJson),
      },
      markdown: `${head}\n\n${page.rendered.join('\n')}${footer ? `\n---\n${footer}\n` : ''}`,
    };
  },
});
