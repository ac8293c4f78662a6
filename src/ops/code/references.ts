import { z } from 'zod';
import { type Page, pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { SnapshotReader } from '../../index/reader.js';
import { redactionsIn } from '../../trust/secret-mask.js';
import type { MeshServices } from '../services.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf } from '../shared/workspace-paths.js';
import { pageArgs } from './page-args.js';
import { declarationArgs, symbolSpelling, targetDeclaration } from './declaration-target.js';
import { cell, declarationView, type DeclarationView, signatureRedactions } from './declaration-view.js';
import { importsOf } from './import-files.js';
import { familyOf } from './language-family.js';
import { type Occurrence, scanReferences, type ScanResult } from './reference-scan.js';

/** Uses collected at most; beyond it the answer says the scan was cut. */
const MAX_USES = 5000;
/** Characters of a line shown in a row. */
const MAX_LINE = 160;

const shortLine = (text: string): string => {
  const trimmed = text.trim();
  return trimmed.length > MAX_LINE ? `${trimmed.slice(0, MAX_LINE - 1)}…` : trimmed;
};

function occurrenceJson(snapshot: SnapshotReader, use: Occurrence) {
  const bound = use.edge && !use.resolved ? use.edge.to.facts.symbols[use.edge.callee] : undefined;
  return {
    path: displayOf(snapshot, use.file),
    line: use.line,
    column: use.column,
    text: shortLine(use.text),
    resolved: use.resolved,
    ...(use.declaration ? { declaration: true } : {}),
    ...(use.confidence ? { confidence: use.confidence } : {}),
    ...(use.imported ? { via: 'import' } : use.edge ? { via: use.edge.via } : {}),
    ...(use.dispatches ? { dispatches: true } : {}),
    ...(use.inString ? { in_string: true } : {}),
    ...(bound && use.edge ? { bound_to: symbolSpelling(snapshot, use.edge.to, bound) } : {}),
  };
}

function occurrenceText(snapshot: SnapshotReader, use: Occurrence, index: number): string {
  const json = occurrenceJson(snapshot, use);
  return `| ${index + 1} | \`${cell(json.path)}:${json.line}:${json.column}\` | \`${cell(json.text).replace(/`/g, "'")}\` | ${use.resolved ? 'yes' : 'no'} | ${bindingText(use, json)} |`;
}

function bindingText(use: Occurrence, json: ReturnType<typeof occurrenceJson>): string {
  if (use.inString) return 'inside a string';
  if (use.declaration && use.resolved && !use.imported) return 'the declaration';
  if (use.imported) return 'import of it';
  if (use.resolved) return `call, ${json.confidence} ${json.via}`;
  const declares = use.declaration ? `declares a namesake (${use.declaration.kind})` : '';
  if (json.bound_to === undefined) return declares || 'not bound';
  const bound = `call bound to \`${cell(json.bound_to)}\` (${use.edge?.confidence} ${json.via})`;
  return `${declares ? `${declares}; ` : ''}${bound}${use.dispatches ? ', which this implements' : ''}`;
}

interface ReferencesView {
  readonly target: DeclarationView;
  readonly scan: ScanResult;
  readonly page: Page<Occurrence>;
  readonly limit: number;
}

/** Secrets masked in the lines a page shows, each line counted once. */
function shownRedactions(uses: readonly Occurrence[]): number {
  const lines = new Map(uses.map((use) => [`${use.file.absolutePath}:${use.line}`, use.text]));
  return [...lines.values()].reduce((sum, text) => sum + redactionsIn(text), 0);
}

const resolvedCount = (scan: ScanResult): number => scan.occurrences.filter((o) => o.resolved).length;

