import { z } from 'zod';
import { type Page, pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { type RejectedNote, rejectedNote } from '../shared/rejected-note.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayPath, isTestPath } from '../shared/workspace-paths.js';
import { compareStrings as cmp } from '../../core/order.js';
import { collectDependents, type Dependent } from './dependents-collect.js';
import {
  type UnresolvedReach,
  unresolvedJson,
  unresolvedLines,
  unresolvedReaching,
} from './dependents-unresolved.js';
import { locationShape, notIndexedField, pageFields } from '../shared/output-shapes.js';

type Granularity = 'symbol' | 'file' | 'package';

function unitKey(d: Dependent, granularity: Granularity): string {
  if (granularity === 'package') return `${d.root}\u0000${d.service}`;
  if (granularity === 'file') return `${d.root}\u0000${d.file}`;
  return `${d.root}\u0000${d.file}\u0000${d.element}\u0000${d.via}`;
}

/**
 * One row per unit (declaration, file or package), the first in location order; units seen only in test
 * files are counted instead of listed unless tests are included.
 */
function groupByUnit(
  found: Dependent[],
  granularity: Granularity,
  includeTests: boolean,
): { rows: Dependent[]; testUnits: number } {
  const units = new Map<string, Dependent>();
  const testUnits = new Set<string>();
  for (const d of found.sort(
    (a, b) => cmp(a.root, b.root) || cmp(a.file, b.file) || a.line - b.line || cmp(a.element, b.element),
  )) {
    const key = unitKey(d, granularity);
    if (!includeTests && isTestPath(d.file)) {
      testUnits.add(key);
      continue;
    }
    if (!units.has(key)) units.set(key, d);
  }
  for (const key of units.keys()) testUnits.delete(key);
  return { rows: [...units.values()], testUnits: testUnits.size };
}

/** `12 dependent(s) in 5 file(s).`; by file the count is the file count, said once: `3 file(s).` */
const totalLine = (view: DependentsView): string =>
  view.granularity === 'file'
    ? `${view.files} file(s).`
    : `${view.total} ${unitLabel(view.granularity)} in ${view.files} file(s).`;

const unitLabel = (granularity: Granularity): string =>
  granularity === 'package' ? 'package(s)' : granularity === 'file' ? 'file(s)' : 'dependent(s)';

function rowText(snapshot: SnapshotReader, d: Dependent, i: number, granularity: Granularity): string {
  const where = `${displayPath(snapshot.roots, d.root, d.file)}:${d.line}`;
  if (granularity === 'package')
    return `${i + 1}. \`${d.service}\` (root \`${d.root}\`) — e.g. \`${where}\` via ${d.via}\n`;
  if (granularity === 'file') return `${i + 1}. \`${where}\` — via ${d.via}\n`;
  return `${i + 1}. \`${d.element}\` — \`${where}\` via ${d.via}\n`;
}

/** What the answer shows: the dependents found, their page, and what was left out. */
interface DependentsView {
  readonly snapshot: SnapshotReader;
  readonly target: string;
  readonly granularity: Granularity;
  readonly heuristic: boolean;
  readonly total: number;
  readonly files: number;
  readonly testUnits: number;
  readonly page: Page<Dependent>;
  readonly limit: number;
  readonly note: RejectedNote;
  /** Unresolved HTTP calls that might reach the target, when it is a route or a service. */
  readonly unresolved?: UnresolvedReach;
}

/** The page of rows under a heading per root, and the totals. */
function pageLines(view: DependentsView): string[] {
  const { page } = view;
  const lines: string[] = [];
  let lastRoot: string | undefined;
  page.items.forEach((d, i) => {
    if (d.root !== lastRoot) {
      lines.push(`### Root \`${d.root}\``);
      lastRoot = d.root;
    }
    lines.push((page.rendered[i] ?? '').trimEnd());
  });
  lines.push('', '---', `${totalLine(view)} ${pageFooter(page, 'rows', view.limit)}`);
  return lines;
}

function zeroLines(view: DependentsView): string[] {
  const { target } = view;
  if ((view.unresolved?.mightReach.length ?? 0) > 0)
    return [
      `0 linked ${unitLabel(view.granularity)} of \`${target}\` in the indexed roots; some HTTP calls could not be resolved and might reach it (below).`,
    ];
  return [
    `Exactly 0 ${unitLabel(view.granularity)} of \`${target}\` in the indexed roots (imports, gRPC, topic and HTTP links searched${target.length < 3 ? '; the substring fallback needs 3+ characters' : ''}). This is authoritative; do not re-check with grep.`,
    'Next: `code search` finds where it is declared; `contracts impact` follows contract changes.',
  ];
}

function dependentsMarkdown(view: DependentsView): string {
  const { target } = view;
  const lines = [`## Dependents of \`${target}\` (granularity: ${view.granularity})`, ''];
  if (view.heuristic)
    lines.push(
      `> Heuristic: nothing imports or links to \`${target}\` exactly; these imports merely contain it.`,
      '',
    );
  lines.push(...(view.total === 0 ? zeroLines(view) : pageLines(view)));
  if (view.unresolved) lines.push(...unresolvedLines(view.snapshot, target, view.unresolved));
  if (view.testUnits > 0)
    lines.push(
      `${view.testUnits} more ${unitLabel(view.granularity)} in test files left out (\`include_tests: true\` lists them).`,
    );
  return `${lines.join('\n')}\n${view.note.markdown}`;
}

function dependentsJson(snapshot: SnapshotReader, view: DependentsView) {
  const { page } = view;
  return {
    target: view.target,
    granularity: view.granularity,
    heuristic: view.heuristic,
    total: view.total,
    files: view.files,
    offset: page.start,
    results: page.items.map((d) => ({
      root: d.root,
      path: displayPath(snapshot.roots, d.root, d.file),
      line: d.line,
      element: d.element,
      via: d.via,
      service: d.service,
    })),
    next_offset: page.hasMore ? page.end : null,
    tests_left_out: view.testUnits,
    not_indexed: view.note.json,
    ...unresolvedJson(snapshot, view.unresolved),
  };
}

export const contractsDependents = defineOperation({
  domain: 'contracts',
  mode: 'dependents',
  flatName: 'find_dependents',
  title: 'Who depends on a type, package or contract',
  description:
    'Lists the code that imports a package or type, or calls, implements, produces or consumes a contract named like the target, grouped by root — one row per declaration, per file or per package — e.g. target "PaymentService" or "@shop/contracts". A zero result is authoritative. DO NOT USE to search free text or string literals (use code search with fuzzy: true, or grep).',
  args: {
    target: z
      .string()
      .min(1)
      .max(256)
      .describe('A type, contract or package, e.g. "PaymentService", "orders.created" or "@shop/contracts".'),
    granularity: z
      .enum(['symbol', 'file', 'package'])
      .default('symbol')
      .describe('One row per dependent declaration, file or (root, package), e.g. "file".'),
    include_tests: z
      .boolean()
      .default(false)
      .describe('Also list dependents in test files (otherwise counted), e.g. true.'),
    limit: z.number().int().min(1).max(200).default(50).describe('Rows per page, e.g. 20.'),
    offset: z.number().int().min(0).default(0).describe('Rows to skip, from the previous footer, e.g. 50.'),
  },
  output: z.looseObject({
    target: z.string(),
    granularity: z.string(),
    heuristic: z.boolean(),
    total: z.number().int(),
    files: z.number().int(),
    ...pageFields,
    results: z.array(
      z.looseObject({
        root: z.string(),
        ...locationShape,
        element: z.string(),
        via: z.string(),
        service: z.string().nullable().optional(),
      }),
    ),
    tests_left_out: z.number().int(),
    not_indexed: notIndexedField,
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.target,
  truncationHint: (args) =>
    `\`${args.target}\` has many dependents: use \`granularity: "file"\` or \`"package"\`, or page with \`offset\`.`,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const granularity = args.granularity as Granularity;
    const { found, heuristic } = collectDependents(snapshot, args.target, ctx.services.languages);
    const { rows, testUnits } = groupByUnit(found, granularity, args.include_tests);
    const files = new Set(rows.map((r) => snapshot.file(r.root, r.file))).size;
    const note = rejectedNote(snapshot, undefined, args.target);
    const page = takePage(rows, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: (d, i) => rowText(snapshot, d, i, granularity),
    });
    const unresolved = unresolvedReaching(snapshot, args.target);
    const view: DependentsView = {
      snapshot,
      ...(unresolved === undefined ? {} : { unresolved }),
      target: args.target,
      granularity,
      heuristic,
      total: rows.length,
      files,
      testUnits,
      page,
      limit: args.limit,
      note,
    };
    return { data: dependentsJson(snapshot, view), markdown: dependentsMarkdown(view) };
  },
});
