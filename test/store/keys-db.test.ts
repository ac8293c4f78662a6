import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { hasKeyShape, prefixOfKey } from '../../src/core/api-key-format.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { KEYS_SCHEMA_VERSION } from '../../src/store/keys-migrations.js';
import { keysDbPath } from '../../src/store/keys-paths.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

const clock = (iso: string) => () => new Date(iso);
const NO_ENV = {};

function rawRows(file: string): Record<string, unknown>[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT * FROM api_keys ORDER BY id').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('the key store', () => {
  afterAll(() => removeTemps());

  it('lives in the data folder unless MESHLENS_KEYS_DB names a file', () => {
    expect(keysDbPath({ MESHLENS_DATA_DIR: '/srv/ml' })).toBe('/srv/ml/keys.db');
    expect(keysDbPath({ MESHLENS_DATA_DIR: '/srv/ml', MESHLENS_KEYS_DB: '/etc/ml/k.db' })).toBe(
      '/etc/ml/k.db',
    );
  });

  it('records its migration and keeps the file and the secret owner-only', () => {
    const file = path.join(tempDir(), 'data', 'keys.db');
    SqliteKeyStore.open({ path: file, now: clock('2026-12-01T10:00:00Z'), env: NO_ENV }).close();
    SqliteKeyStore.open({ path: file, now: clock('2026-12-01T11:00:00Z'), env: NO_ENV }).close();
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT version, name, applied_at FROM schema_migrations').all()).toEqual([
        { version: 1, name: 'api keys and their daily usage', applied_at: '2026-12-01T10:00:00.000Z' },
      ]);
    } finally {
      db.close();
    }
    expect(KEYS_SCHEMA_VERSION).toBe(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.secret`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${file}.secret`, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('creates a key, shows it once, and stores only its prefix and a keyed hash', () => {
    const file = path.join(tempDir(), 'keys.db');
    const store = SqliteKeyStore.open({ path: file, now: clock('2026-12-01T10:00:00Z'), env: NO_ENV });
    const { key, record } = store.create({
      tenant: 'acme',
      role: 'reader',
      label: 'ci bot',
      expiresAt: new Date('2026-12-31T00:00:00Z'),
      rate: '5/s',
      daily: 1000,
    });
    store.close();
    expect(hasKeyShape(key)).toBe(true);
    expect(record).toEqual({
      id: 1,
      prefix: prefixOfKey(key),
      tenant: 'acme',
      role: 'reader',
      label: 'ci bot',
      rate: '5/s',
      daily: 1000,
      createdAt: '2026-12-01T10:00:00.000Z',
      expiresAt: '2026-12-31T00:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
    });
    const [row] = rawRows(file);
    expect(Object.keys(row ?? {}).sort()).toEqual(
      [
        'created_at',
        'daily',
        'expires_at',
        'hash',
        'id',
        'label',
        'last_used_at',
        'prefix',
        'rate',
        'revoked_at',
        'role',
        'tenant',
      ].sort(),
    );
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
    // Neither the key, nor its secret part, nor a plain digest of it is anywhere in the file.
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(key.slice(prefixOfKey(key).length))).toBe(false);
  });

  it('hashes with the installation secret: the same key hashes differently elsewhere', () => {
    const a = SqliteKeyStore.open({ path: path.join(tempDir(), 'a.db'), env: NO_ENV });
    const b = SqliteKeyStore.open({ path: path.join(tempDir(), 'b.db'), env: NO_ENV });
    const key = `ml_${'ab'.repeat(24)}`;
    expect(a.hash(key)).not.toBe(b.hash(key));
    expect(a.hash(key)).toBe(a.hash(key));
    a.close();
    b.close();
    const secret = 'cd'.repeat(32);
    const c = SqliteKeyStore.open({
      path: path.join(tempDir(), 'c.db'),
      env: { MESHLENS_KEYS_SECRET: secret },
    });
    const d = SqliteKeyStore.open({
      path: path.join(tempDir(), 'd.db'),
      env: { MESHLENS_KEYS_SECRET: secret },
    });
    expect(c.hash(key)).toBe(d.hash(key));
    c.close();
    d.close();
    expect(() =>
      SqliteKeyStore.open({ path: path.join(tempDir(), 'e.db'), env: { MESHLENS_KEYS_SECRET: 'short' } }),
    ).toThrow(
      'MESHLENS_KEYS_SECRET must be at least 64 hex digits (32 bytes); generate one with `openssl rand -hex 32`',
    );
  });

  it('lists keys in order, finds them by prefix or id, and revokes once', () => {
    let now = '2026-12-01T10:00:00Z';
    const store = SqliteKeyStore.open({
      path: path.join(tempDir(), 'keys.db'),
      now: () => new Date(now),
      env: NO_ENV,
    });
    const first = store.create({ tenant: 'acme', role: 'reader' });
    const second = store.create({ tenant: 'globex', role: 'admin', label: 'ops' });
    expect(store.list().map((k) => [k.id, k.prefix, k.tenant, k.role, k.label, k.revokedAt])).toEqual([
      [1, first.record.prefix, 'acme', 'reader', '', null],
      [2, second.record.prefix, 'globex', 'admin', 'ops', null],
    ]);
    expect(store.find(second.record.prefix)?.id).toBe(2);
    expect(store.find('1')?.prefix).toBe(first.record.prefix);
    expect(store.find('ml_00000000')).toBeUndefined();
    now = '2026-12-02T08:00:00Z';
    expect(store.revoke(1)?.revokedAt).toBe('2026-12-02T08:00:00.000Z');
    now = '2026-12-03T08:00:00Z';
    expect(store.revoke(1)?.revokedAt).toBe('2026-12-02T08:00:00.000Z');
    expect(store.list().map((k) => k.revokedAt)).toEqual(['2026-12-02T08:00:00.000Z', null]);
    store.close();
  });

  it('notes when a key was used, at most once a minute', () => {
    const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), env: NO_ENV });
    const { record } = store.create({ tenant: 'acme', role: 'reader' });
    const t0 = Date.parse('2026-12-01T10:00:00Z');
    store.touch(record.id, t0);
    store.touch(record.id, t0 + 30_000);
    expect(store.find(record.prefix)?.lastUsedAt).toBe('2026-12-01T10:00:00.000Z');
    store.touch(record.id, t0 + 61_000);
    expect(store.find(record.prefix)?.lastUsedAt).toBe('2026-12-01T10:01:01.000Z');
    store.close();
  });

  it('counts every admitted call and every refusal per subject and day, and keeps them across a reopen', () => {
    const file = path.join(tempDir(), 'keys.db');
    const store = SqliteKeyStore.open({ path: file, env: NO_ENV });
    const outcomes = Array.from({ length: 5 }, () => store.admitCall('key:1', '2026-12-01', 3).admitted);
    expect(outcomes).toEqual([true, true, true, false, false]);
    store.countRefusal('key:1', '2026-12-01');
    store.admitCall('local', '2026-12-01', undefined);
    store.close();
    const reopened = SqliteKeyStore.open({ path: file, env: NO_ENV });
    expect(reopened.admitCall('key:1', '2026-12-01', 3).admitted).toBe(false);
    expect(reopened.admitCall('key:1', '2026-12-02', 3).admitted).toBe(true);
    expect(reopened.usage('2026-12-01')).toEqual([
      { subject: 'key:1', prefix: null, tenant: null, calls: 4, refusals: 4 },
      { subject: 'local', prefix: null, tenant: null, calls: 1, refusals: 0 },
    ]);
    expect(reopened.usage('2026-12-02')).toEqual([
      { subject: 'key:1', prefix: null, tenant: null, calls: 1, refusals: 0 },
    ]);
    reopened.close();
  });
});
