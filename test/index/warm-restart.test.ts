import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
});
