import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import {
  coldFingerprint,
  git,
  gitAsync,
  makeEngine,
  polyglotFiles,
  removeTemps,
  tempDir,
  waitFor,
  writeFiles,
} from '../helpers/engine.js';

afterAll(removeTemps);

const engines: IndexEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

/** A committed git repository holding the polyglot workspace, indexed and watched. */
async function watchedRepo(
  extra: Record<string, string> = {},
): Promise<{ dir: string; engine: IndexEngine }> {
  const dir = tempDir('meshlens-watch-');
  writeFiles(dir, polyglotFiles());
  writeFiles(dir, extra);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return { dir, engine: await startWatching(dir) };
}

async function startWatching(dir: string): Promise<IndexEngine> {
  const { engine } = makeEngine(dir, { threads: 0, cacheDir: null });
  engines.push(engine);
  await engine.indexAll();
  await engine.watch();
  return engine;
}

/** Waits until the generation has not moved for `quietMs` and no reload is pending. */
async function settle(engine: IndexEngine, quietMs = 2_000): Promise<void> {
  let last = engine.status().generation;
  let since = Date.now();
  await waitFor(
    'the index to settle',
    async () => {
      await engine.settled();
      const now = engine.status().generation;
      if (now !== last || engine.status().hold !== undefined) {
        last = now;
        since = Date.now();
      }
      return Date.now() - since >= quietMs;
    },
    90_000,
  );
}

const generation = (engine: IndexEngine) => engine.status().generation;

describe('watcher', () => {
  test('an edited file is reloaded as a new generation within a few seconds', async () => {
    const { dir, engine } = await watchedRepo();
    const before = generation(engine);
    writeFileSync(
      path.join(dir, 'services/orders/src/order.repo.ts'),
      'export class OrderRepo {\n  size() {\n    return 1;\n  }\n}\n',
    );
    await waitFor('a new generation after an edit', () => generation(engine) > before, 20_000);
    await settle(engine, 1_000);
    expect(engine.fingerprintOf()).toBe(await coldFingerprint(dir));
    // A plain edit is an incremental reload, not a re-crawl.
    expect(engine.status().lastRun?.full).toBe(false);
  }, 60_000);

  test('a git checkout rewriting 300 files is reloaded as exactly one generation, equal to a cold index', async () => {
    const generated = (version: string) =>
      Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [
          `services/orders/src/gen/g${String(i).padStart(3, '0')}.ts`,
          `// ${version}\nexport function g${i}(x: number): number {\n  return x + ${version === 'v1' ? i : i * 2};\n}\n`,
        ]),
      );
    const { dir, engine } = await watchedRepo({
      ...generated('v1'),
      '.gitattributes': ['g050', 'g150', 'g250']
        .map((name) => `services/orders/src/gen/${name}.ts filter=slow\n`)
        .join(''),
    });
    // A slow smudge filter on a few files pauses the checkout half way several times (as LFS or a slow disk
    // would), each pause longer than the debounce: only the git hold keeps the checkout to one generation.
    git(dir, 'config', 'filter.slow.smudge', 'sleep 0.5; cat');
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFiles(dir, generated('v2'));
    git(dir, 'commit', '-q', '-am', 'rewrite');
    git(dir, 'checkout', '-q', 'main');
    // The branch work above happened while watching: let it settle before counting.
    await settle(engine);
    expect(engine.fingerprintOf()).toBe(await coldFingerprint(dir));

    const before = generation(engine);
    await gitAsync(dir, 'checkout', '-q', 'feature');
    await waitFor('a generation after the checkout', () => generation(engine) > before, 30_000);
    await settle(engine);
    expect(generation(engine)).toBe(before + 1);
    expect(engine.fingerprintOf()).toBe(await coldFingerprint(dir));
  }, 120_000);

  test('reloads are held while index.lock exists, then run once it is gone', async () => {
    const { dir, engine } = await watchedRepo();
    const lock = path.join(dir, '.git', 'index.lock');
    writeFileSync(lock, '');
    await settle(engine, 1_000);
    const before = generation(engine);
    writeFileSync(path.join(dir, 'docs/runbook.md'), '# Runbook\n\n## Held\n\nWhile git runs.\n');
    await waitFor('the hold to be reported', () => engine.status().hold !== undefined, 20_000);
    expect(engine.status().hold).toContain('index.lock');
    expect(engine.stateNotes()[0]).toContain(`generation ${before}`);
    expect(generation(engine)).toBe(before);
    rmSync(lock);
    await waitFor('the held reload', () => generation(engine) > before, 30_000);
    await settle(engine, 1_000);
    expect(engine.status().hold).toBeUndefined();
    expect(engine.fingerprintOf()).toBe(await coldFingerprint(dir));
  }, 90_000);

  test('a stale index.lock (older than 30 s, no git process) does not hold reloads forever', async () => {
    const { dir, engine } = await watchedRepo();
    const lock = path.join(dir, '.git', 'index.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    await settle(engine, 1_000);
    const before = generation(engine);
    writeFileSync(
      path.join(dir, 'services/inventory/stock.go'),
      'package inventory\n\nfunc Ping() bool { return true }\n',
    );
    // Other git processes of this user may run meanwhile (they keep the hold); the reload comes once none does.
    await waitFor('a reload despite the stale lock', () => generation(engine) > before, 50_000);
    await settle(engine, 1_000);
    expect(engine.fingerprintOf()).toBe(await coldFingerprint(dir));
    rmSync(lock);
  }, 90_000);
});
