/**
 * The spare heap of the indexing is handed back once the parse workers have left: one release per burst of
 * work, none while work goes on, and at most one a minute.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { heapReleases } from '../../src/core/heap-release.js';
import { makeEngine, polyglotFiles, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(removeTemps);

beforeAll(() => {
  const built = path.resolve(import.meta.dirname, '../../dist/parse-worker.js');
  expect(existsSync(built), 'run `npm run build` first').toBe(true);
});

async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still not done after ${ms} ms`);
    await sleep(10);
  }
}

describe('heap release after indexing', () => {
  test('one release once the workers have left, none during work, none again within a minute', async () => {
    const dir = tempDir();
    writeFiles(dir, polyglotFiles());
    const { engine } = makeEngine(dir, {
      threads: 2,
      cacheDir: null,
      parseWorkerIdleMs: 300,
      parseInProcessMaxFiles: 0,
    });
    try {
      expect(heapReleases()).toBe(0);
      await engine.indexAll();
      // Workers are alive right after the run: nothing is released while they may get more work.
      expect(engine.parseWorkers().alive).toBeGreaterThan(0);
      expect(heapReleases()).toBe(0);
      await until(() => engine.parseWorkers().alive === 0);
      await until(() => heapReleases() === 1);

      // A reload starts a worker again; when it has left, the minute since the last release has not passed.
      const file = path.join(dir, 'services/orders/src/order.repo.ts');
      writeFileSync(file, 'export class OrderRepo {}\n');
      await engine.reloadPaths([file]);
      expect(engine.parseWorkers().alive).toBe(1);
      await until(() => engine.parseWorkers().alive === 0);
      await sleep(1_500);
      expect(heapReleases()).toBe(1);
    } finally {
      await engine.close();
    }
  });
});
