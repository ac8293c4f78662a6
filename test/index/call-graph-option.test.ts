/**
 * `[code] call_graph = false` leaves call sites out of the index: the same workspace with and without it
 * differs only in call sites, and the call graph of the one without has none.
 */
import { afterAll, expect, test } from 'vitest';
import type { SnapshotReader } from '../../src/index/reader.js';
import { makeEngine, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(removeTemps);

const SOURCE = {
  'svc/orders.ts': [
    "import { save } from './repo';",
    'export function place(id: string) {',
    '  return save(id);',
    '}',
  ].join('\n'),
  'svc/repo.ts': 'export function save(id: string) {\n  return id;\n}\n',
};

async function callSites(config: string): Promise<{ sites: number; exact: number }> {
  const dir = tempDir('meshlens-calls-option-');
  writeFiles(dir, { ...SOURCE, 'meshlens.toml': config });
  const { engine } = makeEngine(dir, { cacheDir: null });
  try {
    await engine.start({ watch: false });
    const snapshot = engine.snapshot() as SnapshotReader;
    const { sites, exact } = snapshot.callGraph().stats;
    return { sites, exact };
  } finally {
    await engine.close();
  }
}

test('call sites are indexed by default and left out when [code] call_graph = false', async () => {
  expect(await callSites('[workspace]\nroots = ["svc"]\n')).toEqual({ sites: 1, exact: 1 });
  expect(await callSites('[workspace]\nroots = ["svc"]\n[code]\ncall_graph = false\n')).toEqual({
    sites: 0,
    exact: 0,
  });
});
