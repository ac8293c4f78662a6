import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditRecord } from '../../src/trust/audit.js';
import { GENESIS_HASH } from '../../src/store/audit-hash.js';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { PostgresAuditSink } from '../../src/store/postgres/audit-store.js';
import {
  auditChains,
  readPostgresAuditRows,
  verifyPostgresAudit,
} from '../../src/store/postgres/audit-read.js';
import { PostgresPool } from '../../src/store/postgres/pool.js';
import { parseStoreUrl } from '../../src/store/postgres/store-url.js';
import { LOCAL_TENANT } from '../../src/store/postgres/team-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const databases: TestDatabase[] = [];
const pools: PostgresPool[] = [];

async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase('audit');
  databases.push(db);
  await migratePostgres(db.store);
  return db;
}

async function poolOn(url: string): Promise<PostgresPool> {
  const store = parseStoreUrl(url);
  if (store.kind !== 'postgres') throw new Error('expected postgres');
  const pool = await PostgresPool.open({ store, max: 4 });
  pools.push(pool);
  return pool;
}

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await Promise.all(databases.map((d) => d.drop()));
});

function entry(i: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    time: new Date(Date.UTC(2026, 11, 1, 0, 0, 0, i)).toISOString(),
    session: `session-${i % 3}`,
    operation: 'code.search',
    argumentDigest: `${i}`.padStart(64, 'a'),
    status: 'ok',
    elapsedMs: 0.1 + 0.2 + i,
    filesRead: [`services/svc/file-${i}.ts`],
    redactions: i % 2,
    traceId: `trace-${i}`,
    caller: `key ml_0000000${i % 10} acme/reader`,
    ...overrides,
  };
}

