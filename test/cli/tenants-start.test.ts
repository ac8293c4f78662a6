/**
 * `serve --http` with `[server.tenants]` refuses to start (exit 2, saying why) whenever two tenants would share
 * data or a tenant could not be served as configured: the built CLI, real folders, real keys.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(() => removeTemps());

const tenantsTable = (tenants: Record<string, string>): string =>
  Object.entries(tenants)
    .map(([name, workspace]) => `[server.tenants.${name}]\nworkspace = ${JSON.stringify(workspace)}\n`)
    .join('\n');

/** A server config beside the given folders, and what `serve --http` says about it (keys exist). */
function serveWith(
  tenants: Record<string, string>,
  folders: readonly string[],
  files: Record<string, string> = {},
  workspaceRootEnv = false,
) {
  const root = tempDir('meshlens-tenant-start-');
  for (const folder of folders) mkdirSync(path.join(root, folder), { recursive: true });
  writeFiles(root, { 'server/meshlens.toml': tenantsTable(tenants), ...files });
  const env = tempEnv(workspaceRootEnv ? { WORKSPACE_ROOT: root } : {});
  expect(runCli(['keys', 'create', '--tenant', 'acme', '--role', 'member'], { env }).status).toBe(0);
  const config = path.join(root, 'server/meshlens.toml');
  const result = runCli(['--config', config, 'serve', '--http', '--listen', '127.0.0.1:0'], { env });
  return {
    ...result,
    root: realpathSync(root),
    config: path.join(realpathSync(root), 'server/meshlens.toml'),
  };
}

describe('serve --http with [server.tenants]: refused at start', () => {
  it('two tenants on one folder: they would share its index, cache and notes', () => {
    const run = serveWith({ acme: '../shared', globex: '../shared/' }, ['shared']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `meshlens: Invalid [server.tenants] in ${run.config}:\n` +
        `  - \`acme\` and \`globex\` both name ${run.root}/shared: they would share its index, cache and notes; give each tenant its own folder\n`,
    );
  });

  it("one tenant's folder inside another's: the outer one would read the inner one's files", () => {
    const run = serveWith({ acme: '../outer/inner', globex: '../outer' }, ['outer/inner']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `meshlens: Invalid [server.tenants] in ${run.config}:\n` +
        `  - \`globex\`'s workspace ${run.root}/outer holds \`acme\`'s (${run.root}/outer/inner): globex would read acme's files; give each tenant a folder of its own, side by side\n`,
    );
  });

  it('names that differ only in case, a folder that is not there, a name that is not one', () => {
    const cased = serveWith({ Acme: '../a', acme: '../b' }, ['a', 'b']);
    expect([cased.status, cased.stderr]).toEqual([
      2,
      `meshlens: Invalid [server.tenants] in ${cased.config}:\n` +
        '  - `Acme` and `acme` differ only in case, and their audit chains would be one file where case is ignored: rename one\n',
    ]);
    const missing = serveWith({ acme: '../nowhere' }, []);
    expect([missing.status, missing.stderr]).toEqual([
      2,
      `meshlens: [server.tenants.acme] workspace "../nowhere" is not a folder (looked at ${missing.root}/nowhere, relative to ${missing.config}): create it or fix the path.\n`,
    ]);
    const badName = serveWith({ '"-acme"': '../a' }, ['a']);
    expect([badName.status, badName.stderr]).toEqual([
      2,
      `meshlens: Invalid config ${badName.config}:\n` +
        '  - [server.tenants.-acme]: a tenant name must use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit\n',
    ]);
  });

  it("a tenant's own meshlens.toml that leads outside its folder, even with $WORKSPACE_ROOT set for the server", () => {
    const run = serveWith(
      { acme: '../acme' },
      ['acme', 'elsewhere'],
      {
        'acme/meshlens.toml': '[workspace]\nroots = ["../elsewhere"]\n',
      },
      true,
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `meshlens: tenant \`acme\`: ${run.root}/acme/meshlens.toml points outside the tenant's workspace folder ${run.root}/acme:\n` +
        `  - [workspace] roots \`../elsewhere\` leads to ${run.root}/elsewhere\n` +
        "A tenant's config may only name folders and files inside its own workspace, or its keys could read what is not theirs: " +
        'move them inside. $WORKSPACE_ROOT and --allow-outside-workspace do not apply to tenants.\n',
    );
  });

  it('without any API key: no request could name a tenant', () => {
    const root = tempDir('meshlens-tenant-start-');
    mkdirSync(path.join(root, 'acme'));
    writeFiles(root, { 'server/meshlens.toml': tenantsTable({ acme: '../acme' }) });
    const result = runCli(
      ['--config', path.join(root, 'server/meshlens.toml'), 'serve', '--http', '--listen', '127.0.0.1:0'],
      { env: tempEnv() },
    );
    expect([result.status, result.stderr]).toEqual([
      2,
      'meshlens: refusing to serve [server.tenants] without API keys: a request without a key has no tenant. ' +
        'Create a key for each tenant (meshlens keys create --tenant NAME --role ROLE), then start the server again.\n',
    ]);
  });
});
