import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { startHttpServe, stopHttpServe, type HttpServe } from '../helpers/http-serve.js';
import { callTool, openSession, type RawAnswer } from '../helpers/http-raw.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const KEY_LINE = /^(ml_[0-9a-f]{48})$/m;
const CONFIG = '[workspace]\nroots = ["api"]\n\n[server.visibility.roles]\nreader = ["admin.status"]\n';
const STATUS = { mode: 'status' };

let db: TestDatabase;
let proxy: TcpProxy;
/** The database as the servers reach it: through the relay, which the tests cut and restore. */
let throughProxy: string;
let env: Record<string, string>;
let workspace: string;
const servers: HttpServe[] = [];

beforeAll(async () => {
  db = await createTestDatabase('outage');
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
  throughProxy = proxy.urlThrough(db.url);
  env = tempEnv();
  workspace = tempDir('meshlens-pg-outage-');
  writeFiles(workspace, { 'meshlens.toml': CONFIG, 'api/main.go': 'package main\n' });
});
afterAll(async () => {
  for (const serve of servers) if (serve.process.exitCode === null) serve.process.kill('SIGKILL');
  await proxy.close();
  await db.drop();
  removeTemps();
});

async function auditRows(): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM audit_log');
    return Number(rows[0]?.n);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const isAnswer = (answer: RawAnswer): boolean =>
  answer.status === 200 && answer.message?.result !== undefined && answer.message.error === undefined;

async function serve(): Promise<HttpServe> {
  const started = await startHttpServe(
    ['--store', throughProxy, '--workspace', workspace, '--no-watch'],
    env,
  );
  servers.push(started);
  return started;
}

describe('serve --http --store while the database goes away (built CLI)', () => {
  it('without keys, calls are answered during the outage and their audit records are written once it is back', async () => {
    const server = await serve();
    const session = await openSession(server.url);
    for (let i = 0; i < 2; i++)
      expect(isAnswer(await callTool(server.url, session, undefined, 'admin', STATUS))).toBe(true);
    await until(async () => (await auditRows()) === 2);
    proxy.pause();
    for (let i = 0; i < 3; i++)
      expect(isAnswer(await callTool(server.url, session, undefined, 'admin', STATUS))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await auditRows()).toBe(2);
    proxy.resume();
    await until(async () => (await auditRows()) === 5);
    expect(await stopHttpServe(server)).toBe(0);
    expect(server.stderr()).toMatch(
      /audit records are kept in memory \(at most 50000\) and written when the store is back/,
    );
    expect(server.stderr()).toMatch(/audit records written again after [\d.]+ s \(chain _local\)/);
    const verify = runCli(['audit', 'verify', '--store', db.url], { env });
    expect(verify.stdout).toMatch(/^audit chain _local OK: 5 rows, head 5:[0-9a-f]{64}\n$/);
  }, 90_000);

  it('with keys, a request during the outage gets 503 with Retry-After, and the next one after it is served', async () => {
    const created = runCli(['keys', 'create', '--store', db.url, '--tenant', 'acme', '--role', 'reader'], {
      env,
    });
    const key = KEY_LINE.exec(created.stdout)?.[1] ?? '';
    const server = await serve();
    const session = await openSession(server.url, key);
    expect(isAnswer(await callTool(server.url, session, key, 'admin', STATUS))).toBe(true);
    proxy.pause();
    const during = await callTool(server.url, session, key, 'admin', STATUS);
    expect([during.status, during.headers['retry-after'], during.message?.error?.message]).toEqual([
      503,
      '5',
      'Service Unavailable: the key store cannot be reached, so no key can be checked or counted; retry in 5 s.',
    ]);
    proxy.resume();
    expect(isAnswer(await callTool(server.url, session, key, 'admin', STATUS))).toBe(true);
    expect(await stopHttpServe(server)).toBe(0);
    const verify = runCli(['audit', 'verify', '--store', db.url], { env });
    expect([verify.status, verify.stdout]).toEqual([
      0,
      expect.stringMatching(/^audit chain _local OK: 7 rows, /),
    ]);
  }, 90_000);
});
