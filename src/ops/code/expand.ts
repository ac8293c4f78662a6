import { z } from 'zod';
import { byteLength, takePage } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { fenced } from '../../render/snippet.js';
import type { MeshServices } from '../services.js';
import { readIndexedText, STALE_NOTE } from '../shared/indexed-text.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { describeSymbol } from '../shared/symbol-address.js';
import { displayOf } from '../shared/workspace-paths.js';
import { declarationArgs, targetDeclaration } from './declaration-target.js';

/** Room kept for the heading, the fence and the footer within the page budget. */
const FRAME_BYTES = 512;

export const codeExpand = defineOperation({
  domain: 'code',
  mode: 'expand',
  flatName: 'expand_symbol',
  title: "Read one declaration's body",
  description:
    'Returns the full source of one declaration (function, method, class, message…) with secrets masked, the inverse of an outline entry — e.g. symbol "services/payment/server.go:ProcessPayment", path "services/payment/server.go" with name "server.ProcessPayment" or line 25, or a name declared once in the workspace. DO NOT USE to list what a file declares (use code outline / outline_file) or to find a name across files (use code search / smart_search).',
  args: {
    ...declarationArgs,
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Lines of the declaration to skip, from the previous page's footer, e.g. 180."),
  },
  output: z.looseObject({
    path: z.string(),
    kind: z.string(),
    qualified_name: z.string(),
    start_line: z.number().int(),
    end_line: z.number().int(),
    ...pageFields,
    shown_start_line: z.number().int(),
    shown_end_line: z.number().int(),
    text: z.string().describe('The lines shown, secrets masked.'),
    truncated: z.boolean().describe('True when the body continues past this page (see next_offset).'),
    stale: z.boolean().optional().describe('True when the file changed after it was indexed.'),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.path ?? args.symbol,
  truncationHint: () => 'The body was too large: read it in pages with `offset` from the footer.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const { file, symbol } = targetDeclaration(snapshot, args);
    const shown = displayOf(snapshot, file);
    const text = readIndexedText(file);
    if (!text)
      throw new ToolError('not_found', `\`${shown}\` can no longer be read; it may have been deleted.`);
    const lines = text.masked.lines.slice(symbol.startLine - 1, symbol.endLine);
    const heading = `### ${describeSymbol(symbol)} — \`${shown}\`\n`;
    const page = takePage(lines, {
      offset: args.offset,
      limit: lines.length,
      budgetBytes: Math.max(1, ctx.pageBudget - FRAME_BYTES - byteLength(heading)),
      render: (line) => `${line}\n`,
    });
    const firstShown = symbol.startLine + page.start;
    const lastShown = symbol.startLine + page.end - 1;
    const spec = ctx.services.languages(file.language);
    const fence = file.language === undefined ? '' : (spec?.fence ?? file.language);
    const body = page.items.length > 0 ? `${fenced(page.items.join('\n'), fence)}\n` : '';
    const note = page.hasMore
      ? `\nShowing L${firstShown}–${lastShown} of L${symbol.startLine}–${symbol.endLine}: the rest did not fit the page budget. More: \`offset: ${page.end}\`.\n`
      : page.start >= lines.length
        ? `\nNo lines at \`offset: ${page.start}\`: the declaration has ${lines.length}.\n`
        : '';
    const stale = text.stale ? `\n> ${STALE_NOTE}\n` : '';
    const indexes = page.items.map((_, i) => symbol.startLine - 1 + page.start + i);
    return {
      data: {
        path: shown,
        kind: symbol.kind,
        name: symbol.name,
        qualified_name: symbol.qualifiedName,
        start_line: symbol.startLine,
        end_line: symbol.endLine,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        shown_start_line: firstShown,
        shown_end_line: Math.max(firstShown - 1, lastShown),
        text: page.items.join('\n'),
        truncated: page.hasMore,
        ...(text.stale ? { stale: true } : {}),
      },
      markdown: `${heading}${body}${note}${stale}`,
      filesRead: [shown],
      redactions: text.masked.redactionsOn(indexes),
    };
  },
});
