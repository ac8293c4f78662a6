import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { crawl } from '../../src/index/crawl.js';
import { emptyFacts, type FileFacts } from '../../src/index/facts.js';
import { fingerprintOf } from '../../src/index/fingerprint.js';
import { runIndex, type FactStore } from '../../src/index/index-run.js';
import { createParsePool, type ParsePool } from '../../src/index/parse/pool.js';
import type { ParseOutcome } from '../../src/index/parse/parser.js';
import { fileKey, type IndexedFile, type Snapshot } from '../../src/index/snapshot.js';
import { cacheDirFor } from '../../src/store/fact-cache-folder.js';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';
import {
  makeEngine,
  polyglotFiles,
  removeTemps,
  seededRandom,
  shuffled,
  tempDir,
  writeFiles,
} from '../helpers/engine.js';

afterAll(removeTemps);

const noStore: FactStore = { getMany: () => new Map(), putMany: () => undefined };
const plainKey = (root: string, p: string, hash: string) => `${root}:${p}:${hash}`;

/** A polyglot workspace written in the given order of its files. */
function polyglot(order: 'forward' | 'reverse' = 'forward'): string {
  const dir = tempDir();
  const files = polyglotFiles();
  writeFiles(dir, order === 'forward' ? files : [...files].reverse());
  return dir;
}

/** Identity of a snapshot's files, to show which file differs when fingerprints do. */
const listing = (snapshot: Snapshot | undefined) => [
  ...(snapshot?.files ?? []).map((f) => `${f.root}:${f.path} ${f.hash}`),
  ...(snapshot?.rejected ?? []).map((r) => `rejected ${r.root}:${r.path} ${r.reason}`),
];

describe('determinism: same input, same fingerprint', () => {
  test('across thread counts, repeated runs, a warm cache, and two checkouts written in different orders', async () => {
    const a = polyglot('forward');
    const b = polyglot('reverse');
    const fingerprints: string[] = [];

    const inProcess = makeEngine(a, { threads: 0 });
    await inProcess.engine.indexAll();
    fingerprints.push(inProcess.engine.fingerprintOf() as string);
    const installed = inProcess.engine.snapshot();
    await inProcess.engine.indexAll();
    fingerprints.push(inProcess.engine.fingerprintOf() as string);
    expect(inProcess.engine.snapshot()).toBe(installed);
    // A second run over an unchanged tree installs nothing new: same snapshot, same generation.
    expect(inProcess.engine.status().generation).toBe(1);
    await inProcess.engine.close();

    const workers = makeEngine(a, { threads: 2 });
    await workers.engine.indexAll();
    fingerprints.push(workers.engine.fingerprintOf() as string);
    await workers.engine.close();

    const other = makeEngine(b, { threads: 2 });
    const cold = await other.engine.indexAll();
    fingerprints.push(other.engine.fingerprintOf() as string);
    await other.engine.close();
    const warm = makeEngine(b, { threads: 2, cacheDir: other.cacheDir });
    const summary = await warm.engine.indexAll();
    fingerprints.push(warm.engine.fingerprintOf() as string);
    await warm.engine.close();

    expect(cold.cacheHits).toBe(0);
    expect(summary.cacheHits).toBe(cold.parsed);
    expect(summary.parsed).toBe(0);
    expect(new Set(fingerprints).size, fingerprints.join('\n')).toBe(1);
    expect(fingerprints[0]).toMatch(/^[0-9a-f]{64}$/);
  }, 60_000);

  test('runIndex gives the same output whatever the order of the crawl result', async () => {
    const dir = polyglot();
    writeFiles(dir, { 'services/orders/src/min.js': `var a=${'1+'.repeat(800)}1;\n` });
    const { loaded } = makeEngine(dir, { cacheDir: null });
    const files = await crawl(loaded.roots);
    const pool = createParsePool({ threads: 0 });
    try {
      const run = (list: typeof files) =>
        runIndex({ files: list, previous: new Map(), pool, store: noStore, keyOf: plainKey });
      const reference = await run(files);
      expect(reference.rejected.map((r) => r.reason)).toEqual(['long_line']);
      for (const seed of [1, 2, 3]) {
        const output = await run(shuffled(files, seed));
        expect(output.indexed).toEqual(reference.indexed);
        expect(output.rejected).toEqual(reference.rejected);
      }
      const asSnapshot = (output: typeof reference) =>
        ({ files: output.indexed, rejected: output.rejected }) as unknown as Snapshot;
      expect(fingerprintOf(asSnapshot(await run([...files].reverse())))).toBe(
        fingerprintOf(asSnapshot(reference)),
      );
    } finally {
      await pool.close();
    }
  });
});

