import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsSettingsOf } from '../../src/cli/compose.js';
import { loadConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { Registry } from '../../src/core/registry.js';
import { IndexEngine } from '../../src/index/engine.js';
import { languageSpec } from '../../src/index/languages/registry.js';
import type { PersistentFactStore } from '../../src/index/index-run.js';
import type { IndexStatus } from '../../src/index/reader.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import type { MeshServices } from '../../src/ops/services.js';
import { createPathJail } from '../../src/trust/path-jail.js';
import { runCli, tempEnv } from '../helpers/cli.js';
import { connectClient, textOf } from '../helpers/mcp.js';

const temps: string[] = [];
// Node's rm cannot reach below the path length limit either; rm -rf walks down relative to each folder.
afterAll(() => temps.forEach((dir) => execFileSync('rm', ['-rf', dir])));

function tempWorkspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-unusable-')));
  temps.push(dir);
  return dir;
}

const SEGMENT = 'd'.repeat(200);
/** Linux's PATH_MAX: a path of this many bytes or more cannot be named in one call. */
const PATH_MAX = 4096;

const chain = (count: number): string => ['deep', ...Array<string>(count).fill(SEGMENT)].join('/');

/**
 * `deep/ddd…/ddd…/…`: a chain of 200-character folders that passes the system's path limit part way down,
 * built with relative steps (a path that long cannot be named in one call). The deepest usable folder also
 * holds a file whose own path is too long, and below the first folder that is too long there is more.
 */
function deepTree(ws: string): { folder: string; file: string } {
  const bytes = (rel: string) => Buffer.byteLength(`${ws}/${rel}`);
  let tooLong = 1;
  while (bytes(chain(tooLong)) < PATH_MAX) tooLong++;
  const name = `${'f'.repeat(PATH_MAX - bytes(chain(tooLong - 1)) + 8)}.ts`;
  execFileSync(
    'bash',
    [
      '-ec',
      'cd "$1" && mkdir deep && cd deep && i=1; while [ $i -le "$2" ]; do mkdir "$3" && cd "$3"; ' +
        'if [ $i -eq $(($2 - 1)) ]; then echo "export const nearLimit = 1;" > "$4"; fi; i=$((i+1)); done; ' +
        'mkdir more && echo "export const tooDeep = 1;" > more/deepest.ts',
      'bash',
      ws,
      String(tooLong),
      SEGMENT,
      name,
    ],
    { stdio: 'ignore' },
  );
  return { folder: chain(tooLong), file: `${chain(tooLong - 1)}/${name}` };
}

describe('a path the system cannot use', () => {
  it('is rejected and listed by `index`; every other file is indexed and the run succeeds', () => {
    const ws = tempWorkspace();
    writeFileSync(path.join(ws, 'ok.ts'), 'export const fine = 1;\n');
    const { folder, file } = deepTree(ws);
    const result = runCli(['--workspace', ws, 'index', '--json'], { env: tempEnv() });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const status = JSON.parse(result.stdout) as IndexStatus;
    expect(status.files).toBe(1);
    const detail = (kind: string, rel: string) =>
      `${kind} path is ${Buffer.byteLength(`${ws}/${rel}`).toLocaleString('en-US')} bytes, longer than the ` +
      'system allows (ENAMETOOLONG); shorten it or add it to [workspace] exclude';
    expect(status.rejected).toEqual([
      { root: '.', path: folder, reason: 'unusable_path', size: 0, detail: detail('folder', folder) },
      { root: '.', path: file, reason: 'unusable_path', size: 0, detail: detail('file', file) },
    ]);

    const shown = runCli(['--workspace', ws, 'admin', 'status'], { env: tempEnv() });
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(
      '**Not indexed:** 2 file(s) (unusable_path 2). Read them directly if needed:',
    );
    expect(shown.stdout).toContain(
      `- \`.:${folder.slice(0, 80)}…${folder.slice(-80)}\` — unusable_path, 0 B`,
    );
  });
});

async function engineRegistry(ws: string) {
  const loaded = loadConfig({ cwd: ws, workspaceDir: ws, env: {} });
  // The cache cannot be opened on the first run (a read-only volume), and can afterwards.
  let opened = 0;
  const openStore = (): PersistentFactStore => {
    if (opened++ === 0) throw new Error(`EROFS: read-only file system, open '${ws}/cache.db'`);
    return undefined as unknown as PersistentFactStore; // no cache: the engine runs without one
  };
  const engine = new IndexEngine({ loaded, logger: silentLogger, threads: 0, openStore, factKey: () => 'k' });
  const registry = new Registry<MeshServices>({
    operations: OPERATIONS,
    services: { index: engine, languages: languageSpec, docs: docsSettingsOf(loaded) },
    resolvePath: createPathJail({ roots: loaded.roots, workspaceDir: loaded.baseDir }),
    readiness: () => engine.readiness(),
  });
  return { engine, client: await connectClient(registry, 'flat') };
}

describe('an index run that fails', () => {
  it('is reported by every call with its cause, not "still indexing" for ever; a rescan recovers', async () => {
    const ws = tempWorkspace();
    mkdirSync(path.join(ws, 'svc'));
    writeFileSync(path.join(ws, 'svc', 'a.ts'), 'export class Billing {}\n');
    writeFileSync(path.join(ws, 'meshlens.toml'), '[workspace]\nroots = ["svc"]\n');
    const { engine, client } = await engineRegistry(ws);
    try {
      await expect(engine.indexAll()).rejects.toThrow(/EROFS/);
      const answer = await client.callTool({ name: 'smart_search', arguments: { query: 'Billing' } });
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toBe(
        `Indexing failed: EROFS: read-only file system, open '${ws}/cache.db'. Fix the cause, then call ` +
          'admin rescan (or restart meshlens).',
      );
      const status = textOf(await client.callTool({ name: 'index_status', arguments: {} }));
      expect(status).toContain(
        `> The last full index run failed: EROFS: read-only file system, open '${ws}/cache.db'`,
      );

      const rescan = await client.callTool({ name: 'rescan', arguments: {} });
      expect(rescan.isError).toBeFalsy();
      const found = await client.callTool({ name: 'smart_search', arguments: { query: 'Billing' } });
      expect(textOf(found)).toContain('### [1] `svc/a.ts`');
      expect(textOf(await client.callTool({ name: 'index_status', arguments: {} }))).not.toContain('failed');
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
