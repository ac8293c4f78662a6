/**
 * `contracts impact --symbol`: the answer, as one table (hop, scope, service, function, location,
 * confidence, via, the contracts each function is an entry point of) and as JSON.
 */
import { pageFooter, takePage, type Page } from '../../core/budget.js';
import type { OperationOutput } from '../../core/operation.js';
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import { declarationNamed } from '../shared/declaration-arg.js';
import { displayOf } from '../shared/workspace-paths.js';
import { collectSymbolImpact, type SymbolImpact, type SymbolImpactRow } from './impact-symbol.js';

export interface SymbolImpactArgs {
  readonly symbol: string;
  readonly depth: number;
  readonly includeTests: boolean;
  readonly limit: number;
  readonly offset: number;
  readonly pageBudget: number;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const location = (snapshot: SnapshotReader, row: SymbolImpactRow): string =>
  `${displayOf(snapshot, row.file)}:${row.line}`;

function rowText(snapshot: SnapshotReader, row: SymbolImpactRow, index: number): string {
  const entries = row.entryPoints.length > 0 ? row.entryPoints.map((e) => `\`${cell(e)}\``).join(', ') : '—';
  return `| ${index + 1} | ${row.hop} | ${row.scope} | ${cell(row.service)} | \`${cell(row.function)}\` | \`${location(snapshot, row)}\` | ${row.confidence} | ${cell(row.via)} | ${entries} |\n`;
}

/** Languages of the listed files that record no call sites at all: callers there cannot be found. */
function languagesWithoutCalls(snapshot: SnapshotReader, files: readonly IndexedFile[]): string[] {
  const withCalls = new Set<string>();
  for (const file of snapshot.files) if (file.facts.calls !== undefined) withCalls.add(file.language ?? '');
  const missing = new Set<string>();
  for (const file of files) if (!withCalls.has(file.language ?? '')) missing.add(file.language ?? 'unknown');
  return [...missing].sort();
}

interface SymbolView {
  readonly args: SymbolImpactArgs;
  readonly file: IndexedFile;
  readonly name: string;
  readonly impact: SymbolImpact;
  readonly page: Page<SymbolImpactRow>;
  readonly noCalls: readonly string[];
}

/** Nothing reached: whether that is authoritative, and what the declaration is an entry point of. */
function zeroLine(view: SymbolView): string {
  const { impact, name } = view;
  const entries = impact.rows[0]?.entryPoints ?? [];
  const listed = entries.map((e) => `\`${e}\``).join(', ');
  const entryText =
    entries.length === 0
      ? 'it is the entry point of no contract'
      : `it is the entry point of ${listed}${impact.notFollowed.length === 0 ? ', which nothing in the indexed roots calls or produces' : ''}`;
  if (view.noCalls.includes(view.file.language ?? 'unknown'))
    return `Callers of \`${name}\` are unknown (see below); ${entryText}.`;
  const tests = impact.testRowsLeftOut
    ? ` outside tests (${impact.testRowsLeftOut} call site(s) in test files left out)`
    : '';
  return `Exactly 0 callers of \`${name}\` in the call graph${tests}, and ${entryText}.`;
}

function markdownOf(snapshot: SnapshotReader, view: SymbolView): string {
  const { impact, page, args } = view;
  const target = impact.rows[0];
  const entryRows = impact.rows.filter((r) => r.entryPoints.length > 0);
  const lines = [
    `## Impact of changing \`${view.name}\` (\`${displayOf(snapshot, view.file)}:${target?.line ?? 1}\`)`,
    '',
    `Service \`${snapshot.serviceOf(view.file.root)}\` (root \`${view.file.root}\`). Depth ${args.depth} service(s). ` +
      `${impact.rows.length - 1} function(s) reached, ${entryRows.length} of them entry points, in ${new Set(impact.rows.map((r) => r.root)).size} service(s).`,
    '',
  ];
  if (impact.rows.length <= 1) lines.push(zeroLine(view));
  if (page.items.length > 0 && impact.rows.length > 1)
    lines.push(
      '| # | Hop | Scope | Service | Function | Location | Confidence | Via | Entry point of |',
      '|---|---|---|---|---|---|---|---|---|',
      ...page.rendered.map((r) => r.trimEnd()),
      '',
    );
  if (view.noCalls.length > 0)
    lines.push(
      `No call sites are recorded for ${view.noCalls.map((l) => `\`${l}\``).join(', ')} files: callers in them are missing from this answer.`,
    );
  if (impact.notFollowed.length > 0)
    lines.push(
      `Entry points at depth ${args.depth} whose callers were not followed (raise \`depth\`): ${impact.notFollowed.map((c) => `\`${c}\``).join(', ')}.`,
    );
  if (impact.testRowsLeftOut > 0 && impact.rows.length > 1)
    lines.push(`${impact.testRowsLeftOut} more in test files left out (\`include_tests: true\` lists them).`);
  if (impact.capped) lines.push('The walk stopped after 5000 functions; narrow it with a lower `depth`.');
  const footer = impact.rows.length > 1 ? pageFooter(page, 'rows', args.limit) : '';
  if (footer) lines.push('', footer);
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

function jsonOf(snapshot: SnapshotReader, view: SymbolView) {
  const { impact, page, file } = view;
  const declaration = impact.rows[0];
  return {
    symbol: view.args.symbol,
    declaration: {
      name: view.name,
      path: displayOf(snapshot, file),
      line: declaration?.line ?? null,
      root: file.root,
      service: snapshot.serviceOf(file.root),
    },
    depth: view.args.depth,
    total_rows: impact.rows.length,
    offset: page.start,
    rows: page.items.map((row) => ({
      hop: row.hop,
      level: row.level,
      scope: row.scope,
      service: row.service,
      root: row.root,
      function: row.function,
      path: displayOf(snapshot, row.file),
      line: row.line,
      location: location(snapshot, row),
      confidence: row.confidence,
      via: row.via,
      entry_points: row.entryPoints,
    })),
    next_offset: page.hasMore ? page.end : null,
    not_followed: impact.notFollowed,
    tests_left_out: impact.testRowsLeftOut,
    no_call_sites: view.noCalls,
    capped: impact.capped,
  };
}

/** The impact of changing the declaration `args.symbol` names. */
export function symbolImpactAnswer(snapshot: SnapshotReader, args: SymbolImpactArgs): OperationOutput {
  const { file, symbol } = declarationNamed(snapshot, 'symbol', args.symbol);
  const impact = collectSymbolImpact(snapshot, file, symbol.id, args.depth, args.includeTests);
  const page = takePage(impact.rows, {
    offset: args.offset,
    limit: args.limit,
    budgetBytes: args.pageBudget,
    render: (row, i) => rowText(snapshot, row, i),
  });
  const noCalls = languagesWithoutCalls(snapshot, [file, ...impact.rows.map((r) => r.file)]);
  const view: SymbolView = { args, file, name: symbol.qualifiedName, impact, page, noCalls };
  return { data: jsonOf(snapshot, view), markdown: markdownOf(snapshot, view) };
}
