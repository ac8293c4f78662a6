import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import type { FileFacts, ImportFact, LanguageId } from '../../src/index/facts.js';
import type { RootImportSettings } from '../../src/index/graph/imports-settings.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import { stripJsonComments } from '../../src/index/import-config.js';
import type { SnapshotReader } from '../../src/index/reader.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { makeEngine, removeTemps, tempDir } from '../helpers/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/imports');

/** `imports` edges as `from:line -> to-kind to confidence via`, with workspace-relative paths. */
function importRows(graph: ContractGraph): string[] {
  return graph.edges
    .filter((e) => e.kind === 'imports')
    .map((e) => {
      const to = graph.nodes[e.to];
      const target = to?.kind === 'service' ? to.name : `${to?.root}/${to?.name}`;
      return `${e.root}/${e.file}:${e.line} -> ${to?.kind} ${target} ${e.confidence} ${e.via}`;
    })
    .sort();
}

let engine: IndexEngine;
let client: Client;
let rows: string[];

beforeAll(async () => {
  const indexed = await indexedRegistry(FIXTURE);
  engine = indexed.engine;
  client = await connectClient(indexed.registry, 'flat');
  rows = importRows((engine.snapshot() as SnapshotReader).contractGraph());
});
afterAll(async () => {
  await client.close();
  await engine.close();
  removeTemps();
});

