import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { makeEngine, polyglotFiles, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(removeTemps);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PHASES = [
  'cacheLookupMs',
  'cacheWriteMs',
  'cpuMs',
  'crawlMs',
  'extractMs',
  'fileStatesMs',
  'grammarMs',
  'handoffMs',
  'installMs',
  'mainGcMs',
  'parseBusyMs',
  'parseWallMs',
  'readMs',
  'recordMs',
  'treeSitterMs',
];

test('a run reports where its time went: parsing on a cold cache, none of it on a warm one', async () => {
  const dir = tempDir();
  writeFiles(dir, polyglotFiles());
  const cold = makeEngine(dir, { threads: 0 });
  const first = await cold.engine.indexAll();
  await cold.engine.close();
  const phases = first.phases;
  expect(Object.keys(phases ?? {}).sort()).toEqual(PHASES);
  expect(first.parsed).toBeGreaterThan(0);
  expect(phases?.treeSitterMs).toBeGreaterThan(0);
  expect(phases?.extractMs).toBeGreaterThan(0);
  // In-process parsing hands nothing over between threads.
  expect(phases?.handoffMs).toBe(0);
  expect(phases?.parseBusyMs).toBeGreaterThanOrEqual((phases?.treeSitterMs ?? 0) - 1);
  expect(phases?.parseWallMs).toBeGreaterThanOrEqual((phases?.parseBusyMs ?? 0) - 1);
  expect(phases?.cpuMs).toBeGreaterThan(0);

  const warm = makeEngine(dir, { threads: 0, cacheDir: cold.cacheDir });
  const second = await warm.engine.indexAll();
  await warm.engine.close();
  expect(second.parsed).toBe(0);
  expect(second.phases?.treeSitterMs).toBe(0);
  expect(second.phases?.extractMs).toBe(0);
  expect(second.phases?.parseBusyMs).toBe(0);
  expect(warm.engine.status().lastRun?.phases).toEqual(second.phases);
}, 60_000);

test('with parse workers, their grammar, parse and extraction times come back with the results', async () => {
  expect(existsSync(path.join(root, 'dist', 'parse-worker.js')), 'run `npm run build` first').toBe(true);
  const dir = tempDir();
  writeFiles(dir, polyglotFiles());
  const { engine } = makeEngine(dir, { threads: 2, cacheDir: null });
  try {
    const summary = await engine.indexAll();
    const phases = summary.phases;
    expect(summary.parsed).toBeGreaterThan(0);
    expect(phases?.grammarMs).toBeGreaterThan(0);
    expect(phases?.treeSitterMs).toBeGreaterThan(0);
    expect(phases?.extractMs).toBeGreaterThan(0);
    expect(phases?.parseBusyMs).toBeGreaterThanOrEqual(
      (phases?.treeSitterMs ?? 0) + (phases?.extractMs ?? 0) - 2,
    );
  } finally {
    await engine.close();
  }
}, 60_000);
