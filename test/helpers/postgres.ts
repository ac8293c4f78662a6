/**
 * A database of its own for each test file on the machine's PostgreSQL (127.0.0.1:5432, trust auth), dropped
 * afterwards. Tests use the real server: `MESHLENS_TEST_POSTGRES` names another admin URL if needed.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parseStoreUrl, type StoreChoice } from '../../src/store/postgres/store-url.js';

export const ADMIN_URL =
  process.env['MESHLENS_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  readonly store: Extract<StoreChoice, { kind: 'postgres' }>;
  /** Ends every other connection to it, then drops it. */
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `meshlens_${label.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`.toLowerCase();
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const store = parseStoreUrl(url.href);
  if (store.kind !== 'postgres') throw new Error('unreachable');
  return {
    name,
    url: url.href,
    store,
    drop: () =>
      admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}
