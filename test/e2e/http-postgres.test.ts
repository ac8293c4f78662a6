import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/server/api-key-auth.js';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { startHttpServe, stopHttpServe, type HttpServe } from '../helpers/http-serve.js';
import { callTool, initialize, openSession, type RawAnswer } from '../helpers/http-raw.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const KEY_LINE = /^(ml_[0-9a-f]{48})$/m;
const CONFIG = '[workspace]\nroots = ["api"]\n\n[server.visibility.roles]\nreader = ["admin.status"]\n';

let db: TestDatabase;
let env: Record<string, string>;
let workspace: string;
const servers: HttpServe[] = [];

beforeAll(async () => {
  db = await createTestDatabase('http');
  env = tempEnv();
  workspace = tempDir('meshlens-pg-http-');
  writeFiles(workspace, { 'meshlens.toml': CONFIG, 'api/main.go': 'package main\n' });
});
afterAll(async () => {
  for (const serve of servers) if (serve.process.exitCode === null) serve.process.kill('SIGKILL');
  await db.drop();
  removeTemps();
});

function keys(args: readonly string[], extraEnv: Record<string, string> = {}) {
  return runCli(['keys', ...args], { env: { ...env, ...extraEnv } });
}

function createKey(...args: string[]) {
  const result = keys(['create', '--store', db.url, '--tenant', 'acme', '--role', 'reader', ...args]);
  expect(result.status, result.stderr).toBe(0);
  const key = KEY_LINE.exec(result.stdout)?.[1] ?? '';
  return { key, prefix: key.slice(0, 11), stdout: result.stdout };
}

interface ListedKey {
  readonly id: number;
  readonly prefix: string;
  readonly revoked_at: string | null;
  readonly expires_at: string | null;
}

function listed(extraEnv: Record<string, string> = {}, args: readonly string[] = []): ListedKey[] {
  const result = runCli([...args, 'keys', 'list', '--json'], { env: { ...env, ...extraEnv } });
  expect(result.status, result.stderr).toBe(0);
  const parsed = JSON.parse(result.stdout) as { db: string; keys: ListedKey[] };
  expect(parsed.db).toBe(db.store.displayUrl);
  return parsed.keys;
}

const STATUS = { mode: 'status' };
const isAnswer = (answer: RawAnswer): boolean =>
  answer.status === 200 && answer.message?.result !== undefined && answer.message.error === undefined;

