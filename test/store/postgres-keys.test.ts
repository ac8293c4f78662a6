import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAdmitter } from '../../src/core/admission.js';
import { AUTH_MESSAGES, createAuthenticator } from '../../src/server/api-key-auth.js';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { PostgresKeyStore } from '../../src/store/postgres/key-store.js';
import { PostgresPool } from '../../src/store/postgres/pool.js';
import { PostgresUsageCounter } from '../../src/store/postgres/usage-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const SECRET_A = 'a1'.repeat(32);
const SECRET_B = 'b2'.repeat(32);

const databases: TestDatabase[] = [];
const pools: PostgresPool[] = [];

async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase('keys');
  databases.push(db);
  await migratePostgres(db.store);
  return db;
}

async function poolOn(db: TestDatabase): Promise<PostgresPool> {
  const pool = await PostgresPool.open({ store: db.store, max: 4 });
  pools.push(pool);
  return pool;
}

let db: TestDatabase;
/** Two replicas: two pools on one database. */
let a: PostgresPool;
let b: PostgresPool;
beforeAll(async () => {
  db = await freshDatabase();
  [a, b] = [await poolOn(db), await poolOn(db)];
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await Promise.all(databases.map((d) => d.drop()));
});

describe('the shared key secret', () => {
  test('replicas opening at once on a new database agree on one secret, kept in one row', async () => {
    const fresh = await freshDatabase();
    const [p, q] = [await poolOn(fresh), await poolOn(fresh)];
    const stores = await Promise.all([
      PostgresKeyStore.open(p, { env: {} }),
      PostgresKeyStore.open(q, { env: {} }),
      PostgresKeyStore.open(p, { env: {} }),
    ]);
    const hashes = new Set(stores.map((store) => store.hash(`ml_${'1'.repeat(48)}`)));
    expect(hashes.size).toBe(1);
    const rows = await p.query<{ id: number; length: number }>(
      'SELECT id, length(secret) AS length FROM key_secret',
    );
    expect(rows).toEqual([{ id: 1, length: 64 }]);
  });

  test('with MESHLENS_KEYS_SECRET the database keeps only a fingerprint, and a replica without it or with another is refused', async () => {
    const fresh = await freshDatabase();
    const pool = await poolOn(fresh);
    const store = await PostgresKeyStore.open(pool, { env: { MESHLENS_KEYS_SECRET: SECRET_A } });
    const { key } = await store.create({ tenant: 'acme', role: 'reader' });
    const [row] = await pool.query<{ secret: string | null }>('SELECT secret FROM key_secret');
    expect(row).toEqual({ secret: null });
    const dump = JSON.stringify(await pool.query('SELECT * FROM key_secret'));
    expect(dump).not.toContain(SECRET_A);
    await expect(PostgresKeyStore.open(pool, { env: {} })).rejects.toThrow(
      `the keys in ${fresh.store.displayUrl} were made with MESHLENS_KEYS_SECRET; set it here too, to the same value as on the other replicas`,
    );
    await expect(PostgresKeyStore.open(pool, { env: { MESHLENS_KEYS_SECRET: SECRET_B } })).rejects.toThrow(
      `MESHLENS_KEYS_SECRET is not the secret the keys in ${fresh.store.displayUrl} were made with; set the same value on every replica and wherever keys are created, or unset it everywhere to use the one the database keeps`,
    );
    const again = await PostgresKeyStore.open(pool, { env: { MESHLENS_KEYS_SECRET: SECRET_A } });
    const authenticate = createAuthenticator(again);
    expect(await authenticate(`Bearer ${key}`, T0)).toMatchObject({ ok: true });
  });
});

