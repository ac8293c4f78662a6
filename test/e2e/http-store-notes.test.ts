import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempEnv } from '../helpers/cli.js';
import { writeFiles } from '../helpers/engine.js';
import { httpClient, startHttpServe, stopHttpServe, type HttpServe } from '../helpers/http-serve.js';
import { textOf } from '../helpers/mcp.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
let workspace: string;
const envs: Record<string, string>[] = [];
const serves: HttpServe[] = [];

beforeAll(async () => {
  db = await createTestDatabase('http_notes');
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-http-notes-'));
  writeFiles(workspace, {
    'meshlens.toml': '[workspace]\nroots = ["app"]\n',
    'app/main.ts': 'export const x = 1;\n',
  });
  // Two replicas of one workspace on one database, each with caches and a data folder of its own.
  for (let i = 0; i < 2; i++) {
    const env = tempEnv();
    envs.push(env);
    serves.push(await startHttpServe(['--workspace', workspace, '--no-watch', '--store', db.url], env));
  }
}, 60_000);

afterAll(async () => {
  for (const serve of serves) if (serve.process.exitCode === null) serve.process.kill('SIGKILL');
  await db.drop();
  rmSync(workspace, { recursive: true, force: true });
  for (const env of envs) rmSync(env.MESHLENS_CACHE_DIR ?? '', { recursive: true, force: true });
});

describe('serve --http --store postgres:// (built CLI)', () => {
  it('keeps notes in the database: one replica reads at once what the other wrote; no SQLite file', async () => {
    const [one, two] = await Promise.all(serves.map((serve, i) => httpClient(serve.url, `agent-${i}`)));
    if (!one || !two) throw new Error('two clients expected');
    try {
      const put = await one.callTool({
        name: 'memory_put',
        arguments: { key: 'deploy/orders', value: 'Orders deploy after billing.' },
      });
      expect(put.isError).toBeFalsy();
      expect(textOf(put)).toContain('Wrote note `deploy/orders`.');
      const got = await two.callTool({ name: 'memory', arguments: { mode: 'get', key: 'deploy/orders' } });
      expect(textOf(got)).toContain('by agent-0');
      const found = await two.callTool({ name: 'memory', arguments: { mode: 'search', query: 'billing' } });
      expect(textOf(found)).toContain('1 note(s) match: billing.');
    } finally {
      await one.close();
      await two.close();
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT tenant, key, value, author FROM notes');
      expect(rows).toEqual([
        { tenant: '_local', key: 'deploy/orders', value: 'Orders deploy after billing.', author: 'agent-0' },
      ]);
    } finally {
      await client.end();
    }
    for (const env of envs) expect(existsSync(path.join(env.MESHLENS_DATA_DIR ?? '', 'notes'))).toBe(false);
  }, 60_000);

  it('stops cleanly on SIGTERM', async () => {
    expect(await Promise.all(serves.map(stopHttpServe))).toEqual([0, 0]);
  }, 30_000);
});