describe('incremental reload equals a full index', () => {
  test('after edits, deletions, renames of files and folders, new folders and guard changes', async () => {
    const dir = polyglot();
    writeFiles(dir, {
      'services/orders/src/min.js': `var a=${'1+'.repeat(800)}1;\n`,
      'docs/adr/0002-retries.md': '# ADR 0002\n\nRetries with backoff.\n',
    });
    const setup = makeEngine(dir, { threads: 0 });
    const { engine } = setup;
    await engine.indexAll();
    const at = (rel: string) => path.join(dir, ...rel.split('/'));
    const changed: string[] = [];

    // An edit, and a file that starts failing the guard while another stops failing it.
    writeFileSync(
      at('services/orders/src/order.repo.ts'),
      'export class OrderRepo {\n  count() {\n    return 0;\n  }\n}\n',
    );
    writeFileSync(at('services/orders/src/min.js'), 'var a = 1;\n');
    writeFileSync(
      at('services/inventory/stock.go'),
      `package inventory\n\nvar x = ${'('.repeat(70)}1${')'.repeat(70)}\n`,
    );
    changed.push(
      at('services/orders/src/order.repo.ts'),
      at('services/orders/src/min.js'),
      at('services/inventory/stock.go'),
    );
    // A manifest naming the service differently.
    writeFileSync(at('services/orders/package.json'), '{ "name": "order-service", "version": "1.0.1" }\n');
    changed.push(at('services/orders/package.json'));
    // A deletion, and a rename (the watcher reports both ends).
    rmSync(at('services/shipping/shipping/handlers.py'));
    changed.push(at('services/shipping/shipping/handlers.py'));
    const javaDir = 'services/billing/src/main/java/shop/billing';
    renameSync(at(`${javaDir}/InvoiceService.java`), at(`${javaDir}/Invoices.java`));
    changed.push(at(`${javaDir}/InvoiceService.java`), at(`${javaDir}/Invoices.java`));
    // A new folder with files, reported as the folder only.
    writeFiles(dir, {
      'services/orders/src/payments/payment.client.ts': 'export const pay = (id: string) => id;\n',
      'services/orders/src/payments/refund.ts': 'export function refund(): void {}\n',
    });
    changed.push(at('services/orders/src/payments'));
    // A folder renamed (both ends), and a folder removed (reported as the folder only).
    renameSync(at('docs/adr'), at('docs/decisions'));
    changed.push(at('docs/adr'), at('docs/decisions'));
    rmSync(at('services/payment/src'), { recursive: true });
    changed.push(at('services/payment/src'));
    // A path that is excluded or outside every root is ignored.
    writeFiles(dir, {
      'services/orders/node_modules/x/index.js': 'module.exports = 1;\n',
      'notes/todo.txt': 'x\n',
    });
    changed.push(at('services/orders/node_modules/x/index.js'), at('notes/todo.txt'));

    const summary = await engine.reloadPaths(changed);
    expect(summary.full).toBe(false);
    const cold = makeEngine(dir, { threads: 0, cacheDir: null });
    await cold.engine.indexAll();
    expect(listing(engine.snapshot())).toEqual(listing(cold.engine.snapshot()));
    expect(engine.fingerprintOf()).toBe(cold.engine.fingerprintOf());
    expect([...(engine.snapshot()?.services ?? [])]).toEqual([...(cold.engine.snapshot()?.services ?? [])]);
    expect(engine.snapshot()?.services.get('services/orders')).toBe('order-service');
    expect(engine.status().rejected.map((r) => `${r.root}:${r.path} ${r.reason}`)).toEqual([
      'services/inventory:stock.go nesting',
    ]);

    // Reloading the same paths again changes nothing; neither does a reload of unchanged files.
    await engine.reloadPaths(changed);
    expect(engine.fingerprintOf()).toBe(cold.engine.fingerprintOf());
    const again = await engine.reloadPaths([at('services/orders/src/orders.controller.ts')]);
    expect(again.changed).toBe(0);
    expect(engine.fingerprintOf()).toBe(cold.engine.fingerprintOf());
    await cold.engine.close();
    await engine.close();
  });
});

