import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migratePostgres, MIGRATIONS_TABLE } from '../../src/store/postgres/migrate.js';
import { postgresMigrationsDir } from '../../src/store/postgres/migrations-dir.js';
import { PostgresPool, StoreUnavailableError } from '../../src/store/postgres/pool.js';
import { parseStoreUrl, StoreUrlError } from '../../src/store/postgres/store-url.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('migrate');
});
afterAll(async () => {
  await db.drop();
});

const shipped = () =>
  readdirSync(postgresMigrationsDir())
    .map((file) => path.parse(file).name)
    .sort();

describe('PostgreSQL migrations', () => {
  test('two replicas migrating at once apply each migration once; a second run applies nothing', async () => {
    const [a, b] = await Promise.all([migratePostgres(db.store), migratePostgres(db.store)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(shipped());
    expect((await migratePostgres(db.store)).applied).toEqual([]);
    const pool = await PostgresPool.open({ store: db.store });
    const rows = await pool.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`);
    await pool.close();
    expect(rows.map((r) => r.name)).toEqual(shipped());
  });

  test('a database migrated by a newer version is refused with a message that says so', async () => {
    const newer = mkdtempSync(path.join(os.tmpdir(), 'meshlens-migrations-'));
    for (const file of readdirSync(postgresMigrationsDir()))
      copyFileSync(path.join(postgresMigrationsDir(), file), path.join(newer, file));
    writeFileSync(path.join(newer, '9999_from_the_future.sql'), '-- Up Migration\nSELECT 1;\n');
    await migratePostgres(db.store, newer);
    await expect(migratePostgres(db.store)).rejects.toThrow(
      /was migrated by another meshlens version \(it holds migration 9999_from_the_future\); run the same version on every replica/,
    );
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`DELETE FROM ${MIGRATIONS_TABLE} WHERE name = '9999_from_the_future'`);
    await client.end();
  });

  test('a server that is not there gives a clear error, with the password masked', async () => {
    const store = parseStoreUrl('postgres://someone:s3cret@127.0.0.1:1/meshlens');
    if (store.kind !== 'postgres') throw new Error('expected postgres');
    const error = await migratePostgres(store).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(
      /^the PostgreSQL store at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/meshlens cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:1\); calls that need it fail until it is back, then recover by themselves$/,
    );
    expect((error as Error).message).not.toContain('s3cret');
  });
});

describe('store URLs', () => {
  test('sqlite is the default; other schemes and URLs without a database are refused', () => {
    expect(parseStoreUrl(undefined)).toEqual({ kind: 'sqlite' });
    expect(parseStoreUrl('sqlite')).toEqual({ kind: 'sqlite' });
    expect(() => parseStoreUrl('mysql://h/db')).toThrow(
      'the store URL must start with postgres:// or postgresql:// (got mysql://); give `sqlite` for the local store',
    );
    expect(() => parseStoreUrl('postgres://h:5432')).toThrow(StoreUrlError);
    expect(() => parseStoreUrl('not a url :pw@')).toThrow(/is not a URL/);
  });
});