describe('API keys in PostgreSQL (built CLI)', () => {
  it('keys create, list and revoke act on the database named by --store, MESHLENS_STORE or [server] store', () => {
    const first = createKey('--label', 'ci bot', '--daily', '5');
    expect(first.stdout).toBe(
      `Created key ${first.prefix} (id 1) for tenant acme, role reader, no expiry, 5 calls a day.\n` +
        'The key is shown this once; only its prefix and a hash are kept:\n\n' +
        `${first.key}\n`,
    );
    const second = createKey();
    expect(listed({ MESHLENS_STORE: db.url }).map((k) => [k.id, k.prefix, k.revoked_at])).toEqual([
      [1, first.prefix, null],
      [2, second.prefix, null],
    ]);
    const configured = tempDir('meshlens-pg-config-');
    writeFiles(configured, { 'meshlens.toml': `[server]\nstore = "${db.url}"\n` });
    expect(listed({}, ['--workspace', configured]).map((k) => k.id)).toEqual([1, 2]);

    const revoked = keys(['revoke', second.prefix, '--store', db.url]);
    expect(revoked.status).toBe(0);
    const at = listed({ MESHLENS_STORE: db.url })[1]?.revoked_at ?? '';
    expect(revoked.stdout).toBe(`Revoked key ${second.prefix} (id 2, tenant acme) at ${at}.\n`);
    expect(keys(['revoke', '2', '--store', db.url]).stdout).toBe(
      `Key ${second.prefix} (id 2) was revoked already, at ${at}.\n`,
    );
    const unknown = keys(['revoke', 'ml_00000000', '--store', db.url]);
    expect([unknown.status, unknown.stderr]).toEqual([
      2,
      `meshlens: no key ml_00000000 in ${db.store.displayUrl}; \`meshlens keys list\` shows the keys\n`,
    ]);
    const both = keys(['list', '--store', db.url, '--db', path.join(env.MESHLENS_DATA_DIR ?? '', 'k.db')]);
    expect([both.status, both.stderr]).toEqual([
      2,
      'meshlens: --db names a SQLite file; give either --db or --store, not both\n',
    ]);
    const away = keys(['list', '--store', 'postgres://someone:pw@127.0.0.1:1/meshlens']);
    expect([away.status, away.stderr]).toEqual([
      1,
      'meshlens: the PostgreSQL store at postgres://someone:***@127.0.0.1:1/meshlens cannot be reached (connect ECONNREFUSED 127.0.0.1:1); start the database or correct --store (or MESHLENS_STORE, [server] store)\n',
    ]);
    expect(existsSync(path.join(env.MESHLENS_DATA_DIR ?? '', 'keys.db'))).toBe(false);
  }, 60_000);

  it('two replicas on one database: one key works on both, the daily quota holds across both, a revoked or expired key is refused by both, and their audit is one chain', async () => {
    const quota = createKey('--daily', '6');
    const revocable = createKey();
    const expiry = new Date(Date.now() + 6_000).toISOString();
    const expiring = createKey('--expires', expiry);
    const replicas = await Promise.all(
      [1, 2].map(() => startHttpServe(['--store', db.url, '--workspace', workspace, '--no-watch'], env)),
    );
    servers.push(...replicas);
    const urls = replicas.map((serve) => serve.url);

    const quotaSessions = await Promise.all(urls.map((url) => openSession(url, quota.key)));
    const calls = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        callTool(urls[i % 2]!, quotaSessions[i % 2]!, quota.key, 'admin', STATUS),
      ),
    );
    const refused = calls.filter((answer) => answer.status === 429);
    expect([calls.filter(isAnswer).length, refused.length]).toEqual([6, 4]);
    for (const answer of refused) {
      const seconds = Number(answer.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(86_400);
      expect(answer.message?.error?.message).toBe(
        `Daily quota reached for key ${quota.prefix} (6 calls per UTC day). Retry after ${seconds} s, when the day ends.`,
      );
    }

    const revocableSessions = await Promise.all(urls.map((url) => openSession(url, revocable.key)));
    for (const [i, url] of urls.entries())
      expect(isAnswer(await callTool(url, revocableSessions[i]!, revocable.key, 'admin', STATUS))).toBe(true);
    expect(keys(['revoke', revocable.prefix, '--store', db.url]).status).toBe(0);
    const revokedAt = listed({ MESHLENS_STORE: db.url }).find(
      (k) => k.prefix === revocable.prefix,
    )?.revoked_at;
    for (const [i, url] of urls.entries()) {
      const answer = await callTool(url, revocableSessions[i]!, revocable.key, 'admin', STATUS);
      expect([answer.status, answer.message?.error?.message]).toEqual([
        401,
        AUTH_MESSAGES.revoked(revokedAt ?? ''),
      ]);
    }

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiry) - Date.now() + 50)));
    for (const url of urls) {
      const answer = await initialize(url, expiring.key);
      expect([answer.status, answer.message?.error?.message]).toEqual([401, AUTH_MESSAGES.expired(expiry)]);
      const unknown = await initialize(url, `ml_${'f'.repeat(48)}`);
      expect([unknown.status, unknown.message?.error?.message]).toEqual([401, AUTH_MESSAGES.rejected]);
    }

    expect(await Promise.all(replicas.map(stopHttpServe))).toEqual([0, 0]);
    const verify = runCli(['audit', 'verify', '--store', db.url, '--json'], { env });
    expect(verify.status, verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toEqual({
      store: db.store.displayUrl,
      ok: true,
      chains: [{ tenant: '_local', ok: true, rows: 8, head: expect.stringMatching(/^8:[0-9a-f]{64}$/) }],
    });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const callers = await client.query<{ caller: string; n: string }>(
      'SELECT caller, count(*) AS n FROM audit_log GROUP BY caller ORDER BY caller',
    );
    await client.end();
    expect(callers.rows.map((row) => [row.caller, Number(row.n)]).sort()).toEqual(
      [
        [`key ${quota.prefix} acme/reader`, 6],
        [`key ${revocable.prefix} acme/reader`, 2],
      ].sort(),
    );
    const stats = runCli(['stats', '--store', db.url, '--json'], { env });
    expect(stats.status, stats.stderr).toBe(0);
    const report = JSON.parse(stats.stdout) as {
      db: string;
      calls: number;
      key_usage: { callers: unknown[] };
    };
    expect([report.db, report.calls]).toEqual([db.store.displayUrl, 8]);
    expect(report.key_usage.callers).toEqual([
      { caller: quota.prefix, tenant: 'acme', calls: 6, refusals: 4 },
      { caller: revocable.prefix, tenant: 'acme', calls: 2, refusals: 0 },
    ]);
  }, 120_000);

  it('with [server.tenants], each tenant has its own chain in the database, verified and counted by tenant', async () => {
    const tenantsDb = await createTestDatabase('tenants');
    try {
      const server = tempDir('meshlens-pg-tenants-');
      writeFiles(server, {
        'meshlens.toml':
          '[server.tenants.acme]\nworkspace = "acme"\n\n[server.tenants.globex]\nworkspace = "globex"\n\n' +
          '[server.visibility.roles]\nreader = ["admin.status", "memory"]\n',
        'acme/meshlens.toml': '[workspace]\nroots = ["api"]\n',
        'acme/api/main.go': 'package main\n',
        'globex/meshlens.toml': '[workspace]\nroots = ["api"]\n',
        'globex/api/main.go': 'package main\n',
      });
      const keyOf = (tenant: string) => {
        const created = keys(['create', '--store', tenantsDb.url, '--tenant', tenant, '--role', 'reader']);
        return KEY_LINE.exec(created.stdout)?.[1] ?? '';
      };
      const [acme, globex] = [keyOf('acme'), keyOf('globex')];
      const serve = await startHttpServe(
        ['--store', tenantsDb.url, '--config', path.join(server, 'meshlens.toml'), '--no-watch'],
        env,
      );
      servers.push(serve);
      const sessions = new Map<string, string>();
      for (const [key, calls] of [
        [acme, 2],
        [globex, 3],
      ] as const) {
        const session = await openSession(serve.url, key);
        sessions.set(key, session);
        for (let i = 0; i < calls; i++)
          expect(isAnswer(await callTool(serve.url, session, key, 'admin', STATUS))).toBe(true);
      }
      // A note acme keeps is a row under acme, and globex cannot read it.
      const put = { key: 'runbook', value: 'acme only' };
      expect(isAnswer(await callTool(serve.url, sessions.get(acme) ?? '', acme, 'memory_put', put))).toBe(
        true,
      );
      const peek = await callTool(serve.url, sessions.get(globex) ?? '', globex, 'memory', {
        mode: 'get',
        key: 'runbook',
      });
      expect(JSON.stringify(peek.message)).not.toContain('acme only');
      expect(await stopHttpServe(serve)).toBe(0);
      const db = new pg.Client({ connectionString: tenantsDb.url });
      await db.connect();
      const rows = async (sql: string) => (await db.query<{ row: string }>(sql)).rows.map((r) => r.row);
      expect(await rows("SELECT tenant || ' ' || key AS row FROM notes")).toEqual(['acme runbook']);
      // Each tenant's cold index went through its own job, under its name (facts share the job's scope).
      expect(await rows('SELECT DISTINCT tenant AS row FROM index_runs ORDER BY 1')).toEqual([
        'acme',
        'globex',
      ]);
      await db.end();
      const verify = runCli(['audit', 'verify', '--store', tenantsDb.url, '--json'], { env });
      expect(JSON.parse(verify.stdout)).toMatchObject({
        ok: true,
        chains: [
          { tenant: 'acme', ok: true, rows: 3 },
          { tenant: 'globex', ok: true, rows: 4 },
        ],
      });
      const one = runCli(['audit', 'verify', '--store', tenantsDb.url, '--tenant', 'globex'], { env });
      expect(one.stdout).toMatch(/^audit chain globex OK: 4 rows, head 4:[0-9a-f]{64}\n$/);
      const stats = runCli(['stats', '--store', tenantsDb.url, '--tenant', 'acme', '--json'], { env });
      const report = JSON.parse(stats.stdout) as { calls: number; key_usage: { tenants: unknown[] } };
      expect([report.calls, report.key_usage.tenants]).toEqual([
        3,
        [{ tenant: 'acme', keys: 1, calls: 3, refusals: 0 }],
      ]);
      const sqliteChains = path.join(path.dirname(env.MESHLENS_AUDIT_DB ?? ''), 'tenants');
      expect(existsSync(sqliteChains)).toBe(false);
    } finally {
      await tenantsDb.drop();
    }
  }, 120_000);
});
