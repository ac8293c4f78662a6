import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withStartLock } from '../../src/server/daemon/start-lock.js';

const made: string[] = [];
const lockIn = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-lock-'));
  made.push(dir);
  return path.join(dir, 'lock');
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the daemon start lock', () => {
  it('lets one holder in at a time and removes the lock after', async () => {
    const lock = lockIn();
    const events: string[] = [];
    const hold = (name: string) =>
      withStartLock(lock, async () => {
        events.push(`${name} in`);
        await sleep(100);
        events.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b')]);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose holder is gone', async () => {
    const lock = lockIn();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    writeFileSync(lock, gone);
    expect(await withStartLock(lock, async () => 'ran')).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('gives up on a lock a live process holds, naming the file', async () => {
    const lock = lockIn();
    writeFileSync(lock, String(process.ppid));
    await expect(withStartLock(lock, async () => 'ran', 200)).rejects.toThrow(
      `another meshlens daemon has been starting for 0.2 s (lock file ${lock}); if no meshlens process is running, remove that file.`,
    );
    expect(existsSync(lock)).toBe(true);
  });
});