function referencesMarkdown(view: ReferencesView): string {
  const { target, scan, page } = view;
  const lines = [
    `## References to ${target.kind} \`${target.name}\` (\`${target.path}:${target.line}\`, ${target.service})`,
    '',
  ];
  const name = target.name.split(/::|[.#]/).pop();
  if (scan.occurrences.length === 0) {
    lines.push(`Exactly 0 uses of \`${name}\` in ${scan.filesScanned} indexed file(s) of its language.`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `_${scan.occurrences.length}${scan.truncated ? '+' : ''} whole-word use(s) of \`${name}\` in ${scan.filesScanned} file(s) of its language; ${resolvedCount(scan)} bound to this declaration (its declaration, imports of it, or calls the call graph binds to it)._`,
    '',
    '| # | at | line | resolved | binding |',
    '|---|---|---|---|---|',
    ...page.rendered,
  );
  const footer = pageFooter(page, 'uses', view.limit);
  if (footer) lines.push('', footer);
  if (scan.truncated)
    lines.push('', `The scan stopped at ${MAX_USES} uses: the name is too common to list them all.`);
  return `${lines.join('\n')}\n`;
}

export const codeReferences = defineOperation({
  domain: 'code',
  mode: 'references',
  flatName: 'find_references',
  title: 'Every use of a name',
  description:
    'Lists every whole-word use of a declaration\'s name in the indexed files of its language (secrets masked), each marked `resolved` when it is the declaration itself or a call the call graph binds to it, and naming what else a call binds to when it binds elsewhere — e.g. symbol "services/orders/src/repo.ts:PgRepo.save". DO NOT USE for only the proven callers (use code callers / find_callers) or for a free-text or regex search (use code grep).',
  args: {
    ...declarationArgs,
    ...pageArgs('Uses', { default: 50, max: 200 }),
  },
  output: z.looseObject({
    declaration: z.looseObject({
      symbol: z.string(),
      path: z.string(),
      line: z.number().int(),
      kind: z.string(),
    }),
    total: z.number().int().describe('Uses found, over all pages.'),
    resolved_total: z.number().int().describe('Uses bound to this declaration, over all pages.'),
    files_scanned: z.number().int(),
    total_is_partial: z.boolean().describe('True when the scan stopped at its cap.'),
    ...pageFields,
    references: z.array(
      z.looseObject({
        path: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        text: z.string().describe('The line, secrets masked.'),
        resolved: z.boolean(),
        declaration: z.boolean().optional(),
        confidence: z.string().optional(),
        via: z.string().optional(),
        bound_to: z.string().optional().describe('The declaration a call on the line binds to instead.'),
        dispatches: z
          .boolean()
          .optional()
          .describe('The call binds to an interface or base method this declaration implements.'),
        in_string: z.boolean().optional().describe('The name is inside a string literal on that line.'),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.symbol ?? args.path ?? args.name,
  truncationHint: () => 'Too many uses for one answer: lower `limit` and page with `offset`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const target = targetDeclaration(snapshot, args);
    const family = familyOf(ctx.services.languages, target.file);
    const scan = scanReferences({
      files: snapshot.files.filter((f) => familyOf(ctx.services.languages, f) === family),
      target,
      graph: snapshot.callGraph(),
      importsOf: (file) => importsOf(snapshot, ctx.services.languages, file),
      cap: MAX_USES,
      signal: ctx.signal,
    });
    const page = takePage(scan.occurrences, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: (use, index) => occurrenceText(snapshot, use, index),
    });
    const view = declarationView(snapshot, target.file, target.symbol);
    const shownFiles = [...new Set(page.items.map((use) => displayOf(snapshot, use.file)))];
    return {
      data: {
        declaration: view,
        total: scan.occurrences.length,
        resolved_total: resolvedCount(scan),
        files_scanned: scan.filesScanned,
        total_is_partial: scan.truncated,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        references: page.items.map((use) => occurrenceJson(snapshot, use)),
      },
      markdown: referencesMarkdown({ target: view, scan, page, limit: args.limit }),
      filesRead: shownFiles,
      redactions: shownRedactions(page.items) + signatureRedactions([view]),
    };
  },
});
