import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { removeTemps, tempDir, waitFor, writeFiles } from '../helpers/engine.js';
import { serveOverStdio, type StdioServer } from '../helpers/stdio-server.js';

/**
 * Changes made while `meshlens serve` builds its first index on a cold cache, or just after, must reach the
 * next snapshot: the watcher, subscribing while the first index runs, reloads what changed once the first
 * snapshot is installed, and a look at every file's size and mtime once it is subscribed finds what changed
 * before.
 */

afterAll(removeTemps);

const servers: StdioServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Every file's mtime: a whole second, as a file system with 1 s timestamps would record it. */
const SECOND_MTIME = new Date('2024-03-01T12:00:00Z');

/** Four services of 100 small TypeScript files each: enough that a cold first index takes a while. */
function workspace(): string {
  const dir = tempDir('meshlens-first-index-');
  const files: Record<string, string> = { 'meshlens.toml': '[workspace]\nroots = ["services/*"]\n' };
  for (let s = 0; s < 4; s++) {
    for (let i = 0; i < 100; i++) {
      files[`services/svc${s}/src/f${i}.ts`] =
        `export function fn${s}_${i}(x: number): number {\n  return x + ${i};\n}\n`;
    }
  }
  writeFiles(dir, files);
  for (const rel of Object.keys(files)) utimesSync(path.join(dir, rel), SECOND_MTIME, SECOND_MTIME);
  return dir;
}

async function serve(dir: string): Promise<StdioServer> {
  const server = await serveOverStdio(dir);
  servers.push(server);
  return server;
}

/** Polls `smart_search` until `symbol` is found in `file`; returns the answer. */
async function searchUntilFound(server: StdioServer, symbol: string, file: string): Promise<string> {
  let answer = '';
  await waitFor(
    `${symbol} in ${file}`,
    async () => {
      answer = await server.call('smart_search', { query: symbol });
      return answer.includes(file);
    },
    30_000,
  );
  return answer;
}

describe('changes during and right after the first index (cold cache, built CLI over stdio)', () => {
  test('an edit made right after the first "ready" is in the next snapshot', async () => {
    const dir = workspace();
    const server = await serve(dir);
    // No pause between polls: the edit lands as close after the first snapshot as a client can see it.
    let status = '';
    const deadline = Date.now() + 60_000;
    while (!/Snapshot generation 1, ready/.test(status)) {
      expect(Date.now()).toBeLessThan(deadline);
      status = await server.call('index_status');
    }
    writeFileSync(
      path.join(dir, 'services/svc0/src/f0.ts'),
      'export function editedRightAfterReady(): number {\n  return 1;\n}\n',
    );
    const answer = await searchUntilFound(server, 'editedRightAfterReady', 'services/svc0/src/f0.ts');
    expect(answer).toContain('editedRightAfterReady');
    expect(await server.call('smart_search', { query: 'fn0_0' })).not.toContain('services/svc0/src/f0.ts');
  }, 120_000);

  test('a file edited and a file created while the first index runs are both in the next snapshot', async () => {
    const dir = workspace();
    const server = await serve(dir);
    // "Still indexing: n of 400" means the crawl is over: these changes come after it saw the tree.
    let status = '';
    await waitFor(
      'the first index to be under way',
      async () => {
        status = await server.call('index_status');
        return /Still indexing: \d+ of 400 files|Snapshot generation/.test(status);
      },
      60_000,
    );
    writeFileSync(
      path.join(dir, 'services/svc1/src/f7.ts'),
      'export function editedDuringIndex(): number {\n  return 7;\n}\n',
    );
    writeFileSync(
      path.join(dir, 'services/svc2/src/late.ts'),
      'export function createdDuringIndex(): number {\n  return 8;\n}\n',
    );
    await server.ready();
    await searchUntilFound(server, 'editedDuringIndex', 'services/svc1/src/f7.ts');
    await searchUntilFound(server, 'createdDuringIndex', 'services/svc2/src/late.ts');
    await waitFor(
      'the status to count the created file',
      async () => (await server.call('index_status')).includes('**Files:** 401 indexed'),
      30_000,
    );
  }, 120_000);

  test('an edit that leaves size and mtime as they were (coarse timestamps) is still reloaded', async () => {
    const dir = workspace();
    const server = await serve(dir);
    await server.ready();
    // The watcher is live once an ordinary edit shows up (written again now and then, so that this holds
    // whenever the watcher starts).
    const sentinel = path.join(dir, 'services/svc3/src/f1.ts');
    let written = 0;
    await waitFor(
      'an ordinary edit to show up',
      async () => {
        if (Date.now() - written > 2_000) {
          writeFileSync(sentinel, `export function watcherIsLive(): number {\n  return ${written};\n}\n`);
          written = Date.now();
        }
        return (await server.call('smart_search', { query: 'watcherIsLive' })).includes(
          'services/svc3/src/f1.ts',
        );
      },
      30_000,
    );
    // Same length, and the mtime set back to the whole second the index saw: only the content differs.
    const file = path.join(dir, 'services/svc3/src/f2.ts');
    const before = readFileSync(file, 'utf8');
    const after = before.replace('fn3_2(', 'racy32(');
    expect(after.length).toBe(before.length + 1);
    writeFileSync(file, after.replace('x + 2', 'x+ 2'));
    expect(readFileSync(file).length).toBe(Buffer.byteLength(before));
    utimesSync(file, SECOND_MTIME, SECOND_MTIME);
    await searchUntilFound(server, 'racy32', 'services/svc3/src/f2.ts');
  }, 120_000);
});
