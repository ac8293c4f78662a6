import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeEngine, removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(() => removeTemps());

/** Two hundred small TypeScript files under one root. */
function workspace(): string {
  const dir = tempDir();
  const files: Record<string, string> = { 'meshlens.toml': '[workspace]\nroots = ["svc"]\n' };
  for (let i = 0; i < 200; i++)
    files[`svc/f${i}.ts`] = `export function fn${i}(): number {\n  return ${i};\n}\n`;
  writeFiles(dir, files);
  return dir;
}

function declared(engine: ReturnType<typeof makeEngine>['engine'], file: string): string[] | undefined {
  return engine
    .snapshot()
    ?.files.find((f) => f.path === file)
    ?.facts.symbols.map((s) => s.name);
}

describe('the first run of a watched workspace, with the watcher subscribing beside it', () => {
  it('has a file changed while the first index runs in the snapshot once the engine settles', async () => {
    const dir = workspace();
    const { engine } = makeEngine(dir);
    let edited = false;
    try {
      await engine.start({
        watch: true,
        onProgress: (done) => {
          if (edited || done === 0) return;
          edited = true;
          writeFileSync(path.join(dir, 'svc', 'f7.ts'), 'export function changedWhileIndexing(): void {}\n');
        },
      });
      await engine.settled();
      expect(edited).toBe(true);
      expect(declared(engine, 'f7.ts')).toEqual(['changedWhileIndexing']);
    } finally {
      await engine.close();
    }
  });

  it('keeps describing the first run when the look for changes made meanwhile finds none', async () => {
    const dir = workspace();
    const { engine } = makeEngine(dir);
    try {
      const first = await engine.start({ watch: true });
      await engine.settled();
      expect(first).toMatchObject({ generation: 1, parsed: 200, read: 200 });
      expect(engine.status()).toMatchObject({ phase: 'ready', generation: 1, lastRun: first });
    } finally {
      await engine.close();
    }
  });

  it('closed during its first run, it looks for no changes afterwards and opens nothing again', async () => {
    const dir = workspace();
    const setup = makeEngine(dir);
    const first = setup.engine.start({ watch: true });
    await setup.engine.close();
    await first;
    await setup.engine.settled();
    // The cache the first run used is closed, and no later run opened another.
    expect(setup.cache()?.disabled).toBe(true);
  });
});