describe('import resolution (test/fixtures/imports)', () => {
  test('every rule gives exactly the expected edges, one per (importing file → imported file)', () => {
    expect(rows).toEqual(
      [
        // Go: a path under a go.mod module → the package folder (a module node per folder; test files are not the package's API).
        'gosvc/main.go:7 -> module gosvc/internal/store/ exact example.com/shop/gosvc/internal/store',
        // Java/Kotlin: package + top-level name; static members and nested types reach the enclosing top-level type.
        'jvm/src/main/java/com/shop/billing/InvoiceService.java:4 -> module jvm/src/main/java/com/shop/billing/model/Invoice.java heuristic com.shop.billing.model.Invoice',
        'jvm/src/main/kotlin/com/shop/billing/Notifier.kt:3 -> module jvm/src/main/java/com/shop/billing/model/Invoice.java heuristic com.shop.billing.model.Invoice',
        'jvm/src/main/kotlin/com/shop/billing/Notifier.kt:4 -> module jvm/src/main/kotlin/com/shop/billing/util/Format.kt heuristic com.shop.billing.util.formatAmount',
        // C/C++: next to the including file, then from the root.
        'native/src/engine.cpp:1 -> module native/src/engine.h exact engine.h',
        'native/src/engine.cpp:2 -> module native/common/log.h exact common/log.h',
        // TS inside a package: `.js` → `.ts`, and a re-export.
        'packages/contracts/src/testing.ts:1 -> module packages/contracts/src/index.ts exact ./index.js',
        'packages/utils/src/index.ts:1 -> module packages/utils/src/strings.ts exact ./strings',
        // Python: absolute imports from a top-level package of the same root (heuristic), relative ones (exact).
        'py/app.py:1 -> module py/shipping/handlers.py heuristic shipping.handlers',
        'py/app.py:2 -> module py/shipping/models.py heuristic shipping.models',
        'py/shipping/handlers.py:3 -> module py/shipping/models.py exact .models',
        'py/shipping/handlers.py:4 -> module py/shipping/rates.py exact .',
        'py/shipping/handlers.py:6 -> module py/shipping/util/dates.py heuristic shipping.util.dates',
        'py/shipping/util/dates.py:1 -> module py/shipping/models.py exact ..models',
        // TS: namespace import, relative with `.js`, folder index, parent folder, tsconfig `paths` (wildcard and
        // exact, from an extended config), `baseUrl`, package entry (manifest `dist/` mapped to `src/`),
        // `exports` subpath, folder-layout subpath, and a package without sources (its service node).
        'web/src/cli.ts:1 -> module web/src/orders/order.service.ts exact ./orders/order.service',
        'web/src/main.ts:10 -> module packages/contracts/src/testing.ts exact @shop/contracts/testing',
        'web/src/main.ts:11 -> module packages/utils/src/strings.ts exact @shop/utils/strings',
        'web/src/main.ts:12 -> service packages/schemas exact @shop/schemas',
        'web/src/main.ts:13 -> module web/config/app.ts exact config/app',
        'web/src/main.ts:14 -> module web/src/app/env.ts exact ~env',
        'web/src/main.ts:4 -> module web/src/orders/order.service.ts exact ./orders/order.service.js',
        'web/src/main.ts:5 -> module web/src/orders/index.ts exact ./orders',
        'web/src/main.ts:6 -> module web/lib/helper.ts exact ../lib/helper',
        'web/src/main.ts:7 -> module web/src/app/settings.ts exact @app/settings',
        'web/src/main.ts:9 -> module packages/contracts/src/index.ts exact @shop/contracts',
        'web/src/orders/index.ts:1 -> module web/src/orders/order.model.ts exact ./order.model',
        'web/src/orders/index.ts:2 -> module web/src/orders/order.service.ts exact ./order.service',
        // Two imports of the same file (`./order.model` and `./order.model.js`): one edge, the first line.
        'web/src/orders/order.service.ts:1 -> module web/src/orders/order.model.ts exact ./order.model',
      ].sort(),
    );
  });

  test('built-ins, external packages, system headers and missing files give no edge', () => {
    const from = (file: string, line: number) => rows.filter((r) => r.startsWith(`${file}:${line} `));
    const none = [
      ['web/src/main.ts', 1], // node:fs
      ['web/src/main.ts', 2], // `path` is a built-in, although root packages/path is named `path`
      ['web/src/main.ts', 3], // zod: external
      ['web/src/main.ts', 8], // ./missing
      ['py/shipping/handlers.py', 1], // os
      ['py/shipping/handlers.py', 2], // requests
      ['py/shipping/handlers.py', 5], // .nothing
      ['native/src/engine.cpp', 3], // <vector>
      ['native/src/engine.cpp', 4], // "nope.h"
      ['gosvc/main.go', 4], // fmt
      ['gosvc/main.go', 6], // a folder of the module that does not exist
      ['gosvc/main.go', 8], // github.com/segmentio/kafka-go
      ['jvm/src/main/java/com/shop/billing/InvoiceService.java', 3], // java.util.List
      ['jvm/src/main/java/com/shop/billing/InvoiceService.java', 5], // a package wildcard names no file
      ['jvm/src/main/java/com/shop/billing/InvoiceService.java', 8], // no such type
    ] as const;
    for (const [file, line] of none) expect(from(file, line), `${file}:${line}`).toEqual([]);
    expect(rows.filter((r) => r.includes(' packages/path/'))).toEqual([]);
  });

  test('edges run between module nodes of the files (the evidence is the import statement)', () => {
    const graph = (engine.snapshot() as SnapshotReader).contractGraph();
    const edge = graph.edges.find((e) => e.kind === 'imports' && e.file === 'src/cli.ts');
    expect(edge).toBeDefined();
    const from = graph.nodes[edge?.from ?? -1];
    const to = graph.nodes[edge?.to ?? -1];
    expect(from).toMatchObject({
      kind: 'module',
      root: 'web',
      name: 'src/cli.ts',
      file: 'src/cli.ts',
      line: 1,
    });
    expect(to).toMatchObject({
      kind: 'module',
      root: 'web',
      name: 'src/orders/order.service.ts',
      file: 'src/orders/order.service.ts',
      line: 1,
    });
    expect(edge).toMatchObject({
      root: 'web',
      file: 'src/cli.ts',
      line: 1,
      via: './orders/order.service',
      confidence: 'exact',
    });
  });

  test('same input, same edges and fingerprint; an edited tsconfig reloaded incrementally equals a full run', async () => {
    const dir = tempDir();
    cpSync(FIXTURE, dir, { recursive: true });
    const first = makeEngine(dir, { cacheDir: null });
    await first.engine.indexAll();
    const again = makeEngine(dir, { cacheDir: null });
    await again.engine.indexAll();
    expect(again.engine.fingerprintOf()).toBe(first.engine.fingerprintOf());
    expect(importRows((again.engine.snapshot() as SnapshotReader).contractGraph())).toEqual(rows);

    // The alias now points at another file: only the manifest changed, and the reload must see it.
    const base = path.join(dir, 'web', 'tsconfig.base.json');
    writeFileSync(
      base,
      '{ "compilerOptions": { "baseUrl": ".", "paths": { "~env": ["src/orders/order.model.ts"], "@app/*": ["src/app/*"] } } }\n',
    );
    await first.engine.reloadPaths([base]);
    const changed = importRows((first.engine.snapshot() as SnapshotReader).contractGraph());
    expect(changed).toContain('web/src/main.ts:14 -> module web/src/orders/order.model.ts exact ~env');
    expect(changed.filter((r) => r.includes('web/src/app/env.ts'))).toEqual([]);
    const cold = makeEngine(dir, { cacheDir: null });
    await cold.engine.indexAll();
    expect(first.engine.fingerprintOf()).toBe(cold.engine.fingerprintOf());
    await Promise.all([first.engine.close(), again.engine.close(), cold.engine.close()]);
  });
});

