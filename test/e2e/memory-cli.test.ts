import {
  existsSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-memory-cli-')));
  made.push(dir);
  mkdirSync(path.join(dir, 'app'));
  writeFileSync(path.join(dir, 'meshlens.toml'), '[workspace]\nroots = ["app"]\n');
  writeFileSync(path.join(dir, 'app/a.ts'), 'export const a = 1;\n');
  return dir;
}

describe('memory over the built CLI', () => {
  it('a note put by one process is read by the next, and neither indexes the workspace', () => {
    const dir = workspace();
    const env = tempEnv();
    made.push(env.MESHLENS_CACHE_DIR as string);
    const put = runCli(
      ['memory', 'put', '--key', 'deploy/x', '--value', 'drain first', '--tags', 'ops', '--json'],
      {
        cwd: dir,
        env,
      },
    );
    expect(put.stderr).toBe('');
    expect(put.status).toBe(0);
    const written = JSON.parse(put.stdout) as { created: boolean; note: Record<string, unknown> };
    expect(written.created).toBe(true);

    const get = runCli(['memory', 'get', '--key', 'deploy/x', '--json'], { cwd: dir, env });
    expect(get.status).toBe(0);
    const read = JSON.parse(get.stdout) as { note: Record<string, unknown> };
    expect(read.note).toEqual(written.note);
    expect(read.note).toMatchObject({
      key: 'deploy/x',
      value: 'drain first',
      tags: ['ops'],
      author: 'unknown',
      pin: null,
    });

    // Plain notes need no index: no fact cache was created, and the notes file is under the data folder.
    expect(existsSync(path.join(env.MESHLENS_CACHE_DIR as string, 'workspaces'))).toBe(false);
    expect(
      readdirSync(path.join(env.MESHLENS_DATA_DIR as string, 'notes')).filter((f) => f.endsWith('.db')),
    ).toHaveLength(1);

    const missing = runCli(['memory', 'get', '--key', 'deploy/y'], { cwd: dir, env });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe(
      'No note under `deploy/y`. Closest keys: `deploy/x`. memory list shows them all, memory search finds notes by their words.',
    );
  });

  it('a data folder it cannot use is a tool failure saying how to fix it', () => {
    const dir = workspace();
    const env = tempEnv();
    made.push(env.MESHLENS_CACHE_DIR as string);
    const blocker = path.join(env.MESHLENS_CACHE_DIR as string, 'a-file');
    writeFileSync(blocker, '');
    const put = runCli(['memory', 'put', '--key', 'k', '--value', 'v'], {
      cwd: dir,
      env: { ...env, MESHLENS_DATA_DIR: blocker },
    });
    expect(put.status).toBe(1);
    expect(put.stderr).toMatch(
      /^Cannot open the notes file .*\.db: ENOTDIR: not a directory, mkdir '.*'\. Set MESHLENS_DATA_DIR to a folder meshlens may write, then retry\.\n$/,
    );
  });
});
