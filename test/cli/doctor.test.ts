import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/store/cache-paths.js';
import { cacheDirFor } from '../../src/store/fact-cache-folder.js';
import { runCli, tempEnv } from '../helpers/cli.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'error';
  message: string;
  fixed?: boolean;
}

function workspace(toml: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-doctor-')));
  mkdirSync(path.join(dir, 'services', 'orders', 'src'), { recursive: true });
  writeFileSync(
    path.join(dir, 'services', 'orders', 'src', 'order.ts'),
    'export class Order {\n  id = 1;\n}\n',
  );
  writeFileSync(path.join(dir, 'meshlens.toml'), toml);
  return dir;
}

const ROOTS_TOML = '[workspace]\nroots = ["services/*", "packages/*"]\n';
const lastLine = (stdout: string): string => stdout.trimEnd().split('\n').pop() ?? '';
const lineOf = (stdout: string, prefix: string): string | undefined =>
  stdout.split('\n').find((l) => l.startsWith(prefix));

function doctor(ws: string, env: Record<string, string>, ...args: string[]) {
  return runCli(['--workspace', ws, 'doctor', ...args], { env });
}

function summaryOf(stdout: string): { errors: number; warnings: number } {
  const match = /^doctor: (\d+) error\(s\), (\d+) warning\(s\)$/.exec(lastLine(stdout));
  if (!match) throw new Error(`no summary line in:\n${stdout}`);
  return { errors: Number(match[1]), warnings: Number(match[2]) };
}

