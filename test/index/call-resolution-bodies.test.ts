/**
 * Call resolution where a name has more than one declaration: an object literal's function beats the
 * interface the object is typed with, a prototype stands for the body another file holds, and overloads in
 * one file stay ambiguous (the arguments choose, which the resolver does not read).
 */
import { describe, expect, test } from 'vitest';
import { buildCallGraph } from '../../src/index/calls/build.js';
import type { SymbolFact } from '../../src/index/facts.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';
import { sym } from '../helpers/symbol-fact.js';

const body = (from: number, to: number): Partial<SymbolFact> => ({ bodyStartLine: from, bodyEndLine: to });

// demo.ts: `interface MessageFns { encode(): … }`, `export const Money: MessageFns<Money> = { encode() {…} }`.
const demo = indexedFile(
  'web',
  'protos/demo.ts',
  {
    symbols: [
      sym(0, 'interface', 'MessageFns', [1, 3], { exported: true }),
      sym(1, 'method', 'MessageFns.encode', [2, 2], { parent: 0 }),
      sym(2, 'const', 'Money', [5, 9], { exported: true }),
      sym(3, 'method', 'Money.encode', [6, 8], { parent: 2, ...body(7, 7) }),
      sym(4, 'function', 'wrap', [10, 12], { exported: true, ...body(11, 11) }),
    ],
    calls: [{ name: 'encode', receiver: 'Money', receiverType: 'MessageFns', line: 11, caller: 4 }],
  },
  'typescript',
);
const page = indexedFile(
  'web',
  'page.ts',
  {
    symbols: [sym(0, 'function', 'render', [2, 4], body(3, 3))],
    imports: [{ source: './protos/demo', names: ['Money'], line: 1 }],
    calls: [{ name: 'encode', receiver: 'Money', line: 3, caller: 0 }],
  },
  'typescript',
);

// a.c declares `extern long checklong(int);` and calls it; b.c in the same folder defines it.
const a = indexedFile(
  'lib',
  'src/a.c',
  {
    symbols: [
      sym(0, 'function', 'checklong', [1, 1]),
      sym(1, 'function', 'set_field', [2, 2]),
      sym(2, 'function', 'caller', [4, 7], body(5, 6)),
      sym(3, 'function', 'set_field', [9, 11], body(10, 10)),
    ],
    calls: [
      { name: 'checklong', line: 5, caller: 2 },
      { name: 'set_field', line: 6, caller: 2 },
    ],
  },
  'c',
);
const b = indexedFile(
  'lib',
  'src/b.c',
  { symbols: [sym(0, 'function', 'checklong', [1, 3], body(2, 2))] },
  'c',
);
// Two `swap` overloads; the second calls `swap` on ints, which neither of them takes.
const types = indexedFile(
  'lib',
  'src/types.cpp',
  {
    symbols: [sym(0, 'function', 'swap', [3, 3], body(3, 3)), sym(1, 'function', 'swap', [4, 4], body(4, 4))],
    calls: [{ name: 'swap', line: 4, caller: 1 }],
  },
  'cpp',
);

const files: IndexedFile[] = [demo, page, a, b, types];
const graph = buildCallGraph(files, []);
const rows = (file: IndexedFile): string[] =>
  (file.facts.calls ?? []).flatMap((call) =>
    graph
      .callsAt(file, call.line)
      .map(
        (e) =>
          `L${e.line} ${e.name} -> ${e.to.path}:${e.to.facts.symbols[e.callee]?.startLine} ${e.confidence} ${e.via}`,
      ),
  );

describe('call resolution among several declarations of one name', () => {
  test("an object's own function, not the interface it is typed with, in its file and through an import", () => {
    expect(rows(demo)).toEqual(['L11 encode -> protos/demo.ts:6 exact file']);
    expect(rows(page)).toEqual(['L3 encode -> protos/demo.ts:6 exact import']);
  });

  test('a prototype stands for the body: in the same file, else in the folder', () => {
    expect(rows(a)).toEqual([
      'L5 checklong -> src/b.c:1 exact package',
      'L6 set_field -> src/a.c:9 exact file',
    ]);
  });

  test('overloads in one file are ambiguous', () => {
    expect(rows(types)).toEqual([
      'L4 swap -> src/types.cpp:3 ambiguous file',
      'L4 swap -> src/types.cpp:4 ambiguous file',
    ]);
  });
});
