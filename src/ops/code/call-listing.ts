/**
 * What `code callers` and `code callees` share: their arguments, their answer's shape, and the run that walks
 * the call graph from one declaration and pages the edges as a table (hop, caller, callee, service, call
 * site, confidence, via).
 */
import { z } from 'zod';
import { type Page, pageFooter, takePage } from '../../core/budget.js';
import type { OperationContext, OperationOutput } from '../../core/operation.js';
import type { CallEdge, Derivation, IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import type { AddressedSymbol } from '../shared/symbol-address.js';
import { displayOf } from '../shared/workspace-paths.js';
import {
  CONFIDENCE_LEVELS,
  type CallRow,
  type CallWalk,
  walkCalls,
  type WalkDirection,
} from './call-walk.js';
import { declarationArgs, symbolSpelling, targetDeclaration } from './declaration-target.js';
import { cell, declarationView, type DeclarationView, signatureRedactions } from './declaration-view.js';
import { familyOf, familyOfLanguage } from './language-family.js';
import { pageArgs } from './page-args.js';

/** Rows a walk keeps at most: beyond it the answer says the walk was cut. */
const MAX_ROWS = 2000;
export const MAX_DEPTH = 5;

export const callListingArgs = {
  ...declarationArgs,
  depth: z
    .number()
    .int()
    .min(1)
    .max(MAX_DEPTH)
    .default(1)
    .describe('Hops to follow transitively (each declaration is expanded once, so cycles end), e.g. 3.'),
  min_confidence: z
    .enum(CONFIDENCE_LEVELS)
    .default('heuristic')
    .describe(
      'Weakest binding listed: "exact" (proven by import, receiver type or scope), "heuristic" (the one declaration of that name the caller can see; default) or "ambiguous" (one of a few namesakes), e.g. "exact".',
    ),
  ...pageArgs('Rows', { default: 50, max: 200 }),
};

const declarationShape = z.looseObject({
  symbol: z.string().describe('Pass back as `symbol` to ask about this declaration.'),
  path: z.string(),
  line: z.number().int(),
  kind: z.string(),
  name: z.string(),
  service: z.string(),
});

export const callListingOutput = z.looseObject({
  declaration: declarationShape,
  depth: z.number().int(),
  min_confidence: z.string(),
  total_rows: z.number().int().describe('Edges found, over all pages.'),
  below_confidence: z.number().int().describe('Edges left out for being weaker than `min_confidence`.'),
  truncated: z.boolean().describe('True when the walk stopped at the row cap before `depth`.'),
  ...pageFields,
  rows: z.array(
    z.looseObject({
      hop: z.number().int(),
      caller: z
        .string()
        .nullable()
        .describe('Qualified name of the calling declaration; null at the top of a file.'),
      callee: z.string(),
      path: z.string().describe('Workspace-relative path of the call site.'),
      line: z.number().int(),
      service: z.string(),
      confidence: z.string(),
      via: z.string(),
    }),
  ),
  calls_recorded: z
    .boolean()
    .optional()
    .describe("False when no file of the declaration's language records call sites (the graph cannot know)."),
});

type ListingArgs = z.output<z.ZodObject<typeof callListingArgs>>;

interface ListingView {
  readonly direction: WalkDirection;
  readonly args: ListingArgs;
  readonly target: DeclarationView;
  readonly walk: CallWalk;
  readonly page: Page<CallRow>;
  readonly callsRecorded: boolean;
}

const nameOf = (file: IndexedFile, symbol: number | undefined): string | null =>
  symbol === undefined ? null : (file.facts.symbols[symbol]?.qualifiedName ?? null);

/** The service at the far end of a row: the caller's for callers, the callee's for callees. */
const farFile = (edge: CallEdge, direction: WalkDirection): IndexedFile =>
  direction === 'callers' ? edge.from : edge.to;

function rowJson(snapshot: SnapshotReader, row: CallRow, direction: WalkDirection) {
  const { edge } = row;
  const callee = edge.to.facts.symbols[edge.callee];
  return {
    hop: row.hop,
    caller: nameOf(edge.from, edge.caller),
    callee: nameOf(edge.to, edge.callee) ?? edge.name,
    ...(callee ? { callee_symbol: symbolSpelling(snapshot, edge.to, callee) } : {}),
    path: displayOf(snapshot, edge.from),
    line: edge.line,
    service: snapshot.serviceOf(farFile(edge, direction).root),
    confidence: row.confidence,
    via: row.via,
  };
}

function rowText(snapshot: SnapshotReader, row: CallRow, index: number, direction: WalkDirection): string {
  const json = rowJson(snapshot, row, direction);
  const caller = json.caller === null ? '(top of file)' : `\`${cell(json.caller)}\``;
  return `| ${index + 1} | ${row.hop} | ${caller} | \`${cell(json.callee)}\` | ${cell(json.service)} | \`${cell(json.path)}:${json.line}\` | ${row.confidence} | ${row.via} |`;
}

/** What the table does not show and why: weaker edges, a cut walk, a language without call sites. */
function notes(view: ListingView): string[] {
  const { walk, args } = view;
  const out: string[] = [];
  if (!view.callsRecorded)
    out.push(
      `No file in the language of \`${view.target.path}\` records call sites, so the call graph cannot list ${view.direction}; \`code references\` scans the text for the name.`,
    );
  if (walk.belowConfidence > 0) {
    const weaker = args.min_confidence === 'exact' ? '"heuristic" or "ambiguous"' : '"ambiguous"';
    out.push(
      `${walk.belowConfidence} edge(s) weaker than \`${args.min_confidence}\` left out; \`min_confidence: ${weaker}\` lists them.`,
    );
  }
  if (walk.truncated)
    out.push(`The walk stopped at ${MAX_ROWS} rows before depth ${args.depth}: lower \`depth\`.`);
  return out;
}

function listingMarkdown(snapshot: SnapshotReader, view: ListingView): string {
  const { target, walk, page, direction, args } = view;
  const heading = `## ${direction === 'callers' ? 'Callers' : 'Callees'} of ${target.kind} \`${target.name}\` (\`${target.path}:${target.line}\`, ${target.service})`;
  const hops = args.depth === 1 ? 'direct calls' : `up to ${args.depth} hops`;
  const lines = [
    heading,
    '',
    `_${walk.rows.length} call edge(s), ${hops}, confidence ${args.min_confidence} or better._`,
  ];
  if (page.items.length > 0)
    lines.push(
      '',
      '| # | hop | caller | callee | service | at | confidence | via |',
      '|---|---|---|---|---|---|---|---|',
      ...page.rendered,
    );
  const footer = pageFooter(page, 'rows', args.limit);
  if (footer) lines.push('', footer);
  const extra = notes(view);
  if (extra.length > 0) lines.push('', ...extra);
  return `${lines.join('\n')}\n`;
}

/** The languages some file of the snapshot records call sites for, found once per snapshot. */
const LANGUAGES_WITH_CALLS: Derivation<ReadonlySet<string | undefined>> = {
  build: (snapshot) =>
    new Set(snapshot.files.filter((f) => f.facts.calls !== undefined).map((f) => f.language)),
};

/** Whether any file of the declaration's language family records call sites. */
function callsRecorded(
  snapshot: SnapshotReader,
  ctx: OperationContext<MeshServices>,
  file: IndexedFile,
): boolean {
  const family = familyOf(ctx.services.languages, file);
  return [...snapshot.derived(LANGUAGES_WITH_CALLS)].some(
    (language) => familyOfLanguage(ctx.services.languages, language) === family,
  );
}

export function runCallListing(
  direction: WalkDirection,
  args: ListingArgs,
  ctx: OperationContext<MeshServices>,
): OperationOutput {
  const snapshot = requireSnapshot(ctx.services);
  const { file, symbol }: AddressedSymbol = targetDeclaration(snapshot, args);
  const walk = walkCalls(snapshot.callGraph(), {
    start: { file, symbol: symbol.id },
    direction,
    depth: args.depth,
    minConfidence: args.min_confidence,
    cap: MAX_ROWS,
  });
  const page = takePage(walk.rows, {
    offset: args.offset,
    limit: args.limit,
    budgetBytes: ctx.pageBudget,
    render: (row, index) => rowText(snapshot, row, index, direction),
  });
  const target = declarationView(snapshot, file, symbol);
  const recorded = walk.rows.length > 0 || callsRecorded(snapshot, ctx, file);
  const view: ListingView = { direction, args, target, walk, page, callsRecorded: recorded };
  return {
    data: {
      declaration: target,
      depth: args.depth,
      min_confidence: args.min_confidence,
      total_rows: walk.rows.length,
      below_confidence: walk.belowConfidence,
      truncated: walk.truncated,
      offset: page.start,
      next_offset: page.hasMore ? page.end : null,
      rows: page.items.map((row) => rowJson(snapshot, row, direction)),
      ...(recorded ? {} : { calls_recorded: false }),
    },
    markdown: listingMarkdown(snapshot, view),
    redactions: signatureRedactions([target]),
  };
}