describe('import resolution across roots (reconcile only)', () => {
  const file = (
    root: string,
    rel: string,
    language: LanguageId,
    imports: ImportFact[] = [],
  ): IndexedFile => ({
    root,
    path: rel,
    absolutePath: `/ws/${root}/${rel}`,
    language,
    size: 1,
    mtimeMs: 0,
    hash: rel,
    outcome: 'parsed',
    facts: { language, symbols: [], imports, contracts: [] } satisfies FileFacts,
  });
  const pkg = (root: string, name: string): RootImportSettings => ({
    root,
    dir: `/ws/${root}`,
    packageJson: { name, entries: [], subpaths: [] },
  });

  test("a package name published by two roots: the importer's own root wins, else one ambiguous edge to each", () => {
    const files = [
      file('a', 'src/index.ts', 'typescript', [{ source: '@x/dup', line: 1 }]),
      file('b', 'src/index.ts', 'typescript'),
      file('c', 'main.ts', 'typescript', [
        { source: '@x/dup/sub', line: 3 },
        { source: 'events', line: 4 },
      ]),
      file('events', 'index.ts', 'typescript'),
    ];
    const graph = reconcile({
      files,
      services: new Map(),
      imports: [pkg('a', '@x/dup'), pkg('b', '@x/dup'), { root: 'c', dir: '/ws/c' }, pkg('events', 'events')],
    });
    expect(importRows(graph)).toEqual([
      'c/main.ts:3 -> module a/src/index.ts ambiguous @x/dup/sub',
      'c/main.ts:3 -> module b/src/index.ts ambiguous @x/dup/sub',
    ]);
    // Root `a` imports its own package (its entry is the importing file itself: no self edge).
    expect(importRows(graph).filter((r) => r.startsWith('a/'))).toEqual([]);
  });

  test("a relative import may cross into another root, and a Java type declared in two roots prefers the importer's", () => {
    const java = (root: string, rel: string, imports: ImportFact[] = []): IndexedFile => {
      const base = file(root, rel, 'java', imports);
      const name = rel.slice(rel.lastIndexOf('/') + 1, -'.java'.length);
      return {
        ...base,
        facts: {
          ...base.facts,
          package: 'shop.common',
          symbols: [{ id: 0, kind: 'class', name, qualifiedName: name, startLine: 3, endLine: 5 }],
        },
      };
    };
    const files = [
      file('app', 'src/main.ts', 'typescript', [{ source: '../../lib/src/util', line: 2 }]),
      file('lib', 'src/util.ts', 'typescript'),
      // `.` is the folder's index, never the sibling file named like the folder.
      file('lib', 'src/util/extra.ts', 'typescript', [{ source: '.', line: 1 }]),
      file('lib', 'src/util/index.ts', 'typescript'),
      java('billing', 'src/shop/common/Money.java'),
      java('billing', 'src/shop/billing/Invoice.java', [
        { source: 'shop.common.Money', names: ['Money'], line: 3 },
      ]),
      java('ledger', 'src/shop/common/Money.java'),
    ];
    const graph = reconcile({ files, services: new Map() });
    expect(importRows(graph)).toEqual([
      'app/src/main.ts:2 -> module lib/src/util.ts exact ../../lib/src/util',
      'billing/src/shop/billing/Invoice.java:3 -> module billing/src/shop/common/Money.java heuristic shop.common.Money',
      'lib/src/util/extra.ts:1 -> module lib/src/util/index.ts exact .',
    ]);
  });

  test('a Python import of several submodules gives one exact edge to each (not an ambiguity)', () => {
    const files = [
      file('py', 'pkg/__init__.py', 'python'),
      file('py', 'pkg/a.py', 'python', [{ source: '.', names: ['b', 'c', 'VERSION'], line: 1 }]),
      file('py', 'pkg/b.py', 'python'),
      file('py', 'pkg/c.py', 'python'),
      file('py', 'main.py', 'python', [
        { source: 'pkg.b', line: 2 },
        { source: 'os.path', line: 3 },
      ]),
    ];
    expect(importRows(reconcile({ files, services: new Map() }))).toEqual([
      'py/main.py:2 -> module py/pkg/b.py heuristic pkg.b',
      'py/pkg/a.py:1 -> module py/pkg/__init__.py exact .',
      'py/pkg/a.py:1 -> module py/pkg/b.py exact .',
      'py/pkg/a.py:1 -> module py/pkg/c.py exact .',
    ]);
  });

  test('tsconfig text: comments and trailing commas are stripped, strings are kept', () => {
    const text = '{\n  // line\n  "a": "http://x/*y*/", /* block */\n  "b": [1, 2,],\n}\n';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: 'http://x/*y*/', b: [1, 2] });
  });
});