function capture(): { warnings: string[]; logger: { warn(obj: object, msg: string): void } } {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (_obj, msg) => warnings.push(msg) } };
}

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('the PostgreSQL audit chain', () => {
  let db: TestDatabase;
  let a: PostgresPool;
  let b: PostgresPool;
  beforeAll(async () => {
    db = await freshDatabase();
    [a, b] = [await poolOn(db.url), await poolOn(db.url)];
  });

  test('two replicas appending at once form one chain that verifies, every record once', async () => {
    const sinks = [
      new PostgresAuditSink(a, { tenant: LOCAL_TENANT }),
      new PostgresAuditSink(b, { tenant: LOCAL_TENANT }),
    ];
    for (let i = 1; i <= 300; i++) {
      sinks[i % 2]!.record(entry(i));
      if (i % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(sinks.map((sink) => sink.close()));
    const result = await verifyPostgresAudit(a, LOCAL_TENANT);
    expect(result).toMatchObject({ ok: true, rows: 300, head: { lastId: 300 } });
    const rows = await readPostgresAuditRows(a, { tenant: LOCAL_TENANT });
    expect(rows.map((row) => row.argumentDigest).sort()).toEqual(
      Array.from({ length: 300 }, (_, i) => `${i + 1}`.padStart(64, 'a')).sort(),
    );
    expect(rows[0]).toMatchObject({
      caller: expect.stringMatching(/^key ml_0000000\d acme\/reader$/),
      chainVersion: 2,
    });
    const [first] = await a.query<{ prev_hash: string }>(
      `SELECT prev_hash FROM audit_log WHERE tenant = '_local' AND id = 1`,
    );
    expect(first?.prev_hash).toBe(GENESIS_HASH);
  });

  test('each tenant has its own chain, numbered from 1', async () => {
    const acme = new PostgresAuditSink(a, { tenant: 'acme' });
    const globex = new PostgresAuditSink(b, { tenant: 'globex' });
    for (let i = 1; i <= 3; i++) acme.record(entry(i));
    for (let i = 1; i <= 5; i++) globex.record(entry(i));
    await Promise.all([acme.close(), globex.close()]);
    expect(await verifyPostgresAudit(a, 'acme')).toMatchObject({ ok: true, rows: 3, head: { lastId: 3 } });
    expect(await verifyPostgresAudit(a, 'globex')).toMatchObject({ ok: true, rows: 5, head: { lastId: 5 } });
    expect(await auditChains(a)).toEqual(['_local', 'acme', 'globex']);
    expect((await readPostgresAuditRows(a, { tenant: 'acme' })).map((row) => row.id)).toEqual([1, 2, 3]);
  });

  test('text PostgreSQL cannot hold (NUL, a lone surrogate) is stored as it reads back, and verifies', async () => {
    const sink = new PostgresAuditSink(a, { tenant: 'odd' });
    sink.record(
      entry(1, { session: 'nul \u0000 here', warning: 'lone \ud800 surrogate', elapsedMs: Number.NaN }),
    );
    await sink.close();
    expect(await verifyPostgresAudit(a, 'odd')).toMatchObject({ ok: true, rows: 1 });
    const [row] = await readPostgresAuditRows(a, { tenant: 'odd' });
    expect([row?.session, row?.warning, row?.elapsedMs]).toEqual([
      'nul \uFFFD here',
      'lone \uFFFD surrogate',
      0,
    ]);
  });

  test('an edited row, a deleted last or middle row, a missing head and a wrong anchor are each named', async () => {
    const fresh = await freshDatabase();
    const pool = await poolOn(fresh.url);
    const write = async (tenant: string, count: number) => {
      const sink = new PostgresAuditSink(pool, { tenant });
      for (let i = 1; i <= count; i++) sink.record(entry(i));
      await sink.close();
    };
    await write('edited', 5);
    await pool.query(`UPDATE audit_log SET caller = 'local' WHERE tenant = 'edited' AND id = 3`);
    expect(await verifyPostgresAudit(pool, 'edited')).toEqual({
      ok: false,
      rows: 5,
      firstBrokenRow: 3,
      reason: 'row 3 does not match its hash (the row was edited)',
    });
    await write('cut', 5);
    await pool.query(`DELETE FROM audit_log WHERE tenant = 'cut' AND id = 5`);
    expect(await verifyPostgresAudit(pool, 'cut')).toEqual({
      ok: false,
      rows: 4,
      firstBrokenRow: 5,
      reason: 'row 5 is missing at the end: the head records 5 rows, the log ends at row 4',
    });
    await write('middle', 5);
    await pool.query(`DELETE FROM audit_log WHERE tenant = 'middle' AND id = 2`);
    expect(await verifyPostgresAudit(pool, 'middle')).toMatchObject({
      ok: false,
      firstBrokenRow: 3,
      reason: 'row 2 is missing before row 3',
    });
    await write('headless', 2);
    await pool.query(`DELETE FROM audit_head WHERE tenant = 'headless'`);
    expect(await verifyPostgresAudit(pool, 'headless')).toMatchObject({ ok: false, firstBrokenRow: 0 });
    expect(await auditChains(pool)).toEqual(['cut', 'edited', 'headless', 'middle']);
    expect(await verifyPostgresAudit(pool, 'nobody')).toEqual({
      ok: false,
      rows: 0,
      firstBrokenRow: 0,
      reason: `there is no audit chain for this tenant in ${fresh.store.displayUrl}`,
    });
    const anchor = { lastId: 5, lastHash: 'f'.repeat(64) };
    await write('anchored', 5);
    expect(await verifyPostgresAudit(pool, 'anchored', { anchor })).toMatchObject({
      ok: false,
      firstBrokenRow: 5,
    });
  });
});

describe('an audit sink whose database goes away', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let direct: PostgresPool;
  beforeAll(async () => {
    db = await freshDatabase();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
    direct = await poolOn(db.url);
  });
  afterAll(async () => {
    await proxy.close();
  });

  const count = async (tenant: string): Promise<number> =>
    Number(
      (
        await direct.query<{ n: string }>('SELECT count(*) AS n FROM audit_log WHERE tenant = $1', [tenant])
      )[0]?.n,
    );

  test('keeps the records in memory, never throws, and writes them in order once it is back', async () => {
    const { warnings, logger } = capture();
    const pool = await poolOn(proxy.urlThrough(db.url));
    const sink = new PostgresAuditSink(pool, { tenant: 'outage', logger, firstRetryMs: 50, maxRetryMs: 200 });
    for (let i = 1; i <= 5; i++) sink.record(entry(i));
    await sink.flush();
    expect(await count('outage')).toBe(5);
    proxy.pause();
    for (let i = 6; i <= 25; i++) expect(() => sink.record(entry(i))).not.toThrow();
    await sink.flush();
    expect(sink.queued).toBe(20);
    expect(await count('outage')).toBe(5);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^audit records are kept in memory \(at most 50000\) and written when the store is back: the PostgreSQL store at .* cannot be reached/,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.resume();
    await until(() => sink.queued === 0);
    expect(await count('outage')).toBe(25);
    expect(await verifyPostgresAudit(direct, 'outage')).toMatchObject({ ok: true, rows: 25 });
    const rows = await readPostgresAuditRows(direct, { tenant: 'outage' });
    expect(rows.map((row) => row.argumentDigest)).toEqual(
      Array.from({ length: 25 }, (_, i) => `${i + 1}`.padStart(64, 'a')),
    );
    expect(warnings[1]).toMatch(/^audit records written again after [\d.]+ s \(chain outage\)$/);
    await sink.close();
  });

  test('a commit whose answer was lost is not written again when the batch is retried', async () => {
    const { warnings, logger } = capture();
    const pool = await poolOn(proxy.urlThrough(db.url));
    const sink = new PostgresAuditSink(pool, { tenant: 'unanswered', logger, firstRetryMs: 50 });
    sink.record(entry(1));
    await sink.flush();
    proxy.loseAnswerTo('COMMIT');
    for (let i = 2; i <= 4; i++) sink.record(entry(i));
    await sink.flush();
    expect(sink.queued).toBe(3);
    // The database commits what it received, though nobody hears of it.
    await until(async () => (await count('unanswered')) === 4);
    await until(() => sink.queued === 0);
    expect(await count('unanswered')).toBe(4);
    expect(await verifyPostgresAudit(direct, 'unanswered')).toMatchObject({ ok: true, rows: 4 });
    expect(warnings).toHaveLength(2);
    await sink.close();
  });

  test('a full queue drops newer records and says how many; closing while it is away says what was lost', async () => {
    const { warnings, logger } = capture();
    const pool = await poolOn(proxy.urlThrough(db.url));
    const sink = new PostgresAuditSink(pool, {
      tenant: 'bounded',
      logger,
      maxQueued: 10,
      firstRetryMs: 50,
      maxRetryMs: 100,
    });
    proxy.pause();
    for (let i = 1; i <= 15; i++) sink.record(entry(i));
    await sink.flush();
    expect(sink.queued).toBe(10);
    proxy.resume();
    await until(() => sink.queued === 0);
    expect(await count('bounded')).toBe(10);
    expect(warnings).toEqual([
      'audit queue full (10 records): new records are dropped until the store is back',
      expect.stringMatching(/^audit records are kept in memory \(at most 10\) and written when the store/),
      expect.stringMatching(
        /^audit records written again after [\d.]+ s \(chain bounded\); 5 records were dropped when the queue was full$/,
      ),
    ]);
    proxy.pause();
    sink.record(entry(16));
    sink.record(entry(17));
    const started = Date.now();
    await sink.close(500);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(warnings.at(-1)).toMatch(
      /^2 audit records were not written: the store at .* could not be reached$/,
    );
    proxy.resume();
    expect(await verifyPostgresAudit(direct, 'bounded')).toMatchObject({ ok: true, rows: 10 });
  });
});
