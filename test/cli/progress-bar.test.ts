import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  createProgressBar,
  progressLine,
  PROGRESS_INTERVAL_MS,
  type ProgressStream,
} from '../../src/cli/progress-bar.js';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function fakeStream(isTTY: boolean, columns = 120): ProgressStream & { chunks: string[] } {
  const chunks: string[] = [];
  return { isTTY, columns, chunks, write: (text: string) => chunks.push(text) > 0 };
}

/** A small workspace: enough files for a few progress reports. */
function smallWorkspace(count: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-progress-'));
  temps.push(dir);
  mkdirSync(path.join(dir, 'src'));
  for (let i = 0; i < count; i++)
    writeFileSync(path.join(dir, 'src', `f${i}.ts`), `export const v${i} = ${i};\n`);
  return dir;
}

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('progress bar', () => {
  test('the line: counts with thousands separators, a bar, cut to the terminal width', () => {
    expect(progressLine(1234, 5000)).toBe('indexing [=====>                  ] 1,234/5,000 files');
    expect(progressLine(5000, 5000)).toBe('indexing [========================] 5,000/5,000 files');
    expect(progressLine(0, 0)).toBe('indexing [                        ] 0/0 files');
    expect(progressLine(1234, 5000, 30)).toHaveLength(29);
  });

  test('draws at most once per interval and clears the line at the end', () => {
    const stream = fakeStream(true);
    let clock = 1000;
    const bar = createProgressBar(stream, () => clock);
    expect(bar).toBeDefined();
    bar?.update(1, 100);
    bar?.update(2, 100);
    clock += PROGRESS_INTERVAL_MS - 1;
    bar?.update(3, 100);
    clock += 1;
    bar?.update(4, 100);
    expect(stream.chunks).toHaveLength(2);
    expect(stream.chunks[0]).toBe(`\r${progressLine(1, 100)}\x1b[K`);
    expect(stream.chunks[1]).toContain(' 4/100 files');
    bar?.clear();
    bar?.clear();
    clock += 1000;
    bar?.update(100, 100);
    expect(stream.chunks.slice(2)).toEqual(['\r\x1b[K']);
  });

  test('nothing at all when the stream is not a terminal', () => {
    expect(createProgressBar(fakeStream(false))).toBeUndefined();
  });

  test('the built CLI writes no progress to a non-terminal stderr', () => {
    const dir = smallWorkspace(200);
    const result = runCli(['index', '--workspace', dir]);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('indexing [');
    expect(result.stderr).not.toContain('\r');
  });

  test.runIf(hasScript && process.platform === 'linux')(
    'the built CLI shows and clears the bar on a terminal',
    () => {
      const dir = smallWorkspace(1500);
      // `script` runs the command on a pseudo-terminal, so stderr is a TTY as in an interactive shell.
      const command = [process.execPath, CLI, 'index', '--workspace', dir].map((a) => `'${a}'`).join(' ');
      const result = spawnSync('script', ['-qec', command, '/dev/null'], {
        env: tempEnv(),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status).toBe(0);
      const ESC = '\u001b';
      expect(result.stdout).toMatch(new RegExp(`\\rindexing \\[[ =>]+\\] [\\d,]+/1,500 files${ESC}\\[K`));
      // Cleared before the summary is printed.
      expect(result.stdout).toContain(`\r${ESC}[K# Index status`);
    },
  );
});
