import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { makeEngine, polyglotFiles, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(removeTemps);

const root = path.resolve(import.meta.dirname, '../..');

beforeAll(() => {
  // The engine runs the built worker script; without it, it parses in-process and starts no worker.
  expect(existsSync(path.join(root, 'dist', 'parse-worker.js')), 'run `npm run build` first').toBe(true);
});

/** Waits until `done` holds, checking every 10 ms; fails after `ms` (well under the default idle timeout). */
async function until(done: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still not done after ${ms} ms`);
    await sleep(10);
  }
}

/** The names the installed snapshot declares in the file at `absolutePath`. */
function declared(engine: IndexEngine, absolutePath: string): string[] {
  const file = engine.snapshot()?.files.find((f) => f.absolutePath === absolutePath);
  return (file?.facts.symbols ?? []).map((symbol) => symbol.name);
}

function polyglotWorkspace(): { dir: string; at: (rel: string) => string } {
  const dir = tempDir();
  writeFiles(dir, polyglotFiles());
  return { dir, at: (rel) => path.join(dir, ...rel.split('/')) };
}

describe('parse workers leave when idle and come back for a reload', () => {
  test('no worker is left after the idle timeout; a reload starts one and its facts are installed', async () => {
    const { dir, at } = polyglotWorkspace();
    const { engine } = makeEngine(dir, {
      threads: 2,
      cacheDir: null,
      parseWorkerIdleMs: 1_000,
      // Reloads of one file go to a worker too, as a larger one would.
      parseInProcessMaxFiles: 0,
    });
    try {
      expect(engine.parseWorkers()).toEqual({ alive: 0, started: 0, lostBatches: 0 });
      await engine.indexAll();
      // Six languages over two lanes: each lane owns some, so both started a worker, and neither lost a batch.
      expect(engine.parseWorkers()).toMatchObject({ started: 2, lostBatches: 0 });
      await until(() => engine.parseWorkers().alive === 0);

      const repo = at('services/orders/src/order.repo.ts');
      expect(declared(engine, repo)).toEqual(['OrderRepo', 'save']);
      writeFileSync(
        repo,
        'export class OrderRepo {}\n\nexport function reprice(): number {\n  return 1;\n}\n',
      );
      await engine.reloadPaths([repo]);
      expect(declared(engine, repo)).toEqual(['OrderRepo', 'reprice']);
      // One file of one language: one new worker.
      expect(engine.parseWorkers()).toMatchObject({ alive: 1, started: 3, lostBatches: 0 });

      // Go belongs to the other lane, whose worker has left: the live worker parses it instead of a new one.
      const stock = at('services/inventory/stock.go');
      writeFileSync(stock, 'package inventory\n\nfunc Restock(sku string) int {\n\treturn 0\n}\n');
      await engine.reloadPaths([stock]);
      expect(declared(engine, stock)).toEqual(['Restock']);
      expect(engine.parseWorkers()).toMatchObject({ alive: 1, started: 3, lostBatches: 0 });
      await until(() => engine.parseWorkers().alive === 0);

      // Once the pool has drained again, the next reload starts a worker again.
      writeFileSync(stock, 'package inventory\n\nfunc Recount() int {\n\treturn 0\n}\n');
      await engine.reloadPaths([stock]);
      expect(declared(engine, stock)).toEqual(['Recount']);
      expect(engine.parseWorkers()).toMatchObject({ started: 4, lostBatches: 0 });
    } finally {
      await engine.close();
    }
    expect(engine.parseWorkers()).toEqual({ alive: 0, started: 0, lostBatches: 0 });
  }, 60_000);

  test('a reload requested while the last worker is shutting down is parsed by a new worker', async () => {
    const { dir, at } = polyglotWorkspace();
    // No idle time at all: the worker is told to leave as soon as its batch is done, so every reload below
    // arrives while the worker that parsed the previous one is being terminated.
    const { engine } = makeEngine(dir, {
      threads: 1,
      cacheDir: null,
      parseWorkerIdleMs: 0,
      parseInProcessMaxFiles: 0,
    });
    try {
      await engine.indexAll();
      const file = at('services/orders/src/order.repo.ts');
      for (let i = 0; i < 12; i += 1) {
        writeFileSync(file, `export function probe${i}(): number {\n  return ${i};\n}\n`);
        await engine.reloadPaths([file]);
        expect(declared(engine, file)).toEqual([`probe${i}`]);
        // Vary the gap (none, a turn of the event loop, 1–2 ms) against the termination under way.
        if (i % 4 === 1) await new Promise((resolve) => setImmediate(resolve));
        else if (i % 4 >= 2) await sleep(i % 4 === 2 ? 1 : 2);
      }
      const stats = engine.parseWorkers();
      // Nothing fell back to the in-process retry, and workers did leave and come back.
      expect(stats.lostBatches).toBe(0);
      expect(stats.started).toBeGreaterThan(1);
    } finally {
      await engine.close();
    }
  }, 60_000);

  test('an edit made while no worker is alive is parsed in this thread; a larger reload starts a worker', async () => {
    const { dir, at } = polyglotWorkspace();
    const { engine } = makeEngine(dir, { threads: 2, cacheDir: null, parseWorkerIdleMs: 300 });
    try {
      await engine.indexAll();
      const started = engine.parseWorkers().started;
      expect(started).toBeGreaterThan(0);
      await until(() => engine.parseWorkers().alive === 0);

      const repo = at('services/orders/src/order.repo.ts');
      writeFileSync(repo, 'export function reprice(): number {\n  return 1;\n}\n');
      await engine.reloadPaths([repo]);
      expect(declared(engine, repo)).toEqual(['reprice']);
      expect(engine.parseWorkers()).toMatchObject({ alive: 0, started, lostBatches: 0 });

      // Nine files are more than a reload parsed here: a worker starts for them.
      const added = Array.from({ length: 9 }, (_, i) => at(`services/orders/src/extra${i}.ts`));
      added.forEach((file, i) => writeFileSync(file, `export const extra${i} = ${i};\n`));
      await engine.reloadPaths(added);
      expect(declared(engine, added[8] as string)).toEqual(['extra8']);
      expect(engine.parseWorkers()).toMatchObject({ alive: 1, started: started + 1, lostBatches: 0 });
    } finally {
      await engine.close();
    }
  }, 60_000);
});
