import { z } from 'zod';
import { byteLength, pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { indexedFileOf } from '../shared/file-address.js';
import { changedSinceIndexed, STALE_NOTE } from '../shared/indexed-text.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf } from '../shared/workspace-paths.js';
import { maskedHeader, outlineOrder, type DeclarationRow } from './declaration-headers.js';
import { resolvedImports, type ResolvedImport } from './import-targets.js';

/** A signature longer than this is cut in the Markdown (the JSON keeps it whole). */
const SHOWN_SIGNATURE_CHARS = 160;
/** Imported names listed per import in the Markdown. */
const SHOWN_NAMES = 8;

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

interface RenderedDeclaration {
  readonly markdown: string;
  readonly json: Record<string, unknown>;
  readonly redactions: number;
}

function renderDeclaration(row: DeclarationRow): RenderedDeclaration {
  const { symbol } = row;
  const header = maskedHeader(symbol);
  const lines =
    symbol.startLine === symbol.endLine ? `L${symbol.startLine}` : `L${symbol.startLine}–${symbol.endLine}`;
  // Parameter decorators are part of the signature already; only the declaration's own ones are added.
  const own = header.decorators.filter((d) => !header.signature?.includes(d));
  const decorators = own.length > 0 ? `${own.join(' ')} ` : '';
  const signature = header.signature
    ? `: \`${cut(decorators + header.signature, SHOWN_SIGNATURE_CHARS)}\``
    : '';
  return {
    markdown: `${'  '.repeat(row.depth)}- ${symbol.kind} \`${symbol.qualifiedName}\` ${lines}${signature}`,
    redactions: header.redactions,
    json: {
      kind: symbol.kind,
      name: symbol.name,
      qualified_name: symbol.qualifiedName,
      start_line: symbol.startLine,
      end_line: symbol.endLine,
      signature: header.signature ?? null,
      parent: row.parent?.qualifiedName ?? null,
      depth: row.depth,
      ...(header.decorators.length > 0 ? { decorators: header.decorators } : {}),
      ...(symbol.exported !== undefined ? { exported: symbol.exported } : {}),
    },
  };
}

function renderImport({ fact, resolved }: ResolvedImport): string {
  const names = fact.names ?? [];
  const listed =
    names.length === 0
      ? ''
      : `: ${names.slice(0, SHOWN_NAMES).join(', ')}${names.length > SHOWN_NAMES ? `, … ${names.length - SHOWN_NAMES} more` : ''}`;
  const target = resolved.length > 0 ? ` → ${resolved.map((r) => `\`${r}\``).join(', ')}` : '';
  return `- L${fact.line} ${fact.reexport ? 're-export ' : ''}\`${fact.source}\`${listed}${target}`;
}

const importJson = ({ fact, resolved }: ResolvedImport) => ({
  source: fact.source,
  names: fact.names ?? [],
  line: fact.line,
  ...(fact.reexport ? { reexport: true } : {}),
  resolved,
});

/** Why a file holds no declarations, when it holds none. */
function emptyReason(file: IndexedFile): string {
  const properties = file.facts.properties?.length ?? 0;
  const held = properties > 0 ? ` It holds ${properties} configuration properties.` : '';
  if (file.outcome === 'no-grammar')
    return `No declarations: meshlens does not extract declarations from this kind of file.${held} \`code grep\` searches its text.`;
  return `No declarations were found in this file.${held}`;
}

function outlineHeader(snapshot: SnapshotReader, file: IndexedFile): string {
  const facts = file.facts;
  const parts = [
    file.language ?? 'no language',
    `${facts.symbols.length} declaration(s)`,
    `${facts.imports.length} import(s)`,
    ...(facts.package ? [`package \`${facts.package}\``] : []),
  ];
  return `## Outline of \`${displayOf(snapshot, file)}\`\n_${parts.join(' · ')}_\n`;
}

export const codeOutline = defineOperation({
  domain: 'code',
  mode: 'outline',
  flatName: 'outline_file',
  title: 'Outline a file',
  description:
    'Shows one indexed file\'s shape without reading it: every declaration with its kind, qualified name, line span, signature and nesting, and its imports with the workspace files they resolve to, bodies left out — e.g. path "services/payment/server.go". DO NOT USE to read a body (use code expand / expand_symbol) or to find where a name is declared (use code search / smart_search).',
  args: {
    path: z
      .string()
      .min(1)
      .max(1024)
      .describe(
        'The file, workspace-relative as answers show it, relative to its root, or absolute, e.g. "services/order-gateway/src/orders/order.service.ts".',
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Declarations to skip, from the previous page's footer, e.g. 80."),
  },
  output: z.looseObject({
    path: z.string(),
    language: z.string().nullable(),
    total_declarations: z.number().int(),
    ...pageFields,
    declarations: z.array(
      z.looseObject({
        kind: z.string(),
        qualified_name: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        signature: z.string().nullable(),
        parent: z.string().nullable(),
      }),
    ),
    imports: z
      .array(z.looseObject({ source: z.string(), line: z.number().int(), resolved: z.array(z.string()) }))
      .optional()
      .describe('On the first page only: every import, with the workspace paths it resolves to.'),
    stale: z.boolean().optional().describe('True when the file changed after it was indexed.'),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.path,
  truncationHint: (args) =>
    `The outline of \`${args.path}\` was too large: page with \`offset\` from the footer, or expand one declaration.`,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const file = indexedFileOf(snapshot, 'path', args.path);
    const shown = displayOf(snapshot, file);
    const header = outlineHeader(snapshot, file);
    const imports = args.offset === 0 ? resolvedImports(snapshot, file) : [];
    const importBlock = imports.length > 0 ? `\n**Imports**\n${imports.map(renderImport).join('\n')}\n` : '';
    const rows = outlineOrder(file);
    const rendered = new Map<number, RenderedDeclaration>();
    const renderAt = (row: DeclarationRow, index: number) => {
      const entry = rendered.get(index) ?? renderDeclaration(row);
      rendered.set(index, entry);
      return entry.markdown;
    };
    const page = takePage(rows, {
      offset: args.offset,
      limit: rows.length,
      budgetBytes: ctx.pageBudget - byteLength(header + importBlock),
      render: (row, index) => `${renderAt(row, index)}\n`,
    });
    const entries = page.items.map((_, i) => rendered.get(page.start + i) as RenderedDeclaration);
    const declarations =
      rows.length === 0
        ? `\n${emptyReason(file)}\n`
        : entries.length > 0
          ? `\n**Declarations**\n${entries.map((e) => e.markdown).join('\n')}\n`
          : '';
    const footer = pageFooter(page, 'declarations', page.items.length || 1);
    const stale = changedSinceIndexed(file);
    const markdown =
      header +
      importBlock +
      declarations +
      (footer && page.total > page.items.length ? `\n${footer}\n` : '') +
      (stale ? `\n> ${STALE_NOTE}\n` : '') +
      (page.hasMore || rows.length === 0
        ? ''
        : '\nNext: `code expand` with `path` and `name` reads one body.\n');
    return {
      data: {
        path: shown,
        language: file.language ?? null,
        ...(file.facts.package ? { package: file.facts.package } : {}),
        total_declarations: rows.length,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        declarations: entries.map((e) => e.json),
        ...(args.offset === 0 ? { imports: imports.map(importJson) } : {}),
        ...(stale ? { stale: true } : {}),
      },
      markdown,
      filesRead: [shown],
      redactions: entries.reduce((sum, e) => sum + e.redactions, 0),
    };
  },
});
