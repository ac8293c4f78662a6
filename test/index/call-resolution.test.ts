/**
 * The call resolver on hand-written facts: each rule (import, own type, receiver type, constructor, same file,
 * same package, name) gives exactly the binding and confidence it claims, and a callee proven to be outside
 * the workspace never binds to a workspace declaration of the same name.
 */
import { describe, expect, test } from 'vitest';
import { buildCallGraph } from '../../src/index/calls/build.js';
import type { CallGraph } from '../../src/index/calls/model.js';
import type { CallFact } from '../../src/index/facts.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';
import { sym } from '../helpers/symbol-fact.js';

const repo = indexedFile(
  'shop',
  'src/repo.ts',
  {
    symbols: [
      sym(0, 'interface', 'OrderRepo', [1, 4], { exported: true }),
      sym(1, 'method', 'OrderRepo.save', [2, 2], { parent: 0 }),
      sym(2, 'class', 'PgRepo', [5, 9], { supertypes: ['OrderRepo'], exported: true }),
      sym(3, 'method', 'PgRepo.save', [6, 8], { parent: 2 }),
      sym(4, 'function', 'save', [10, 12], { exported: true }),
    ],
  },
  'typescript',
);

const serviceCalls: CallFact[] = [
  { name: 'save', module: './repo', line: 4, caller: 1 },
  { name: 'validate', receiver: 'this', self: true, line: 5, caller: 1 },
  { name: 'save', receiver: 'this.repo', receiverType: 'OrderRepo', line: 6, caller: 1 },
  { name: 'Router', module: 'express', line: 7, caller: 1 },
  { name: 'helper', line: 8, caller: 1 },
  { name: 'add', receiver: 'list', line: 9, caller: 1 },
  { name: 'PgRepo', construct: true, line: 10, caller: 1 },
  { name: 'query', receiver: 'db', receiverType: 'Pool', line: 11, caller: 1 },
];
const service = indexedFile(
  'shop',
  'src/service.ts',
  {
    symbols: [
      sym(0, 'class', 'OrderService', [1, 20]),
      sym(1, 'method', 'OrderService.place', [3, 12], { parent: 0 }),
      sym(2, 'method', 'OrderService.validate', [13, 15], { parent: 0 }),
      sym(3, 'function', 'helper', [21, 23]),
    ],
    imports: [
      { source: './repo', names: ['save', 'OrderRepo', 'PgRepo'], line: 1 },
      { source: 'express', names: ['Router'], line: 2 },
    ],
    calls: serviceCalls,
  },
  'typescript',
);

const goStore = indexedFile(
  'inventory',
  'store/store.go',
  {
    symbols: [
      sym(0, 'interface', 'Store', [3, 6]),
      sym(1, 'method', 'Store.Get', [4, 4], { parent: 0 }),
      sym(2, 'method', 'Store.Put', [5, 5], { parent: 0 }),
      sym(3, 'struct', 'memStore', [8, 8]),
    ],
  },
  'go',
);
const goMethods = indexedFile(
  'inventory',
  'store/mem.go',
  {
    symbols: [
      sym(0, 'method', 'memStore.Get', [3, 5]),
      sym(1, 'method', 'memStore.Put', [6, 9]),
      sym(2, 'function', 'load', [10, 12]),
    ],
    calls: [
      { name: 'Get', receiver: 'm', self: true, line: 7, caller: 1 },
      { name: 'load', line: 8, caller: 1 },
    ],
  },
  'go',
);

const files: IndexedFile[] = [goMethods, goStore, repo, service];
const graph: CallGraph = buildCallGraph(files, []);

/** `caller -> callee confidence via` rows of one file's calls, by line. */
function rowsOf(file: IndexedFile): string[] {
  return (file.facts.calls ?? []).flatMap((call) =>
    graph
      .callsAt(file, call.line)
      .map(
        (e) =>
          `L${e.line} ${e.name} -> ${e.to.path}:${e.to.facts.symbols[e.callee]?.qualifiedName} ${e.confidence} ${e.via}`,
      ),
  );
}

describe('call resolution', () => {
  test('each rule binds exactly what it proves', () => {
    expect(rowsOf(service)).toEqual([
      'L4 save -> src/repo.ts:save exact import',
      'L5 validate -> src/service.ts:OrderService.validate exact self',
      'L6 save -> src/repo.ts:OrderRepo.save exact type',
      'L8 helper -> src/service.ts:helper exact file',
      'L10 PgRepo -> src/repo.ts:PgRepo exact constructor',
    ]);
    expect(rowsOf(goMethods)).toEqual([
      'L7 Get -> store/mem.go:memStore.Get exact self',
      'L8 load -> store/mem.go:load exact file',
    ]);
  });

  test('library callees stay external, unknown receivers stay unresolved', () => {
    expect(graph.stats).toEqual({
      sites: 10,
      exact: 7,
      heuristic: 0,
      ambiguous: 0,
      external: 2,
      unresolved: 1,
    });
  });

  test('callers of a declaration, and callees of a method', () => {
    const callers = graph.callersOf({ file: repo, symbol: 1 }).map((e) => `${e.from.path}:${e.line}`);
    expect(callers).toEqual(['src/service.ts:6']);
    expect(graph.calleesOf(service, 1).map((e) => e.name)).toEqual([
      'save',
      'validate',
      'save',
      'helper',
      'PgRepo',
    ]);
  });

  test('implementations: declared supertypes and Go method sets', () => {
    const names = (refs: readonly { type: { file: IndexedFile; symbol: number }; confidence: string }[]) =>
      refs.map((r) => `${r.type.file.facts.symbols[r.type.symbol]?.qualifiedName} ${r.confidence}`);
    expect(names(graph.implementationsOf({ file: repo, symbol: 0 }))).toEqual(['PgRepo exact']);
    expect(names(graph.implementationsOf({ file: goStore, symbol: 0 }))).toEqual(['memStore heuristic']);
    const overridden = (file: IndexedFile, symbol: number) =>
      graph.overridden({ file, symbol }).map((r) => r.file.facts.symbols[r.symbol]?.qualifiedName);
    expect(overridden(repo, 3)).toEqual(['OrderRepo.save']);
    expect(overridden(goMethods, 0)).toEqual(['Store.Get']);
  });
});
