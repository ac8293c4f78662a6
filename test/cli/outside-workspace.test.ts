import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Layout {
  readonly base: string;
  readonly ws: string;
}

/**
 * A cloned repository whose meshlens.toml reaches out of it four ways: a `..` root, an absolute root, a root
 * that is a symlink out of the checkout, and a skill file elsewhere on the machine.
 */
function hostileCheckout(): Layout {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-outside-')));
  temps.push(base);
  const ws = path.join(base, 'ws');
  mkdirSync(path.join(ws, 'svc'), { recursive: true });
  writeFileSync(path.join(ws, 'svc', 'inside.ts'), 'export class InsideThing {}\n');
  for (const dir of ['outside', 'elsewhere']) mkdirSync(path.join(base, dir));
  writeFileSync(path.join(base, 'outside', 'secret.ts'), 'export class OutsideSecret {}\n');
  writeFileSync(path.join(base, 'elsewhere', 'other.ts'), 'export class ElsewhereThing {}\n');
  writeFileSync(path.join(base, 'outside', 'skill.md'), '# Skill kept outside the checkout\n');
  symlinkSync(path.join(base, 'outside'), path.join(ws, 'linkout'));
  writeFileSync(
    path.join(ws, 'meshlens.toml'),
    [
      '[workspace]',
      `roots = ["svc", "../outside", "${path.join(base, 'elsewhere')}", "linkout"]`,
      '[policy.skills]',
      `smart_search = "${path.join(base, 'outside', 'skill.md')}"`,
      '',
    ].join('\n'),
  );
  return { base, ws };
}

function refusal({ base, ws }: Layout): string {
  return [
    `meshlens: ${path.join(ws, 'meshlens.toml')} points outside the workspace folder ${ws}:`,
    `  - [workspace] roots \`../outside\` leads to ${base}/outside`,
    `  - [workspace] roots \`${base}/elsewhere\` leads to ${base}/elsewhere`,
    `  - [workspace] roots \`linkout\` leads to ${base}/outside`,
    `  - [policy.skills] smart_search \`${base}/outside/skill.md\` leads to ${base}/outside/skill.md`,
    'A meshlens.toml that comes with a repository could otherwise make meshlens read and serve any folder on ' +
      'this machine, so these are refused. Move them inside the workspace (or set WORKSPACE_ROOT to the folder ' +
      'that holds them), or, if you trust this file, pass --allow-outside-workspace (for an MCP client: ' +
      '`meshlens serve --allow-outside-workspace`).',
    '',
  ].join('\n');
}

