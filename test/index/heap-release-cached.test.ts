/**
 * A run that needs no parse worker (a restart whose files the cache holds) hands its spare heap back too:
 * no worker leaves after it, so the end of the run is what schedules the release.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, test } from 'vitest';
import { heapReleases } from '../../src/core/heap-release.js';
import { makeEngine, polyglotFiles, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(removeTemps);

test('a restart the cache answers releases the heap once it is over, with no worker started', async () => {
  const dir = tempDir();
  writeFiles(dir, polyglotFiles());
  // The cold run ends while its workers live, and they are closed, not drained: it releases nothing.
  const cold = makeEngine(dir, { threads: 2, parseWorkerIdleMs: 60_000 });
  await cold.engine.indexAll();
  expect(cold.engine.parseWorkers().alive).toBeGreaterThan(0);
  await cold.engine.close();
  const { engine } = makeEngine(dir, { threads: 2, cacheDir: cold.cacheDir as string });
  try {
    expect(heapReleases()).toBe(0);
    const run = await engine.indexAll();
    expect(run).toMatchObject({ parsed: 0, read: 0 });
    expect(run.cacheHits).toBeGreaterThan(0);
    expect(engine.parseWorkers()).toEqual({ alive: 0, started: 0, lostBatches: 0 });
    const deadline = Date.now() + 5_000;
    while (heapReleases() === 0 && Date.now() < deadline) await sleep(20);
    expect(heapReleases()).toBe(1);
  } finally {
    await engine.close();
  }
});
