import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/polyglot-shop');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the npm package', () => {
  it('packs with its LICENSE, installs from the tarball alone and answers from the installed bin', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-pack-'));
    const packed = JSON.parse(
      execFileSync(npm, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }),
    ) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]?.files.map((f) => f.path) ?? [];
    expect(files).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/meshlens.js']),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);

    const app = path.join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}\n');
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) ?? '';
    execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball)], {
      cwd: app,
      stdio: 'ignore',
    });
    const bin = path.join(app, 'node_modules', '.bin', 'meshlens');
    const env = {
      ...process.env,
      MESHLENS_CACHE_DIR: path.join(dir, 'cache'),
      MESHLENS_AUDIT_DB: path.join(dir, 'a.db'),
    };
    const run = spawnSync(
      bin,
      ['contracts', 'impact', '--target', 'orders.created', '--workspace', EXAMPLE],
      {
        env,
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('`services/payment/events.go:43`');
  }, 600_000);
});