describe('find_dependents uses resolved imports', () => {
  const dependents = async (args: Record<string, unknown>) =>
    textOf(await client.callTool({ name: 'find_dependents', arguments: args }));

  test('a namespace import of the declaring file counts, next to the import naming the class', async () => {
    const text = await dependents({ target: 'OrderService', granularity: 'file' });
    expect(text).toContain('`web/src/cli.ts:1` — via import ./orders/order.service');
    expect(text).toContain('`web/src/main.ts:4` — via import ./orders/order.service.js');
    expect(text).toContain('`web/src/orders/index.ts:2` — via import ./order.service');
    expect(text).toContain('3 file(s).');
    expect(text).not.toContain('Heuristic');
  });

  test('a module named by its file (relative imports only), and a re-export of everything', async () => {
    const model = await dependents({ target: 'order.model', granularity: 'file' });
    expect(model).toContain('`web/src/orders/index.ts:1` — via import ./order.model');
    expect(model).toContain('`web/src/orders/order.service.ts:1` — via import ./order.model');
    expect(model).toContain('2 file(s).');
    // `newOrder` is imported by name once; `export *` takes it too; `{ Order }` from the barrel does not.
    const fn = await dependents({ target: 'newOrder', granularity: 'file' });
    expect(fn).toContain('`web/src/orders/order.service.ts:2` — via import ./order.model.js');
    expect(fn).toContain('`web/src/orders/index.ts:1` — via import ./order.model');
    expect(fn).toContain('2 file(s).');
  });

  test('a Go type reached through its package folder, and a Python module by dotted name', async () => {
    const store = await dependents({ target: 'Store', granularity: 'file' });
    expect(store).toContain('`gosvc/main.go:7` — via import example.com/shop/gosvc/internal/store');
    expect(store).toContain('1 file(s).');
    const rates = await dependents({ target: 'flat', granularity: 'file' });
    expect(rates).toContain('`py/shipping/handlers.py:4` — via import .');
  });
});
