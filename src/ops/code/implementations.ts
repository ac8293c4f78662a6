import { z } from 'zod';
import { type Page, pageFooter, takePage } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { CallGraph, Confidence, DeclRef, SnapshotReader, SymbolFact } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { pageArgs } from './page-args.js';
import { declarationArgs, targetDeclaration } from './declaration-target.js';
import {
  cell,
  declarationView,
  type DeclarationView,
  isTypeDeclaration,
  signatureRedactions,
} from './declaration-view.js';

interface ImplementationRow {
  readonly view: DeclarationView;
  readonly confidence: Confidence;
  /** Names the target among its declared supertypes (not through another type). */
  readonly direct: boolean;
  readonly via: 'declared' | 'method set';
}

const sameRef = (a: DeclRef, b: DeclRef): boolean => a.file === b.file && a.symbol === b.symbol;

/**
 * Every implementation of the type: declared ones (direct first, then through other types), then the ones
 * whose methods cover an interface's method set without declaring it (Go).
 */
function implementationRows(
  snapshot: SnapshotReader,
  graph: CallGraph,
  target: DeclRef,
): ImplementationRow[] {
  const rows = graph.implementationsOf(target).map((found) => {
    const symbol = found.type.file.facts.symbols[found.type.symbol] as SymbolFact;
    // Declared links are exact; only a method-set match (Go) is heuristic.
    const structural = found.confidence === 'heuristic';
    const direct = graph.supertypesOf(found.type).some((t) => sameRef(t, target));
    return {
      view: declarationView(snapshot, found.type.file, symbol),
      confidence: found.confidence,
      direct: direct || structural,
      via: structural ? ('method set' as const) : ('declared' as const),
    };
  });
  const rank = (row: ImplementationRow) => (row.via === 'method set' ? 2 : row.direct ? 0 : 1);
  return rows.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.view.path < b.view.path ? -1 : a.view.path > b.view.path ? 1 : 0) ||
      a.view.line - b.view.line,
  );
}

function rowText(row: ImplementationRow, index: number): string {
  const v = row.view;
  return `| ${index + 1} | \`${cell(v.name)}\` | ${v.kind} | ${cell(v.service)} | \`${cell(v.path)}:${v.line}\` | ${row.direct ? 'direct' : 'indirect'} | ${row.confidence} | ${row.via} |`;
}

function answerMarkdown(
  target: DeclarationView,
  all: readonly ImplementationRow[],
  page: Page<ImplementationRow>,
  limit: number,
): string {
  const heading = `## Implementations of ${target.kind} \`${target.name}\` (\`${target.path}:${target.line}\`, ${target.service})`;
  if (all.length === 0)
    return (
      `${heading}\n\nExactly 0 types in the indexed roots extend or implement \`${target.name}\`` +
      ' (declared supertypes, transitively, and Go method sets). `code references` finds every use of the name.\n'
    );
  const lines = [
    heading,
    '',
    `_${all.length} implementation(s)._`,
    '',
    '| # | type | kind | service | at | relation | confidence | via |',
    '|---|---|---|---|---|---|---|---|',
    ...page.rendered,
  ];
  const footer = pageFooter(page, 'rows', limit);
  if (footer) lines.push('', footer);
  return `${lines.join('\n')}\n`;
}

export const codeImplementations = defineOperation({
  domain: 'code',
  mode: 'implementations',
  flatName: 'find_implementations',
  title: 'Types implementing an interface',
  description:
    'Lists the types that extend or implement an interface, trait or base class declared in the workspace — directly or through other types, and Go structs whose methods cover an interface\'s method set (heuristic) — with service and path:line — e.g. name "OrderRepo" or symbol "services/inventory/store/store.go:Store". DO NOT USE for the callers of a method (use code callers / find_callers) or for every use of a type name (use code references / find_references).',
  args: {
    ...declarationArgs,
    ...pageArgs('Rows', { default: 50, max: 200 }),
  },
  output: z.looseObject({
    declaration: z.looseObject({
      symbol: z.string(),
      path: z.string(),
      line: z.number().int(),
      kind: z.string(),
    }),
    total_rows: z.number().int(),
    ...pageFields,
    rows: z.array(
      z.looseObject({
        symbol: z.string().describe('Pass back as `symbol` to ask about this type.'),
        path: z.string(),
        line: z.number().int(),
        kind: z.string(),
        name: z.string(),
        service: z.string(),
        confidence: z.string(),
        direct: z.boolean(),
        via: z.string().describe('"declared" (extends/implements) or "method set" (Go structural).'),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.symbol ?? args.path ?? args.name,
  truncationHint: () => 'Too many implementations for one answer: lower `limit` and page with `offset`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const { file, symbol } = targetDeclaration(snapshot, args, isTypeDeclaration);
    const target = declarationView(snapshot, file, symbol);
    if (!isTypeDeclaration(symbol))
      throw new ToolError(
        'invalid_argument',
        `\`${target.symbol}\` is a ${symbol.kind}; implementations are listed for an interface, trait, class or struct. ` +
          (symbol.kind === 'method'
            ? '`code callers` lists the calls that reach a method through the interface it implements.'
            : '`code references` lists its uses.'),
      );
    const all = implementationRows(snapshot, snapshot.callGraph(), { file, symbol: symbol.id });
    const page = takePage(all, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: rowText,
    });
    return {
      data: {
        declaration: target,
        total_rows: all.length,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        rows: page.items.map((row) => ({
          ...row.view,
          confidence: row.confidence,
          direct: row.direct,
          via: row.via,
        })),
      },
      markdown: answerMarkdown(target, all, page, args.limit),
      redactions: signatureRedactions([target, ...page.items.map((row) => row.view)]),
    };
  },
});