describe('generations follow content, not reload events', () => {
  test('a reload that changes nothing keeps the snapshot; equal bytes under a new mtime keep the generation; an edit moves it', async () => {
    const dir = polyglot();
    const { engine } = makeEngine(dir, { threads: 0, cacheDir: null });
    try {
      await engine.indexAll();
      const installed = engine.snapshot();
      const file = path.join(dir, 'services/orders/src/order.repo.ts');

      await engine.reloadPaths([file]);
      expect(engine.snapshot()).toBe(installed);
      expect(engine.status().generation).toBe(1);

      // Rewrite the same bytes with a later mtime (a checkout back and forth, `touch`).
      const later = new Date(statSync(file).mtimeMs + 5_000);
      utimesSync(file, later, later);
      const touched = await engine.reloadPaths([file]);
      expect(touched).toMatchObject({ generation: 1, read: 1, changed: 0 });
      expect(engine.snapshot()).not.toBe(installed);
      expect(engine.snapshot()?.files.find((f) => f.absolutePath === file)?.mtimeMs).toBe(
        statSync(file).mtimeMs,
      );

      writeFileSync(file, 'export class OrderRepo {}\n');
      const edited = await engine.reloadPaths([file]);
      expect(edited).toMatchObject({ generation: 2, changed: 1 });
    } finally {
      await engine.close();
    }
  });
});