describe('meshlens doctor', () => {
  it('prints one line per check and the counts last; a root glob matching nothing is a warning', () => {
    const ws = workspace(ROOTS_TOML);
    const result = doctor(ws, tempEnv());
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^\[(ok|warn|error)\] [a-z ]+: \S/);
    expect(lineOf(result.stdout, '[ok] config:')).toBe(
      `[ok] config: found ${path.join(ws, 'meshlens.toml')}`,
    );
    expect(lines).toContain('[warn] dead config: root `packages/*` matches no folder');
    expect(lineOf(result.stdout, '[ok] roots:')).toBe('[ok] roots: 1 root(s): services/orders');
    expect(lineOf(result.stdout, '[ok] grammars:')).toMatch(
      /^\[ok\] grammars: all \d+ tree-sitter grammars load$/,
    );
    expect(lineOf(result.stdout, '[ok] index health:')).toBe(
      '[ok] index health: 1 file(s) indexed in 1 root(s); none rejected',
    );
    expect(lineOf(result.stdout, '[ok] cache:')).toMatch(/^\[ok\] cache: no cache yet /);
    const counts = summaryOf(result.stdout);
    expect(counts.errors).toBe(0);
    expect(counts.warnings).toBe(lines.filter((l) => l.startsWith('[warn]')).length);
  });

  it("reports a corrupt cache as an error, repairs it with --fix, and never touches another project's cache", () => {
    const ws = workspace(ROOTS_TOML);
    const env = tempEnv();
    expect(doctor(ws, env).status).toBe(0);
    const own = cacheDirFor(ws, env);
    const db = path.join(own, 'facts.db');
    expect(existsSync(db)).toBe(true);
    for (const suffix of ['-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    const garbage = Buffer.from('this is not a SQLite database, just damaged bytes\n'.repeat(200));
    writeFileSync(db, garbage);

    const workspaces = path.join(cacheRoot(env), 'workspaces');
    // Another project's cache, itself damaged: doctor must leave every byte of it alone.
    const foreign = path.join(workspaces, '0123456789abcdef');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(path.join(foreign, 'workspace_path'), '/some/other/project');
    writeFileSync(path.join(foreign, 'facts.db'), garbage);
    // A stale folder of this very workspace (same marker, other id): --fix removes it.
    const stale = path.join(workspaces, 'feedfacefeedface');
    mkdirSync(stale, { recursive: true });
    writeFileSync(path.join(stale, 'workspace_path'), ws);

    const broken = doctor(ws, env);
    expect(broken.status).toBe(1);
    expect(lineOf(broken.stdout, '[error] cache:')).toBe(
      `[error] cache: ${db} is corrupt (file is not a database); \`meshlens doctor --fix\` removes it and re-indexes`,
    );
    expect(lineOf(broken.stdout, '[warn] orphaned caches:')).toBe(
      `[warn] orphaned caches: 1 stale cache folder(s) of this workspace in ${workspaces}: feedfacefeedface; \`meshlens doctor --fix\` removes them`,
    );
    expect(lineOf(broken.stdout, '[ok] index health:')).toBe(
      '[ok] index health: 1 file(s) indexed in 1 root(s); none rejected (indexed without the damaged cache)',
    );
    expect(summaryOf(broken.stdout).errors).toBe(1);
    // Without --fix nothing was repaired, not even by the index run.
    expect(readFileSync(db).equals(garbage)).toBe(true);
    expect(existsSync(stale)).toBe(true);

    const fixed = doctor(ws, env, '--fix');
    expect(fixed.status).toBe(0);
    expect(lineOf(fixed.stdout, '[ok] cache:')).toBe(
      `[ok] cache: was corrupt (file is not a database); removed ${own} and re-indexed (fixed)`,
    );
    expect(lineOf(fixed.stdout, '[ok] orphaned caches:')).toBe(
      '[ok] orphaned caches: removed 1 stale cache folder(s) of this workspace: feedfacefeedface (fixed)',
    );
    expect(summaryOf(fixed.stdout).errors).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(readFileSync(path.join(foreign, 'workspace_path'), 'utf8')).toBe('/some/other/project');
    expect(readFileSync(path.join(foreign, 'facts.db')).equals(garbage)).toBe(true);

    const after = doctor(ws, env);
    expect(after.status).toBe(0);
    expect(lineOf(after.stdout, '[ok] cache:')).toBe(`[ok] cache: 1 cached file(s) in ${db}`);
    expect(lineOf(after.stdout, '[ok] orphaned caches:')).toBe(
      '[ok] orphaned caches: no stale cache folder of this workspace',
    );
  });

  it('--json prints every check and a summary', () => {
    const ws = workspace(
      `${ROOTS_TOML}\n[docs]\npaths = ["handbook"]\n\n[contracts]\nproto_dirs = ["proto"]\n\n` +
        '[policy.stop_rules]\nk8s = "ask platform"\norders = "ask the orders team"\n\n' +
        '[policy.skills]\nbilling = "skills/billing.md"\nORDER = "skills/orders.md"\n',
    );
    mkdirSync(path.join(ws, 'skills'));
    writeFileSync(path.join(ws, 'skills', 'orders.md'), '# Orders\n');
    const result = doctor(ws, tempEnv(), '--json');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as {
      checks: Check[];
      summary: { errors: number; warnings: number; fixed: number };
    };
    expect(Object.keys(report).sort()).toEqual(['checks', 'summary']);
    for (const entry of report.checks) {
      expect(Object.keys(entry).sort()).toEqual(['message', 'name', 'status']);
      expect(['ok', 'warn', 'error']).toContain(entry.status);
    }
    const names = new Set(report.checks.map((c) => c.name));
    for (const name of [
      'config',
      'dead config',
      'skills',
      'roots',
      'root overlap',
      'duplicated submodule',
      'grammars',
      'git',
      'cache',
      'orphaned caches',
      'index health',
      'audit log',
    ]) {
      expect(names).toContain(name);
    }
    expect(report.checks).toContainEqual({
      name: 'dead config',
      status: 'warn',
      message: '[policy.stop_rules] `k8s` matches no indexed path — likely dead config',
    });
    expect(report.checks).toContainEqual({
      name: 'skills',
      status: 'warn',
      message: '`billing`: skill file `skills/billing.md` not found; no hint is shown for it',
    });
    const dead = report.checks
      .filter((c) => c.name === 'dead config' || c.name === 'skills')
      .map((c) => c.message);
    expect(dead).toEqual([
      'root `packages/*` matches no folder',
      '[docs] paths `handbook` matched 0 indexed Markdown files — likely dead config',
      '[contracts] proto_dirs `proto` matched 0 indexed .proto files — likely dead config',
      '[policy.stop_rules] `k8s` matches no indexed path — likely dead config',
      '[policy.skills] `billing` matches no operation name and no indexed path — likely dead config',
      '`billing`: skill file `skills/billing.md` not found; no hint is shown for it',
    ]);
    expect(report.summary).toEqual({
      errors: 0,
      warnings: report.checks.filter((c) => c.status === 'warn').length,
      fixed: 0,
    });
  });

  it('reports nested roots and the same remote checked out under several roots', () => {
    const ws = workspace('[workspace]\nroots = ["services", "services/orders", "libs/*"]\n');
    for (const lib of ['a', 'b']) {
      mkdirSync(path.join(ws, 'libs', lib, 'ci-tools'), { recursive: true });
      writeFileSync(path.join(ws, 'libs', lib, 'ci-tools', 'run.sh'), 'echo\n');
      writeFileSync(
        path.join(ws, 'libs', lib, '.gitmodules'),
        `[submodule "ci-tools"]\n\tpath = ci-tools\n\turl = ${lib === 'a' ? 'git@github.com:acme/ci-tools.git' : 'https://github.com/acme/ci-tools'}\n`,
      );
    }
    const result = doctor(ws, tempEnv());
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(
      '[warn] root overlap: `services/orders` is nested in `services`: its files belong to `services/orders` (the most specific root) and are left out of `services`',
    );
    expect(lines).toContain(
      '[warn] duplicated submodule: github.com/acme/ci-tools is checked out 2 times (libs/a/ci-tools, libs/b/ci-tools); every copy is indexed — exclude all but one with [workspace] exclude',
    );
  });

  it('reports a config error as an error check and exits 1', () => {
    const ws = workspace('[workspace]\nrots = ["."]\n');
    const result = doctor(ws, tempEnv());
    expect(result.status).toBe(1);
    expect(lineOf(result.stdout, '[error] config:')).toContain(
      'unknown key `rots` in [workspace] — did you mean `roots`?',
    );
    expect(summaryOf(result.stdout).errors).toBe(1);
  });
});
