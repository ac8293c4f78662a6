import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { git, removeTemps, tempDir, waitFor, writeFiles } from '../helpers/engine.js';
import { serveOverStdio, type StdioServer } from '../helpers/stdio-server.js';

/**
 * `roots = ["services/*"]`: a folder that starts or stops matching the pattern while `meshlens serve` runs
 * (made by hand, by `git checkout`, or found by `admin rescan`) becomes a root or stops being one.
 */

afterAll(removeTemps);

const servers: StdioServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function workspace(): string {
  const dir = tempDir('meshlens-root-pattern-');
  const files: Record<string, string> = { 'meshlens.toml': '[workspace]\nroots = ["services/*"]\n' };
  for (const service of ['orders', 'billing']) {
    for (let i = 0; i < 3; i++) {
      files[`services/${service}/src/f${i}.ts`] =
        `export function ${service}Step${i}(x: number): number {\n  return x + ${i};\n}\n`;
    }
  }
  writeFiles(dir, files);
  return dir;
}

const BRAND_NEW = {
  'services/brandnew/src/app.ts': 'export function brandNewHandler(): string {\n  return "new";\n}\n',
};

async function serve(dir: string, args: readonly string[] = []): Promise<StdioServer> {
  const server = await serveOverStdio(dir, args);
  servers.push(server);
  await server.ready();
  return server;
}

const rootRow = (name: string) => `| ${name} | \``;

async function waitForStatus(server: StdioServer, what: string, holds: (status: string) => boolean) {
  await waitFor(what, async () => holds(await server.call('index_status')), 30_000);
}

/** The new folder is a root: listed, its files found, and a path argument inside it accepted. */
async function expectBrandNewRoot(server: StdioServer): Promise<void> {
  expect(await server.call('index_status')).toContain(rootRow('services/brandnew'));
  expect(await server.call('smart_search', { query: 'brandNewHandler' })).toContain(
    'services/brandnew/src/app.ts',
  );
  expect(await server.call('smart_search', { query: 'Handler', scope: 'services/brandnew' })).toContain(
    'services/brandnew/src/app.ts',
  );
}

describe('folders matching a root pattern (built CLI over stdio)', () => {
  test('a folder created while serving becomes a root; a root folder removed drops out', async () => {
    const dir = workspace();
    const server = await serve(dir);
    expect(await server.call('index_status')).not.toContain(rootRow('services/brandnew'));

    writeFiles(dir, BRAND_NEW);
    await waitForStatus(server, 'services/brandnew to become a root', (status) =>
      status.includes(rootRow('services/brandnew')),
    );
    await waitFor(
      'brandNewHandler to be indexed',
      async () =>
        (await server.call('smart_search', { query: 'brandNewHandler' })).includes(
          'services/brandnew/src/app.ts',
        ),
      30_000,
    );
    await expectBrandNewRoot(server);

    rmSync(path.join(dir, 'services/billing'), { recursive: true });
    await waitForStatus(
      server,
      'services/billing to drop out',
      (status) => !status.includes(rootRow('services/billing')),
    );
    await waitFor(
      'billing files to leave the index',
      async () =>
        !(await server.call('smart_search', { query: 'billingStep' })).includes('services/billing/'),
      30_000,
    );
    const status = await server.call('index_status');
    expect(status).toContain(rootRow('services/orders'));
    expect(status).toContain('**Files:** 4 indexed');
  }, 120_000);

  test('admin rescan picks up a new matching folder and drops a removed one (no watcher)', async () => {
    const dir = workspace();
    const server = await serve(dir, ['--no-watch']);
    writeFiles(dir, BRAND_NEW);
    rmSync(path.join(dir, 'services/billing'), { recursive: true });

    const answer = await server.call('rescan');
    expect(answer).toContain('Re-indexed the whole workspace: snapshot generation 2 installed');
    expect(answer).toContain('4 files seen');
    const status = await server.call('index_status');
    expect(status).not.toContain(rootRow('services/billing'));
    expect(status).toContain(rootRow('services/orders'));
    await expectBrandNewRoot(server);
  }, 120_000);

  test('a folder arriving by git checkout becomes a root, and leaves with the checkout back', async () => {
    const dir = workspace();
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFiles(dir, BRAND_NEW);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'a new service');
    git(dir, 'checkout', '-q', 'main');
    const server = await serve(dir);
    expect(await server.call('index_status')).not.toContain(rootRow('services/brandnew'));

    git(dir, 'checkout', '-q', 'feature');
    await waitFor(
      'brandNewHandler to be indexed after the checkout',
      async () =>
        (await server.call('smart_search', { query: 'brandNewHandler' })).includes(
          'services/brandnew/src/app.ts',
        ),
      30_000,
    );
    await expectBrandNewRoot(server);

    git(dir, 'checkout', '-q', 'main');
    await waitForStatus(
      server,
      'services/brandnew to drop out',
      (status) => !status.includes(rootRow('services/brandnew')),
    );
  }, 120_000);
});
