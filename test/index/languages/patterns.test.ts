import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emptyFacts, type FileFacts, type SymbolFact } from '../../../src/index/facts.js';
import type { ExtractOptions, ExtractPattern, Extractor } from '../../../src/index/languages/extractor.js';
import { applyPatterns, patternAppliesTo } from '../../../src/index/languages/shared/patterns.js';
import { parseFile, type ParseJob } from '../../../src/index/parse/parser.js';
import { createParsePool } from '../../../src/index/parse/pool.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The golden case of custom patterns: its options.json holds the patterns, its files the inputs.
const dir = path.join(root, 'test/golden/patterns/custom-patterns');
const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');

// Our own worker build and grammar copy, like test/index/parse.test.ts: dist/ may be stale or being rebuilt.
const scratch = path.join(root, 'node_modules', '.cache', `meshlens-patterns-test-${process.pid}`);
const workerPath = path.join(scratch, 'parse-worker.js');
let grammarsDir: string;

beforeAll(async () => {
  grammarsDir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-patterns-grammars-'));
  copyFileSync(
    path.join(root, 'node_modules/tree-sitter-python/tree-sitter-python.wasm'),
    path.join(grammarsDir, 'tree-sitter-python.wasm'),
  );
  mkdirSync(scratch, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { 'parse-worker': 'src/index/parse/worker.ts' },
    outdir: scratch,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['web-tree-sitter', 'piscina'],
    banner: {
      js: "import { createRequire as __meshlensCreateRequire } from 'node:module';\nconst require = __meshlensCreateRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(grammarsDir, { recursive: true, force: true });
});

const options = JSON.parse(read('options.json')) as ExtractOptions;

const symbol = (
  id: number,
  kind: SymbolFact['kind'],
  name: string,
  startLine: number,
  endLine: number,
): SymbolFact => ({
  id,
  kind,
  name,
  qualifiedName: name,
  startLine,
  endLine,
});
/** Stands in for the Python extractor, so that symbol attribution is tested on known spans. */
const stubPython: Extractor = (input) => ({
  ...emptyFacts(input.language),
  symbols: [
    symbol(0, 'class', 'OrderService', 4, 10),
    symbol(1, 'method', 'OrderService.__init__', 5, 6),
    symbol(2, 'method', 'OrderService.create_order', 8, 10),
    symbol(3, 'class', 'BillingSaga', 13, 14),
  ],
});

describe('custom patterns', () => {
  test('run after the extractor: facts attributed to the innermost symbol; invalid regex skipped', async () => {
    const outcome = await parseFile(
      {
        path: 'services/order-gateway/app/order_service.py',
        language: 'python',
        source: read('services/order-gateway/app/order_service.py'),
      },
      { grammarsDir, extractors: { python: stubPython }, options },
    );
    expect(outcome.kind).toBe('parsed');
    if (outcome.kind !== 'parsed') return;
    expect(outcome.facts.contracts).toEqual([
      {
        kind: 'topic_producer',
        topic: 'order-created-topic',
        line: 9,
        symbol: 2,
        confidence: 'heuristic',
        via: 'pattern:py-producer',
      },
      {
        kind: 'grpc_client',
        service: '*',
        method: 'ProcessPayment',
        line: 10,
        symbol: 2,
        confidence: 'heuristic',
        via: 'pattern:py-rpc',
      },
      { kind: 'saga', name: 'BillingSaga', line: 13, symbol: 3, via: 'pattern:saga' },
      // A regex sees comments too: a convention is the user's call, not the AST's.
      {
        kind: 'topic_producer',
        topic: 'commented-topic',
        line: 15,
        confidence: 'heuristic',
        via: 'pattern:py-producer',
      },
    ]);
  });

  test('languages without an extractor get pattern facts on empty facts; qualified RPC names split', async () => {
    const outcome = await parseFile(
      { path: 'deploy/events.yaml', language: 'yaml', source: read('deploy/events.yaml') },
      { extractors: {}, options },
    );
    expect(outcome).toEqual({
      kind: 'no-grammar',
      facts: {
        ...emptyFacts('yaml'),
        contracts: [
          {
            kind: 'topic_consumer',
            topic: 'payment-settled-topic',
            line: 2,
            confidence: 'heuristic',
            via: 'pattern:yaml-consumer',
          },
          {
            kind: 'grpc_client',
            service: 'shop.inventory.v1.InventoryService',
            method: 'ReserveStock',
            line: 3,
            confidence: 'heuristic',
            via: 'pattern:yaml-rpc',
          },
        ],
      },
    });
  });

  test('without options nothing changes, and the facts object is returned as is', () => {
    const facts: FileFacts = emptyFacts('yaml');
    expect(applyPatterns({ path: 'a.yaml', language: 'yaml', source: 'consumeTopic: x' }, facts)).toBe(facts);
    expect(
      applyPatterns({ path: 'a.yaml', language: 'yaml', source: 'x', options: { patterns: [] } }, facts),
    ).toBe(facts);
  });

  test('only invalid regexes: never throws, nothing added', () => {
    const facts = emptyFacts('go');
    const input = {
      path: 'a.go',
      language: 'go' as const,
      source: 'topic := "x"\n',
      options: { patterns: [{ name: 'bad', kind: 'topic_producer' as const, regex: '(?<', targetGroup: 1 }] },
    };
    expect(() => applyPatterns(input, facts)).not.toThrow();
    expect(applyPatterns(input, facts)).toBe(facts);
  });

  test.each([
    ['*.ts', 'src/a.ts', true],
    ['*.ts', 'src/a.tsx', true],
    ['*.ts', 'src/a.go', false],
    ['**/*.go', 'svc/main.go', true],
    ['.service.ts', 'src/order.service.ts', true],
    ['.service.ts', 'src/order.service.ts.bak', false],
    ['order.service.ts', 'src/order.service.ts', true],
    ['*', 'anything.md', true],
    [undefined, 'src/a.ts', true],
    [undefined, 'docs/readme.md', false],
    ['.md', 'docs/readme.md', true],
  ] as const)('filePattern %j on %s → %s', (filePattern, file, expected) => {
    const pattern: ExtractPattern = {
      name: 'p',
      kind: 'saga',
      regex: 'x',
      targetGroup: 0,
      ...(filePattern !== undefined ? { filePattern } : {}),
    };
    const language = file.endsWith('.md') ? 'markdown' : 'typescript';
    expect(patternAppliesTo(pattern, file, language)).toBe(expected);
  });

  test('the options reach pool workers: two threads and in-process give the same pattern facts', async () => {
    const jobs: ParseJob[] = [
      { path: 'deploy/events.yaml', language: 'yaml', source: read('deploy/events.yaml') },
      { path: 'proto/a.proto', language: 'proto', source: 'syntax = "proto3";\n// consumeTopic: x\n' },
      { path: 'docs/saga.md', language: 'markdown', source: '# class RefundSaga\n' },
    ];
    const inProcess = createParsePool({ threads: 0, grammarsDir, extractOptions: options });
    const workers = createParsePool({ threads: 2, grammarsDir, workerPath, extractOptions: options });
    try {
      expect(workers.mode).toBe('workers');
      const a = await inProcess.parseAll(jobs);
      const b = await workers.parseAll(jobs);
      expect(b).toEqual(a);
      const contracts = a.map((o) => (o.kind === 'failed' ? o.reason : o.facts.contracts.map((c) => c.via)));
      // The markdown file has no filePattern match and patterns without one skip docs.
      expect(contracts).toEqual([['pattern:yaml-consumer', 'pattern:yaml-rpc'], [], []]);
    } finally {
      await Promise.all([inProcess.close(), workers.close()]);
    }
  });
});
