/**
 * The tests worth running for a diff: functions in test files (test-files.ts) that reach a changed
 * declaration through the call graph, directly or through other callers, a bounded number of calls away.
 * The handlers and clients of the contracts the diff touches count as changed too. A test is where the walk
 * stops: what calls a test is not itself a test of the change.
 */
import { compareStrings as cmp } from '../../../core/order.js';
import type { DeclRef, IndexedFile, SnapshotReader } from '../../../index/reader.js';
import { displayOf, isTestPath } from '../../shared/workspace-paths.js';

export interface TestToRun {
  readonly service: string;
  /** Workspace-relative path and line of the test's declaration. */
  readonly path: string;
  readonly line: number;
  /** The test function (or `(top of file)` for a call outside any function). */
  readonly test: string;
  /** Workspace-relative `path:line` of the test's declaration. */
  readonly location: string;
  /** Calls from the test to the nearest changed declaration. */
  readonly distance: number;
}

/** Calls followed up from a changed declaration; a test further away is not worth running for it. */
const MAX_DISTANCE = 6;
const MAX_VISITED = 5000;

const declKey = (file: IndexedFile, symbol: number | undefined): string =>
  `${file.root}\u0000${file.path}\u0000${symbol ?? 'top'}`;

/** The innermost function-like declaration holding a line, if any. */
export function declarationAt(file: IndexedFile, line: number): number | undefined {
  let best: { id: number; span: number } | undefined;
  for (const symbol of file.facts.symbols) {
    if (symbol.kind !== 'function' && symbol.kind !== 'method') continue;
    if (symbol.startLine > line || symbol.endLine < line) continue;
    const span = symbol.endLine - symbol.startLine;
    if (!best || span < best.span) best = { id: symbol.id, span };
  }
  return best?.id;
}

/** Tests reaching any of `changed`, per service then location. */
export function testsToRun(snapshot: SnapshotReader, changed: readonly DeclRef[]): TestToRun[] {
  const graph = snapshot.callGraph();
  const found = new Map<string, TestToRun>();
  const visited = new Set<string>();
  const record = (file: IndexedFile, symbol: number | undefined, line: number, distance: number) => {
    const key = declKey(file, symbol);
    const declaration = symbol === undefined ? undefined : file.facts.symbols[symbol];
    const known = found.get(key);
    if (known && known.distance <= distance) return;
    const at = declaration?.startLine ?? line;
    found.set(key, {
      service: snapshot.serviceOf(file.root),
      path: displayOf(snapshot, file),
      line: at,
      test: declaration?.qualifiedName ?? '(top of file)',
      location: `${displayOf(snapshot, file)}:${at}`,
      distance,
    });
  };
  let frontier: DeclRef[] = [];
  for (const ref of changed) {
    const key = declKey(ref.file, ref.symbol);
    if (visited.has(key)) continue;
    visited.add(key);
    if (isTestPath(ref.file.path)) record(ref.file, ref.symbol, 1, 0);
    else frontier.push(ref);
  }
  for (let distance = 1; distance <= MAX_DISTANCE && frontier.length > 0; distance++) {
    const next: DeclRef[] = [];
    for (const ref of frontier) {
      for (const edge of graph.callersOf(ref)) {
        if (isTestPath(edge.from.path)) {
          record(edge.from, edge.caller, edge.line, distance);
          continue;
        }
        if (edge.caller === undefined) continue;
        const key = declKey(edge.from, edge.caller);
        if (visited.has(key) || visited.size >= MAX_VISITED) continue;
        visited.add(key);
        next.push({ file: edge.from, symbol: edge.caller });
      }
    }
    frontier = next;
  }
  return [...found.values()].sort(
    (a, b) => cmp(a.service, b.service) || cmp(a.path, b.path) || a.line - b.line || cmp(a.test, b.test),
  );
}
