/**
 * What only the PostgreSQL notes store has to show: tenants kept apart in one table, replicas on one
 * database, and a database that goes away and comes back (through a TCP relay, or with its connections
 * ended by pg_terminate_backend; the shared server itself is never stopped).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoteWrite } from '../../src/core/notes.js';
import { Registry } from '../../src/core/registry.js';
import { languageSpec } from '../../src/index/languages/registry.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import type { MeshServices } from '../../src/ops/services.js';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { PostgresNotesStore } from '../../src/store/postgres/notes-store.js';
import { PostgresPool } from '../../src/store/postgres/pool.js';
import { parseStoreUrl } from '../../src/store/postgres/store-url.js';
import { fakeIndex } from '../helpers/fake-index.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

const note = (key: string, value: string, tags: string[] = []): NoteWrite => ({
  key,
  value,
  tags,
  author: 'test',
});

let db: TestDatabase;
const pools: PostgresPool[] = [];

beforeAll(async () => {
  db = await createTestDatabase('pgnotes');
  await migratePostgres(db.store);
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await db.drop();
});

async function pool(store = db.store): Promise<PostgresPool> {
  const opened = await PostgresPool.open({ store, max: 4 });
  pools.push(opened);
  return opened;
}

async function sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL notes', () => {
  it("keeps another tenant's notes of the same workspace invisible, and records the tenants seen", async () => {
    const shared = await pool();
    const acme = new PostgresNotesStore(shared, { tenant: 'acme', workspace: 'w' });
    const globex = new PostgresNotesStore(shared, { tenant: 'globex', workspace: 'w' });
    const pin = { kind: 'file', path: 'a.ts', hash: 'h' } as const;
    await acme.put({ ...note('deploy/orders', 'acme drains first', ['ops']), pin });
    await globex.put({ ...note('deploy/orders', 'globex never drains', ['ops']), pin });
    await globex.put({ ...note('deploy/secret-plan', 'globex merger', ['ops']), pin });

    expect((await acme.get('deploy/orders'))?.value).toBe('acme drains first');
    expect(await acme.get('deploy/secret-plan')).toBeUndefined();
    expect(await acme.list({ tag: 'ops', offset: 0, limit: 10 })).toMatchObject({
      total: 1,
      notes: [{ key: 'deploy/orders', value: 'acme drains first' }],
    });
    expect(await acme.search({ words: ['globex', 'merger'], offset: 0, limit: 10 })).toEqual({
      hits: [],
      total: 0,
    });
    expect(await acme.keys('deploy/', 10)).toEqual(['deploy/orders']);
    expect((await acme.pinned()).map((n) => n.value)).toEqual(['acme drains first']);
    expect(await acme.delete('deploy/secret-plan')).toBe(false);
    expect(await globex.keys('', 10)).toEqual(['deploy/orders', 'deploy/secret-plan']);

    const rows = await sql<{ tenant: string; n: number }>(
      'SELECT tenant, count(*)::int AS n FROM notes GROUP BY tenant ORDER BY tenant',
    );
    expect(rows).toEqual([
      { tenant: 'acme', n: 1 },
      { tenant: 'globex', n: 2 },
    ]);
    expect(
      (await sql<{ name: string }>('SELECT name FROM tenants ORDER BY name')).map((r) => r.name),
    ).toEqual(['acme', 'globex']);
    expect(acme.location).toBe(`${db.store.displayUrl} (tenant acme, workspace w)`);
  });

  it('keeps keys in the "C" collation, so the order is the same whatever the database locale', async () => {
    const [column] = await sql<{ collation_name: string }>(
      "SELECT collation_name FROM information_schema.columns WHERE table_name = 'notes' AND column_name = 'key'",
    );
    expect(column?.collation_name).toBe('C');
  });

  it("two replicas (two pools on one database) see each other's writes and deletes at once", async () => {
    const one = new PostgresNotesStore(await pool(), { tenant: 't', workspace: 'replicas' });
    const two = new PostgresNotesStore(await pool(), { tenant: 't', workspace: 'replicas' });
    const written = await one.put(note('shared', 'written by one'));
    expect(await two.get('shared')).toEqual(written.note);
    const rewritten = await two.put(note('shared', 'rewritten by two'));
    expect(rewritten.created).toBe(false);
    expect(
      (await one.search({ words: ['rewritten'], offset: 0, limit: 10 })).hits.map((h) => h.note),
    ).toEqual([rewritten.note]);
    expect(rewritten.note.createdAt).toBe(written.note.createdAt);
    expect(await one.delete('shared')).toBe(true);
    expect(await two.list({ offset: 0, limit: 10 })).toEqual({ notes: [], total: 0 });
  });

  it('answers a put while the database is unreachable with what happened, and recovers once it is back', async () => {
    const relay = await startTcpRelay({ host: '127.0.0.1', port: Number(new URL(db.url).port || 5432) });
    const url = new URL(db.url);
    url.port = String(relay.port);
    const store = parseStoreUrl(url.href);
    if (store.kind !== 'postgres') throw new Error('expected postgres');
    const notes = new PostgresNotesStore(await pool(store), { tenant: 't', workspace: 'outage' });
    const registry = new Registry<MeshServices>({
      operations: OPERATIONS,
      services: { index: fakeIndex(), languages: languageSpec, notes: () => Promise.resolve(notes) },
    });
    const client = await connectClient(registry, 'domain');
    const put = async (key: string) => {
      const result = await client.callTool({ name: 'memory_put', arguments: { key, value: `about ${key}` } });
      return { isError: result.isError === true, text: textOf(result) };
    };
    try {
      expect(await put('before')).toMatchObject({ isError: false });
      await relay.down();
      const refused = `the PostgreSQL store at ${store.displayUrl} cannot be reached (connect ECONNREFUSED 127.0.0.1:${relay.port}); calls that need it fail until it is back, then recover by themselves`;
      expect(await put('during')).toEqual({ isError: true, text: refused });
      const read = await client.callTool({ name: 'memory', arguments: { mode: 'get', key: 'before' } });
      expect({ isError: read.isError, text: textOf(read) }).toEqual({ isError: true, text: refused });
      await relay.up();
      expect(await put('after')).toMatchObject({ isError: false });
      expect(await notes.keys('', 10)).toEqual(['after', 'before']);
    } finally {
      await client.close();
      await relay.down();
    }
  });

  it('works on after every connection of its database is ended (as a restart ends them)', async () => {
    const notes = new PostgresNotesStore(await pool(), { tenant: 't', workspace: 'terminated' });
    for (let round = 0; round < 10; round++) {
      // Four connections in the pool, all ended, then four calls at once.
      await Promise.all([0, 1, 2, 3].map((i) => notes.put(note(`k${i}`, `round ${round}`))));
      const ended = await sql<{ ended: boolean }>(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [db.name],
      );
      expect(ended.length).toBeGreaterThan(0);
      const again = await Promise.all([0, 1, 2, 3].map((i) => notes.put(note(`k${i}`, `round ${round}`))));
      expect(again.map((r) => r.created)).toEqual([false, false, false, false]);
    }
  });
});
