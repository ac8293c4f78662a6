import { z } from 'zod';
import { MAX_OUTPUT_BYTES, pageFooter, takePage } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { redactionsIn } from '../../trust/secret-mask.js';
import type { MeshServices } from '../services.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf } from '../shared/workspace-paths.js';

/** A page of a doc may use most of the answer cap: a reader asked for this one document. */
const DOC_PAGE_BYTES = MAX_OUTPUT_BYTES - 4096;

/**
 * One indexed Markdown document, section by section, as the index holds it (prompt-injection phrases
 * replaced, secrets masked when it was indexed). It backs the `meshlens://docs/{path}` resource and reads a page that
 * `docs search` found whole.
 */
export const docsRead = defineOperation({
  domain: 'docs',
  mode: 'read',
  flatName: 'read_doc',
  title: 'Read a document',
  description:
    'Returns one indexed Markdown document section by section, secrets masked, paged by size — e.g. path "docs/adr/0001-events.md" after docs search found a section of it. DO NOT USE to find which document talks about something (use docs search / search_docs).',
  args: {
    path: z
      .string()
      .min(1)
      .max(1024)
      .describe('The document, workspace-relative or absolute inside a root, e.g. "docs/runbook.md".'),
    offset: z.number().int().min(0).default(0).describe('First section to return, from `next_offset`.'),
  },
  output: z.looseObject({
    path: z.string(),
    total_sections: z.number().int(),
    ...pageFields,
    sections: z.array(
      z.looseObject({
        title: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        text: z.string(),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['path'],
  subject: (args) => args.path,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const file = snapshot.fileAt(args.path);
    const sections = file?.facts.sections ?? [];
    if (file === undefined || sections.length === 0) {
      const known = snapshot.files
        .filter((f) => (f.facts.sections?.length ?? 0) > 0)
        .map((f) => displayOf(snapshot, f));
      throw new ToolError(
        'not_found',
        `No indexed Markdown document at \`${file ? displayOf(snapshot, file) : args.path}\`. ` +
          `Indexed documents: ${known.slice(0, 20).join(', ') || '(none)'}${known.length > 20 ? ', …' : ''}. ` +
          '`docs search` finds documents by what they say.',
      );
    }
    const path = displayOf(snapshot, file);
    // Section text is masked when it is indexed (markdown/extract.ts); the masked values shown are counted.
    const texts = sections.map((section) => ({ section, text: section.text.trim() }));
    const page = takePage(texts, {
      offset: args.offset,
      limit: texts.length,
      budgetBytes: DOC_PAGE_BYTES,
      render: ({ text }) => `${text}\n`,
    });
    const footer = pageFooter(page, 'sections', 1);
    const markdown = `<!-- ${path} -->\n${page.rendered.join('\n')}${footer ? `\n---\n${footer}\n` : ''}`;
    return {
      data: {
        path,
        total_sections: sections.length,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        sections: page.items.map(({ section, text }) => ({
          title: section.title,
          start_line: section.startLine,
          end_line: section.endLine,
          text,
        })),
      },
      markdown,
      filesRead: [path],
      redactions: page.items.reduce((sum, { text }) => sum + redactionsIn(text), 0),
    };
  },
});
