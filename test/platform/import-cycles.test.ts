import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Every module a file names: static imports (type-only ones too, since they still tie the files' designs
 * together), side-effect imports, `export … from`, `import x = require()`, `import()` calls and
 * `import('…')` types.
 */
function moduleSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isExternalModuleReference(node)) literal(node.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The src file a relative specifier names (`./x.js` is `x.ts`), or undefined for a package or non-TS file. */
function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.join(path.posix.dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, `${target}/index.ts`];
  return candidates.find((candidate) => files.has(candidate));
}

function importGraph(root: string): ImportGraph {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const specifiers = moduleSpecifiers(file, readFileSync(path.join(root, file), 'utf8'));
    const targets = specifiers.map((specifier) => resolveRelative(file, specifier, known));
    graph.set(file, new Set(targets.filter((target) => target !== undefined)));
  }
  return graph;
}

/** Strongly connected components of more than one file, and files that import themselves (Tarjan). */
function importCycles(graph: ImportGraph): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        connect(next);
        lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file) ?? 0, order.get(next) ?? 0));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) cycles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) connect(file);
  return cycles.sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

/** A cycle as its files and, for each, the files of the cycle it imports. */
function describeCycle(graph: ImportGraph, cycle: readonly string[]): string {
  const inCycle = new Set(cycle);
  return cycle
    .map((file) => `${file} → ${[...(graph.get(file) ?? [])].filter((f) => inCycle.has(f)).join(', ')}`)
    .join('; ');
}

describe('import cycles', () => {
  it('sees every kind of import, type-only ones included', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { type B } from '../b.js';",
      "import './c.js';",
      "export * from './d.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "import g = require('./g.js');",
      "const h = await import('./h.js');",
      "let i: import('./i.js').I;",
      "// import { j } from './j.js';",
    ].join('\n');
    expect(moduleSpecifiers('x.ts', text)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './d.js',
      './e.js',
      './f.js',
      './g.js',
      './h.js',
      './i.js',
    ]);
  });

  it('finds components of several files and files that import themselves', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts', 'd.ts'])],
      ['d.ts', new Set<string>()],
      ['e.ts', new Set(['e.ts'])],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  const graph = importGraph(SRC);
  const cycles = importCycles(graph);

  it('src has none', () => {
    expect(cycles.map((cycle) => describeCycle(graph, cycle))).toEqual([]);
  });
});