describe('a meshlens.toml that points outside the workspace', () => {
  it('is refused by index and by every operation, with the reason and the fix; nothing outside is read', () => {
    const layout = hostileCheckout();
    const env = tempEnv();
    const indexed = runCli(['--workspace', layout.ws, 'index'], { env });
    expect(indexed).toEqual({ status: 2, stdout: '', stderr: refusal(layout) });
    const searched = runCli(['--workspace', layout.ws, 'code', 'search', '--query', 'OutsideSecret'], {
      env,
    });
    expect(searched).toEqual({ status: 2, stdout: '', stderr: refusal(layout) });
  });

  it('is used as written with --allow-outside-workspace, before or after the command', () => {
    const layout = hostileCheckout();
    const env = tempEnv();
    const before = runCli(
      ['--allow-outside-workspace', '--workspace', layout.ws, 'code', 'search', '--query', 'OutsideSecret'],
      { env },
    );
    expect(before.status).toBe(0);
    expect(before.stdout).toContain('### [1] `secret.ts` (L1-L2)\nclass `OutsideSecret` L1');
    expect(before.stdout).toContain('Project skill for this area: `../outside/skill.md`');
    const after = runCli(['--workspace', layout.ws, 'index', '--allow-outside-workspace', '--json'], { env });
    expect(after.status).toBe(0);
    const roots = (JSON.parse(after.stdout) as { roots: { path: string }[] }).roots.map((r) => r.path);
    expect(roots.sort()).toEqual(
      [`${layout.base}/elsewhere`, `${layout.base}/outside`, `${layout.ws}/svc`].sort(),
    );
  });

  it('stops `serve` before it answers anything, and `serve --allow-outside-workspace` serves it', async () => {
    const layout = hostileCheckout();
    const env = tempEnv();
    const refused = spawnSync(process.execPath, [CLI, '--workspace', layout.ws, 'serve'], {
      env,
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: refused.status, stdout: refused.stdout, stderr: refused.stderr }).toEqual({
      status: 2,
      stdout: '',
      stderr: refusal(layout),
    });

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--workspace', layout.ws, 'serve', '--allow-outside-workspace', '--no-watch'],
      env,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'outside-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      let text = '';
      for (let attempt = 0; attempt < 200; attempt++) {
        const result = await client.callTool({
          name: 'code',
          arguments: { mode: 'search', query: 'OutsideSecret' },
        });
        text = (result.content as { text: string }[])[0]?.text ?? '';
        if (!text.startsWith('Still indexing')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(text).toContain('### [1] `secret.ts` (L1-L2)\nclass `OutsideSecret` L1');
    } finally {
      await client.close();
    }
  });

  it('doctor names each one: an error without the flag (and checks the rest), a warning with it', () => {
    const layout = hostileCheckout();
    const { base, ws } = layout;
    const env = tempEnv();
    const lines = (stdout: string, prefix: string) => stdout.split('\n').filter((l) => l.startsWith(prefix));
    const outside = [
      ['[workspace] roots `../outside`', `${base}/outside`],
      [`[workspace] roots \`${base}/elsewhere\``, `${base}/elsewhere`],
      ['[workspace] roots `linkout`', `${base}/outside`],
      [`[policy.skills] smart_search \`${base}/outside/skill.md\``, `${base}/outside/skill.md`],
    ];

    const refused = runCli(['--workspace', ws, 'doctor'], { env });
    expect(refused.status).toBe(1);
    expect(lines(refused.stdout, '[error] workspace boundary:')).toEqual(
      outside.map(
        ([setting, to]) =>
          `[error] workspace boundary: ${setting} leads to ${to}, outside the workspace folder ${ws}; refused ` +
          '(left out of these checks): move it inside the workspace, or pass --allow-outside-workspace if you ' +
          'trust this config',
      ),
    );
    expect(lines(refused.stdout, '[ok] roots:')).toEqual(['[ok] roots: 1 root(s): svc']);
    expect(lines(refused.stdout, '[ok] index health:')).toEqual([
      '[ok] index health: 1 file(s) indexed in 1 root(s); none rejected',
    ]);

    const allowed = runCli(['--workspace', ws, 'doctor', '--allow-outside-workspace'], { env });
    expect(allowed.status).toBe(0);
    expect(lines(allowed.stdout, '[warn] workspace boundary:')).toEqual(
      outside.map(
        ([setting, to]) =>
          `[warn] workspace boundary: ${setting} leads to ${to}, outside the workspace folder ${ws}; in use ` +
          'because --allow-outside-workspace was given',
      ),
    );
    expect(lines(allowed.stdout, '[ok] index health:')).toEqual([
      '[ok] index health: 4 file(s) indexed in 3 root(s) (1 without a grammar); none rejected',
    ]);
  });

  it('a workspace that stays inside its folders passes: doctor says so', () => {
    const layout = hostileCheckout();
    writeFileSync(path.join(layout.ws, 'meshlens.toml'), '[workspace]\nroots = ["svc"]\n');
    const result = runCli(['--workspace', layout.ws, 'doctor'], { env: tempEnv() });
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')).toContain(
      `[ok] workspace boundary: every root and skill file is inside the workspace folder ${layout.ws}`,
    );
  });
});