describe('guard limits and parse failures', () => {
  test('every guard limit is reported in status().rejected with its reason, size and detail', async () => {
    const dir = polyglot();
    const big = `// ${'x'.repeat(90)}\n`.repeat(4500);
    const files = {
      'services/orders/src/big.ts': big,
      'services/orders/src/blob.ts': 'export const a = 1;\n\0\0binary',
      'services/orders/src/min.js': `var a=${'1+'.repeat(800)}1;\n`,
      'services/orders/src/deep.ts': `export const x = ${'['.repeat(70)}${']'.repeat(70)};\n`,
      // Schema files have a larger limit; Markdown may have long lines.
      'proto/big/big.proto': `syntax = "proto3";\npackage big;\n${`// ${'y'.repeat(96)}\n`.repeat(4500)}message Big { string a = 1; }\n`,
      'docs/long-line.md': `# Long\n\n${'word '.repeat(600)}\n`,
    };
    writeFiles(dir, files);
    const { engine } = makeEngine(dir, { threads: 0, cacheDir: null });
    await engine.indexAll();
    const rejected = engine.status().rejected;
    const size = (rel: string) => Buffer.byteLength(files[rel as keyof typeof files]);
    expect(
      rejected.map(({ root, path: p, reason, size: s }) => ({ root, path: p, reason, size: s })),
    ).toEqual([
      {
        root: 'services/orders',
        path: 'src/big.ts',
        reason: 'oversized',
        size: size('services/orders/src/big.ts'),
      },
      {
        root: 'services/orders',
        path: 'src/blob.ts',
        reason: 'binary',
        size: size('services/orders/src/blob.ts'),
      },
      {
        root: 'services/orders',
        path: 'src/deep.ts',
        reason: 'nesting',
        size: size('services/orders/src/deep.ts'),
      },
      {
        root: 'services/orders',
        path: 'src/min.js',
        reason: 'long_line',
        size: size('services/orders/src/min.js'),
      },
    ]);
    for (const r of rejected) expect(r.detail, r.path).toMatch(/\d/);
    const indexed = engine.snapshot()?.files.map((f) => `${f.root}:${f.path}`) ?? [];
    expect(indexed).toContain('proto:big/big.proto');
    expect(indexed).toContain('docs:long-line.md');
    await engine.close();
  });

  test('runIndex stores facts while parsing goes on, in bounded transactions, each file once', async () => {
    const dir = tempDir();
    writeFiles(
      dir,
      Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`f${i}.ts`, `export const v${i} = ${i};\n`])),
    );
    const files = await crawl([{ name: '.', path: dir }]);
    const batches: number[] = [];
    const keys = new Set<string>();
    const pool: ParsePool = {
      mode: 'in-process',
      threads: 0,
      workerStats: () => ({ alive: 0, started: 0, lostBatches: 0 }),
      parseAll: async (jobs, options) =>
        jobs.map((job, index) => {
          const outcome: ParseOutcome = { kind: 'parsed', facts: emptyFacts(job.language) };
          options?.onOutcome?.(index, outcome);
          // A store that trails the parse: by job 300 the first transaction is written.
          if (index === 300) expect(batches).toEqual([256]);
          return outcome;
        }),
      close: async () => undefined,
    };
    const store: FactStore = {
      getMany: () => new Map(),
      putMany: (entries) => {
        batches.push(entries.length);
        for (const entry of entries) keys.add(entry.key);
      },
    };
    const output = await runIndex({ files, previous: new Map(), pool, store, keyOf: plainKey });
    expect(output.indexed).toHaveLength(600);
    expect(batches).toEqual([256, 256, 88]);
    expect(keys.size).toBe(600);
  });

  test("runIndex lets a file's source go and records its facts as soon as its outcome arrives", async () => {
    const dir = tempDir();
    writeFiles(dir, { 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n', 'c.ts': 'x\n' });
    const files = await crawl([{ name: '.', path: dir }]);
    const seen: string[][] = [];
    const pool: ParsePool = {
      mode: 'in-process',
      threads: 0,
      workerStats: () => ({ alive: 0, started: 0, lostBatches: 0 }),
      parseAll: async (jobs, options) => {
        const outcomes: ParseOutcome[] = [];
        for (const [index, job] of jobs.entries()) {
          seen.push(jobs.map((j) => j.source));
          const outcome: ParseOutcome =
            job.path === 'c.ts'
              ? { kind: 'failed', reason: 'extractor threw: boom', timedOut: false }
              : { kind: 'parsed', facts: emptyFacts(job.language) };
          outcomes.push(outcome);
          options?.onOutcome?.(index, outcome);
        }
        seen.push(jobs.map((j) => j.source));
        return outcomes;
      },
      close: async () => undefined,
    };
    const output = await runIndex({ files, previous: new Map(), pool, store: noStore, keyOf: plainKey });
    // Each job still has its source when it is parsed, and none once its outcome is in, failed or not.
    expect(seen).toEqual([
      ['export const a = 1;\n', 'export const b = 2;\n', 'x\n'],
      ['', 'export const b = 2;\n', 'x\n'],
      ['', '', 'x\n'],
      ['', '', ''],
    ]);
    expect(output.indexed.map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    expect(output.rejected).toMatchObject([{ path: 'c.ts', reason: 'parse_failed' }]);
  });

  test('runIndex: an unreadable file is rejected; a file whose parse fails keeps its last good facts', async () => {
    const dir = tempDir();
    writeFiles(dir, {
      'a.ts': 'export const a = 1;\n',
      'b.ts': 'export const b = 2;\n',
      'c.ts': 'export const c = 3;\n',
    });
    const roots = [{ name: '.', path: dir }];
    const files = await crawl(roots);
    const good: FileFacts = {
      ...emptyFacts('typescript'),
      symbols: [{ id: 0, kind: 'const', name: 'b', qualifiedName: 'b', startLine: 1, endLine: 1 }],
    };
    const previousB: IndexedFile = {
      root: '.',
      path: 'b.ts',
      absolutePath: path.join(dir, 'b.ts'),
      language: 'typescript',
      size: 10,
      mtimeMs: 1,
      hash: 'earlier',
      outcome: 'parsed',
      facts: good,
    };
    const failing = new Map<string, ParseOutcome>([
      ['b.ts', { kind: 'failed', reason: 'extractor threw: boom', timedOut: false }],
      ['c.ts', { kind: 'failed', reason: 'deadline', timedOut: true }],
    ]);
    const parsedJobs: string[] = [];
    const pool: ParsePool = {
      mode: 'in-process',
      threads: 0,
      workerStats: () => ({ alive: 0, started: 0, lostBatches: 0 }),
      parseAll: async (jobs) =>
        jobs.map((job) => {
          parsedJobs.push(job.path);
          return failing.get(job.path) ?? { kind: 'parsed', facts: emptyFacts(job.language) };
        }),
      close: async () => undefined,
    };
    const stored: string[] = [];
    const store: FactStore = {
      getMany: () => new Map(),
      putMany: (entries) => void stored.push(...entries.map((e) => e.key)),
    };
    const gone = { root: '.', path: 'gone.ts', absolutePath: path.join(dir, 'gone.ts'), size: 5, mtimeMs: 1 };
    const output = await runIndex({
      files: [...files, gone],
      previous: new Map([[fileKey('.', 'b.ts'), previousB]]),
      pool,
      store,
      keyOf: plainKey,
    });
    expect(parsedJobs.sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(output.rejected.map(({ path: p, reason, size }) => ({ path: p, reason, size }))).toEqual([
      { path: 'b.ts', reason: 'parse_failed', size: statSync(path.join(dir, 'b.ts')).size },
      { path: 'c.ts', reason: 'parse_timeout', size: statSync(path.join(dir, 'c.ts')).size },
      { path: 'gone.ts', reason: 'unreadable', size: 5 },
    ]);
    expect(output.rejected[2]?.detail).toBe('ENOENT');
    // b keeps what it had; c had nothing to keep; failures are never cached.
    expect(output.indexed.map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    expect(output.indexed[1]).toBe(previousB);
    expect(stored).toHaveLength(1);
  });
});

describe('fact cache', () => {
  test('a corrupt cache file: indexing succeeds, status warns, and the next run hits the rebuilt cache', async () => {
    const dir = polyglot();
    const first = makeEngine(dir);
    await first.engine.indexAll();
    const fingerprint = first.engine.fingerprintOf();
    const dbPath = first.engine.status().cache?.path as string;
    expect(first.engine.status().cache?.warning).toBeUndefined();
    await first.engine.close();

    const garbage = Buffer.alloc(64 * 1024);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) & 0xff;
    writeFileSync(dbPath, garbage);
    for (const suffix of ['-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });

    const second = makeEngine(dir, { cacheDir: first.cacheDir });
    const recovered = await second.engine.indexAll();
    expect(second.engine.fingerprintOf()).toBe(fingerprint);
    expect(second.engine.status().cache?.warning).toMatch(/corrupt/);
    expect(recovered.cacheHits).toBe(0);
    await second.engine.close();

    const third = makeEngine(dir, { cacheDir: first.cacheDir });
    const warm = await third.engine.indexAll();
    expect(warm.cacheHits).toBe(recovered.parsed);
    expect(warm.cacheHits).toBeGreaterThan(0);
    expect(warm.parsed).toBe(0);
    expect(third.engine.status().cache?.warning).toBeUndefined();
    expect(third.engine.fingerprintOf()).toBe(fingerprint);
    await third.engine.close();
  });

  test('the quota holds after many reloads ([cache] max_size_mb = 1, 20 rounds of 150 rewritten files)', async () => {
    const dir = tempDir();
    writeFiles(dir, { 'meshlens.toml': '[workspace]\nroots = ["src"]\n\n[cache]\nmax_size_mb = 1\n' });
    const random = seededRandom(7);
    const word = () => Math.floor(random() * 0xffffff).toString(36);
    // Markdown: each section's text is part of the facts, so every round writes well over 1 MB of entries.
    const write = (round: number) => {
      for (let i = 0; i < 150; i++) {
        const sections = Array.from(
          { length: 4 },
          (_, k) => `## Part ${k}\n\n${Array.from({ length: 60 }, word).join(' ')}\n`,
        );
        writeFiles(dir, {
          [`src/m${i % 10}/doc${i}.md`]: `# Doc ${i} round ${round}\n\n${sections.join('\n')}`,
        });
      }
    };
    write(0);
    const setup = makeEngine(dir, { threads: 0 });
    await setup.engine.indexAll();
    const quota = 1024 * 1024;
    let written = 0;
    for (let round = 1; round <= 20; round++) {
      write(round);
      const summary = await setup.engine.rescan({});
      written += summary.parsed;
      expect(summary.parsed).toBe(150);
    }
    const dbPath = setup.engine.status().cache?.path as string;
    const stats = setup.cache()?.stats();
    await setup.engine.close();
    const onDisk = [dbPath, `${dbPath}-wal`].reduce(
      (sum, f) => sum + (existsSync(f) ? statSync(f).size : 0),
      0,
    );
    expect(written).toBe(3000);
    expect(onDisk).toBeLessThan(quota);
    // Eviction really ran (the entries written exceed the quota), and the newest round survived it.
    expect(stats?.evicted ?? 0).toBeGreaterThan(0);
    const next = makeEngine(dir, { threads: 0, cacheDir: setup.cacheDir });
    expect((await next.engine.indexAll()).cacheHits).toBe(150);
    await next.engine.close();
  }, 120_000);
});

describe('crash safety (built CLI)', () => {
  /** 3,000 small files across 8 roots. */
  function generated(): string {
    const dir = tempDir('meshlens-kill-');
    const roots = ['proto', 'docs', ...Array.from({ length: 6 }, (_, i) => `services/svc${i}`)];
    writeFiles(dir, { 'meshlens.toml': `[workspace]\nroots = ["proto", "docs", "services/*"]\n` });
    for (let i = 0; i < 3000; i++) {
      const root = roots[i % roots.length] as string;
      const [rel, text] =
        root === 'proto'
          ? [`p${i}.proto`, `syntax = "proto3";\npackage p${i};\nmessage M${i} { string id = 1; }\n`]
          : root === 'docs'
            ? [`d${i}.md`, `# Doc ${i}\n\nText ${i}.\n`]
            : [
                `src/m${i % 17}/f${i}.ts`,
                `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`,
              ];
      writeFiles(dir, { [`${root}/${rel}`]: text });
    }
    return dir;
  }

  const fingerprintLine = (stdout: string) => stdout.split('\n')[0] ?? '';

  test('SIGKILL in the middle of indexing: the next run succeeds with the same fingerprint as a fresh cache', async () => {
    const dir = generated();
    const env = tempEnv();
    const db = path.join(cacheDirFor(dir, env), 'facts.db');
    const size = (file: string) => (existsSync(file) ? statSync(file).size : -1);
    // Three kills, each at the first moment the test sees it: 300 ms in (start-up or crawl), once the cache is
    // open (parsing under way), and while the batch of new entries is being written (the WAL past what opening
    // writes; a run that finishes before the test sees that is fine too).
    const moments: [string, (elapsedMs: number) => boolean][] = [
      ['300 ms after start', (elapsedMs) => elapsedMs >= 300],
      ['cache opened', () => existsSync(db)],
      ['cache being written', () => size(`${db}-wal`) > 256 * 1024],
    ];
    for (const [label, ready] of moments) {
      const child = spawn(process.execPath, [CLI, 'index', '--workspace', dir], { env, stdio: 'ignore' });
      let exitedWith: NodeJS.Signals | null | undefined;
      const exited = new Promise<void>((resolve) =>
        child.on('exit', (_code, signal) => resolve(void (exitedWith = signal))),
      );
      const started = Date.now();
      while (exitedWith === undefined && !ready(Date.now() - started)) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill('SIGKILL');
      await exited;
      // Killed, or already finished: either way the cache must stay usable.
      expect([null, 'SIGKILL'], label).toContain(exitedWith);
    }
    const after = runCli(['index', '--workspace', dir], { env });
    expect(after.status, after.stderr).toBe(0);
    const again = runCli(['graph', '--format', 'fingerprint', '--workspace', dir], { env });
    const fresh = runCli(['graph', '--format', 'fingerprint', '--workspace', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fingerprintLine(again.stdout)).toMatch(/^fingerprint: [0-9a-f]{64}$/);
    expect(fingerprintLine(again.stdout)).toBe(fingerprintLine(fresh.stdout));
    expect(again.stdout).toContain('files: 3000');
  }, 120_000);
});