describe('PostgresKeyStore', () => {
  test('creates, lists, finds and revokes keys; the tenant is listed; the text is never stored', async () => {
    let now = new Date(T0);
    const store = await PostgresKeyStore.open(a, { env: {}, now: () => now });
    const first = await store.create({
      tenant: 'acme',
      role: 'reader',
      label: 'ci bot',
      rate: '5/s',
      daily: 100,
      expiresAt: new Date('2099-12-31T00:00:00Z'),
    });
    const second = await store.create({ tenant: 'globex', role: 'admin' });
    expect(first.record).toEqual({
      id: 1,
      prefix: first.key.slice(0, 11),
      tenant: 'acme',
      role: 'reader',
      label: 'ci bot',
      rate: '5/s',
      daily: 100,
      createdAt: '2026-12-01T10:00:00.000Z',
      expiresAt: '2099-12-31T00:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
    });
    expect((await store.list()).map((k) => [k.id, k.tenant, k.role])).toEqual([
      [1, 'acme', 'reader'],
      [2, 'globex', 'admin'],
    ]);
    expect(await a.query('SELECT name FROM tenants ORDER BY name')).toEqual([
      { name: 'acme' },
      { name: 'globex' },
    ]);
    const dump = JSON.stringify(await a.query('SELECT * FROM api_keys'));
    expect(dump.includes(first.key) || dump.includes(first.key.slice(11))).toBe(false);
    expect((await store.find(second.record.prefix))?.id).toBe(2);
    expect((await store.find('2'))?.prefix).toBe(second.record.prefix);
    expect(await store.find('999999999999999')).toBeUndefined();
    expect(await store.find('ml_00000000')).toBeUndefined();
    now = new Date(T0 + 1000);
    expect((await store.revoke(2))?.revokedAt).toBe('2026-12-01T10:00:01.000Z');
    now = new Date(T0 + 5000);
    expect((await store.revoke(2))?.revokedAt).toBe('2026-12-01T10:00:01.000Z');
    expect(await store.revoke(99)).toBeUndefined();
  });

  test('a key created on one replica works on the other; revoked there, it is refused here on the next request', async () => {
    const onA = await PostgresKeyStore.open(a, { env: {} });
    const onB = await PostgresKeyStore.open(b, { env: {} });
    const { key, record } = await onA.create({ tenant: 'acme', role: 'reader' });
    const authenticate = createAuthenticator(onB);
    expect(await authenticate(`Bearer ${key}`, T0)).toMatchObject({
      ok: true,
      principal: { keyId: record.id },
    });
    await onA.revoke(record.id);
    const revokedAt = (await onA.find(record.prefix))?.revokedAt ?? '';
    expect(await authenticate(`Bearer ${key}`, T0)).toEqual({
      ok: false,
      status: 401,
      message: AUTH_MESSAGES.revoked(revokedAt),
    });
    const unknown = `ml_${'f'.repeat(48)}`;
    const wrongSecret = `${key.slice(0, 11)}${'0'.repeat(40)}`;
    for (const header of [unknown, wrongSecret])
      expect(await authenticate(`Bearer ${header}`, T0)).toEqual({
        ok: false,
        status: 401,
        message: AUTH_MESSAGES.rejected,
      });
  });

  test('an expired key is refused, and only active keys turn authentication on', async () => {
    const fresh = await freshDatabase();
    const pool = await poolOn(fresh);
    let now = new Date(T0);
    const store = await PostgresKeyStore.open(pool, { env: {}, now: () => now });
    expect(await store.hasActiveKey(T0)).toBe(false);
    const { key, record } = await store.create({
      tenant: 'acme',
      role: 'reader',
      expiresAt: new Date(T0 + 60_000),
    });
    expect(await store.hasActiveKey(T0)).toBe(true);
    expect(await store.hasActiveKey(T0 + 60_000)).toBe(false);
    const authenticate = createAuthenticator(store);
    expect(await authenticate(`Bearer ${key}`, T0 + 60_000)).toEqual({
      ok: false,
      status: 401,
      message: AUTH_MESSAGES.expired('2026-12-01T10:01:00.000Z'),
    });
    now = new Date(T0 + 1000);
    const other = await store.create({ tenant: 'acme', role: 'reader' });
    await store.revoke(other.record.id);
    expect(await store.hasActiveKey(T0 + 60_000)).toBe(false);
    expect(record.id).toBe(1);
  });

  test('last use is written at most once a minute per key', async () => {
    const store = await PostgresKeyStore.open(a, { env: {} });
    const { record } = await store.create({ tenant: 'acme', role: 'reader' });
    const lastUsed = async () => (await store.find(record.prefix))?.lastUsedAt;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
    store.touch(record.id, T0);
    await settle();
    expect(await lastUsed()).toBe('2026-12-01T10:00:00.000Z');
    store.touch(record.id, T0 + 59_000);
    await settle();
    expect(await lastUsed()).toBe('2026-12-01T10:00:00.000Z');
    store.touch(record.id, T0 + 61_000);
    await settle();
    expect(await lastUsed()).toBe('2026-12-01T10:01:01.000Z');
  });
});

describe('PostgresUsageCounter', () => {
  test('a daily quota of 10 admits exactly 10 of 40 calls made at once through two replicas', async () => {
    const counters = [new PostgresUsageCounter(a), new PostgresUsageCounter(b)];
    const store = await PostgresKeyStore.open(a, { env: {} });
    const { record } = await store.create({ tenant: 'initech', role: 'reader', daily: 10 });
    const subject = `key:${record.id}`;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => counters[i % 2]!.admitCall(subject, '2026-12-01', 10)),
    );
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(10);
    expect(await a.query('SELECT calls, refusals FROM key_usage WHERE subject = $1', [subject])).toEqual([
      { calls: 10, refusals: 30 },
    ]);
    expect((await counters[1]!.admitCall(subject, '2026-12-02', 10)).admitted).toBe(true);
    expect(await counters[0]!.admitCall('local', '2026-12-01', undefined)).toEqual({ admitted: true });
    expect(await counters[0]!.admitCall('local', '2026-12-01', 0)).toEqual({ admitted: false });
    const usage = await counters[0]!.usage('2026-12-01');
    expect(usage.filter((row) => row.subject === subject || row.subject === 'local')).toEqual([
      { subject, prefix: record.prefix, tenant: 'initech', calls: 11, refusals: 30 },
      { subject: 'local', prefix: null, tenant: null, calls: 1, refusals: 1 },
    ]);
    expect((await counters[0]!.usage('2026-12-02')).find((row) => row.subject === subject)?.calls).toBe(1);
  });

  test('the admitter over it refuses the call after the quota with the time to the next UTC day', async () => {
    const admitter = createAdmitter({
      limits: { roles: { reader: { daily: 2 } } },
      usage: new PostgresUsageCounter(b),
    });
    const key = { kind: 'key', keyId: 4242, prefix: 'ml_00004242', tenant: 'acme', role: 'reader' } as const;
    const at = Date.parse('2026-12-03T23:59:00Z');
    expect(await admitter.admit(key, at)).toEqual({ ok: true });
    expect(await admitter.admit(key, at)).toEqual({ ok: true });
    expect(await admitter.admit(key, at)).toEqual({
      ok: false,
      retryAfterSeconds: 60,
      message:
        'Daily quota reached for key ml_00004242 (2 calls per UTC day). Retry after 60 s, when the day ends.',
    });
  });
});
