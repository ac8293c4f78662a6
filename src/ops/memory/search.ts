import { z } from 'zod';
import { pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { NoteSearchHit } from '../../core/notes.js';
import type { MeshServices } from '../services.js';
import { pageArgs } from '../code/page-args.js';
import { pageFields } from '../shared/output-shapes.js';
import { QUERY_MAX_CHARS, checkedTag, searchWords, tagField } from './note-fields.js';
import { noteJson, noteMarkdown, noteShape } from './note-render.js';
import { notesOf } from './notes-service.js';

export const SEARCH_LIMITS = { default: 10, max: 100 } as const;

const hitMarkdown = (hit: NoteSearchHit, index: number): string => `${index + 1}. ${noteMarkdown(hit.note)}`;

export const memorySearch = defineOperation({
  domain: 'memory',
  mode: 'search',
  flatName: 'search_notes',
  title: 'Search notes',
  description:
    'Full-text search over this workspace\'s notes (keys, tags and text): notes holding any of the words, best first (bm25, or ts_rank_cd on a PostgreSQL store; a word in the key counts most), paged — e.g. query "payment retry", tag "decision". DO NOT USE to search code or docs (use code search / smart_search, docs search / search_docs).',
  args: {
    query: z
      .string()
      .describe(
        `Words to look for, at most ${QUERY_MAX_CHARS} characters; whole words, any order, e.g. "payment retry".`,
      ),
    tag: tagField(),
    ...pageArgs('Notes', SEARCH_LIMITS),
  },
  output: z.looseObject({
    query: z.string(),
    words: z.array(z.string()).describe('The words searched for.'),
    total: z.number().int().describe('Notes matching, over every page.'),
    ...pageFields,
    results: z.array(
      z.looseObject({
        score: z
          .number()
          .describe('Lower is a better match: bm25, or ts_rank_cd negated on a PostgreSQL store.'),
        note: noteShape,
      }),
    ),
  }),
  capabilities: { idempotent: true, paged: true },
  readsIndex: () => false,
  subject: (args) => args.query,
  async run(args, ctx: OperationContext<MeshServices>) {
    const words = searchWords(args.query);
    const tag = args.tag === undefined ? undefined : checkedTag(args.tag, 'tag');
    const store = await notesOf(ctx);
    const { hits, total } = await store.search({
      words,
      ...(tag !== undefined ? { tag } : {}),
      offset: args.offset,
      limit: args.limit,
    });
    const page = takePage(hits, {
      offset: 0,
      limit: hits.length,
      budgetBytes: ctx.pageBudget,
      render: (hit, i) => hitMarkdown(hit, args.offset + i),
    });
    const shown = {
      ...page,
      start: args.offset,
      end: args.offset + page.end,
      total,
      hasMore: args.offset + page.end < total,
    };
    const scope = tag !== undefined ? ` with tag \`${tag}\`` : '';
    const head =
      total === 0
        ? `No note${scope} holds any of: ${words.join(', ')}. memory list shows every note.`
        : `${total} note(s)${scope} match: ${words.join(', ')}.`;
    const footer = pageFooter(shown, 'notes', args.limit);
    return {
      data: {
        query: args.query,
        words,
        total,
        offset: args.offset,
        next_offset: shown.hasMore ? shown.end : null,
        results: page.items.map((hit) => ({
          score: Math.round(hit.score * 1e6) / 1e6,
          note: noteJson(hit.note),
        })),
      },
      markdown: `${head}\n\n${page.rendered.join('\n')}${footer ? `\n---\n${footer}\n` : ''}`,
    };
  },
});
