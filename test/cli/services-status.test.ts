/**
 * The service model through the real interfaces (the built CLI): `admin status` lists services with their
 * names and where each was learnt, and the source folders no root covers; a zero from `code search` is
 * authoritative only when there are none; `graph --format json` carries `services` and `uncovered`.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';

const FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/services/libs-and-services',
);
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The fixture copied to a temp folder with the given roots. */
function workspace(roots: readonly string[]): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-services-')));
  temps.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(path.join(dir, 'meshlens.toml'), `[workspace]\nroots = ${JSON.stringify(roots)}\n`);
  return dir;
}

const UNCOVERED = ['libs/go', 'libs/java/src/main/java/shop', 'libs/rust/src', 'libs/ts', 'proto'];

describe('services in admin status, code search and graph JSON', () => {
  const env = tempEnv();

  test('with only services/* as roots: the services table, and the five folders of code left out', () => {
    const dir = workspace(['services/*']);
    const status = runCli(['admin', 'status', '--workspace', dir], { env });
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('**Services** (from manifests, Dockerfiles and deploy files): 9');
    expect(status.stdout).toContain(
      '| billing | service | `services/billing` | services/billing | billing-host (compose hostname, `docker-compose.yml:13`); payments (compose links alias, `docker-compose.yml:9`) |',
    );
    expect(status.stdout).toContain(
      '| shop-core | library | `libs/rust` | — | rust (folder name, `libs/rust`) |',
    );
    expect(status.stdout).toContain('**Not covered:** 5 folder(s) with source code that no root covers');
    for (const folder of UNCOVERED) expect(status.stdout).toContain(`- \`${folder}\`\n`);

    const search = runCli(['code', 'search', '--query', 'Money', '--workspace', dir], { env });
    expect(search.stdout).toContain('Exactly 0 declarations whose name contains `Money`');
    expect(search.stdout).toContain(
      'Not authoritative for the whole workspace: 5 folder(s) with source code are outside every root',
    );
    expect(search.stdout).not.toContain('This is authoritative');

    const graph = JSON.parse(runCli(['graph', '--format', 'json', '--workspace', dir], { env }).stdout) as {
      services: { name: string; folder: string; root: string | null }[];
      uncovered: string[];
    };
    expect(graph.uncovered).toEqual(UNCOVERED);
    expect(graph.services.find((s) => s.folder === 'services/orders')).toEqual({
      name: 'orders',
      kind: 'service',
      folder: 'services/orders',
      root: 'services/orders',
      names: [
        { name: 'orders', from: 'services/orders/package.json:2', how: 'package.json' },
        { name: 'orders-api', from: 'docker-compose.yml:4', how: 'compose container_name' },
      ],
    });
    expect(graph.services.find((s) => s.folder === 'libs/go')?.root).toBeNull();
  });

  test('with the roots init proposes: nothing left out, and a zero is authoritative again', () => {
    const dir = workspace(['docs', 'libs/*', 'proto', 'services/*']);
    const status = runCli(['admin', 'status', '--workspace', dir], { env });
    expect(status.stdout).not.toContain('Not covered');
    expect(status.stdout).toContain('| go | library | `libs/go` | libs/go | — |');
    const search = runCli(['code', 'search', '--query', 'NoSuchThing', '--workspace', dir], { env });
    expect(search.stdout).toContain('This is authoritative for declared names; do not re-check with grep.');
    const graph = JSON.parse(runCli(['graph', '--format', 'json', '--workspace', dir], { env }).stdout) as {
      uncovered: string[];
    };
    expect(graph.uncovered).toEqual([]);
  });
});
