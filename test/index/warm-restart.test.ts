import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/index/crawl.js';
import { emptyFacts } from '../../src/index/facts.js';
import { runIndex, type FactStore } from '../../src/index/index-run.js';
import type { ParsePool } from '../../src/index/parse/pool.js';
import { fileKey } from '../../src/index/snapshot.js';
import { coldFingerprint, makeEngine, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(() => removeTemps());

describe('a restart with a warm cache', () => {
  it('reads and parses nothing that did not change, and only what did', async () => {
    const workspace = tempDir();
    writeFiles(workspace, {
      'meshlens.toml': '[workspace]\nroots = ["svc"]\n',
      'svc/a.go': 'package svc\n\nfunc A() {}\n',
      'svc/b.go': 'package svc\n\nfunc B() {}\n',
      'svc/c.py': 'def c():\n    pass\n',
    });
    const first = makeEngine(workspace);
    const cold = await first.engine.indexAll();
    await first.engine.close();
    expect(cold).toMatchObject({ filesSeen: 3, read: 3, parsed: 3, cacheHits: 0 });

    const second = makeEngine(workspace, { cacheDir: first.cacheDir as string });
    const warm = await second.engine.indexAll();
    expect(warm).toMatchObject({ filesSeen: 3, read: 0, parsed: 0, cacheHits: 3, changed: 0, removed: 0 });
    const fingerprint = second.engine.fingerprintOf();
    await second.engine.close();
    expect(fingerprint).toBe(await coldFingerprint(workspace));

    // An edit while no server runs: the changed file alone is read and parsed again.
    const edited = path.join(workspace, 'svc', 'b.go');
    writeFileSync(edited, 'package svc\n\nfunc B() {}\n\nfunc B2() {}\n');
    utimesSync(edited, new Date(), new Date(Date.now() + 5000));
    const third = makeEngine(workspace, { cacheDir: first.cacheDir as string });
    const after = await third.engine.indexAll();
    expect(after).toMatchObject({ read: 1, parsed: 1, cacheHits: 2, changed: 1 });
    const snapshot = third.engine.snapshot();
    expect(snapshot?.files.find((f) => f.path === 'b.go')?.facts.symbols.map((s) => s.name)).toEqual([
      'B',
      'B2',
    ]);
    await third.engine.close();
  });

  it('warms parse threads only for the files no earlier run saw as they are now', async () => {
    const workspace = tempDir();
    writeFiles(
      workspace,
      Object.fromEntries(
        Array.from({ length: 80 }, (_, i) => [`f${i}.go`, `package svc\n\nfunc F${i}() {}\n`]),
      ),
    );
    const files = await crawl([{ name: '.', path: workspace }]);
    const warmed: Map<string, number>[] = [];
    const pool: ParsePool = {
      mode: 'workers',
      threads: 2,
      workerStats: () => ({ alive: 0, started: 0, lostBatches: 0 }),
      warm: (work) => void warmed.push(new Map(work)),
      parseAll: async (jobs) => jobs.map((job) => ({ kind: 'parsed', facts: emptyFacts(job.language) })),
      close: async () => undefined,
    };
    const hits: FactStore = {
      getMany: (keys) => new Map(keys.map((key) => [key, { kind: 'parsed', facts: emptyFacts('go') }])),
      putMany: () => undefined,
    };
    const key = (root: string, p: string, hash: string) => `${root}:${p}:${hash}`;
    const stateOf = (file: (typeof files)[number]) => ({ size: file.size, mtimeMs: file.mtimeMs, hash: 'h' });

    // After a restart, the cache remembers every file as it is now: no thread is started ahead of the reads.
    const allKnown = new Map(files.map((file) => [fileKey(file.root, file.path), stateOf(file)]));
    const restart = await runIndex({
      files,
      previous: new Map(),
      known: allKnown,
      pool,
      store: hits,
      keyOf: key,
    });
    expect(restart).toMatchObject({ read: 0, parsed: 0, cacheHits: 80 });
    expect(warmed).toEqual([]);

    // Seventy files edited meanwhile: threads are warmed for those seventy, as a cold run warms for all.
    const edited = new Set(files.slice(0, 70).map((file) => file.path));
    const someKnown = new Map(
      files
        .filter((file) => !edited.has(file.path))
        .map((file) => [fileKey(file.root, file.path), stateOf(file)]),
    );
    await runIndex({ files, previous: new Map(), known: someKnown, pool, store: hits, keyOf: key });
    const editedBytes = files
      .filter((file) => edited.has(file.path))
      .reduce((sum, file) => sum + file.size, 0);
    expect(warmed).toEqual([new Map([['go', editedBytes]])]);
  });
});
