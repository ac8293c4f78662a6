/**
 * The two notes stores behind one face, so that one test runs against both: SQLite files under a data folder,
 * and the PostgreSQL team store in a database of the test file's own (created on first use, dropped by
 * `close`). Each `open` is one server: its own SQLite handle, or its own connection pool (a replica).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { NotesStore } from '../../src/core/notes.js';
import { SqliteNotesStore } from '../../src/store/notes-db.js';
import { notesDbPath, notesWorkspaceId } from '../../src/store/notes-paths.js';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { LOCAL_NOTES_TENANT, PostgresNotesStore } from '../../src/store/postgres/notes-store.js';
import { PostgresPool } from '../../src/store/postgres/pool.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

export type ClosableNotesStore = NotesStore & { close(): void | Promise<void> };

export interface NotesPlace {
  /** The workspace folder the notes are about. */
  readonly workspace: string;
  /** `MESHLENS_DATA_DIR` for SQLite; the PostgreSQL store ignores it (the database is the place). */
  readonly dataDir: string;
  readonly tenant?: string;
  readonly now?: () => Date;
}

export interface NotesBackend {
  readonly name: 'sqlite' | 'postgres';
  open(place: NotesPlace): Promise<ClosableNotesStore>;
  /** Every row of the notes table as JSON: what the store holds, whatever the answers say. */
  dump(store: NotesStore): Promise<string>;
  /** The value column of one row as stored. */
  storedValue(store: NotesStore, key: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export function sqliteBackend(): NotesBackend {
  const read = async <T>(store: NotesStore, work: (db: Database.Database) => T): Promise<T> => {
    const db = new Database(store.location, { readonly: true });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return {
    name: 'sqlite',
    open: (place) =>
      Promise.resolve(
        SqliteNotesStore.open({
          path: notesDbPath(place.workspace, { MESHLENS_DATA_DIR: place.dataDir }),
          workspace: notesWorkspaceId(place.workspace),
          ...(place.now ? { now: place.now } : {}),
        }),
      ),
    dump: (store) => read(store, (db) => JSON.stringify(db.prepare('SELECT * FROM notes').all())),
    storedValue: (store, key) =>
      read(
        store,
        (db) => db.prepare('SELECT value FROM notes WHERE key = ?').pluck().get(key) as string | undefined,
      ),
    close: () => Promise.resolve(),
  };
}

/** Readings of the clock a new SQLite notes file takes for its two migrations; skipped here to stamp alike. */
const SQLITE_MIGRATION_READINGS = 2;

export function postgresBackend(): NotesBackend {
  let database: Promise<TestDatabase> | undefined;
  const migrated = () =>
    (database ??= createTestDatabase('notes').then(async (db) => {
      await migratePostgres(db.store);
      return db;
    }));
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const db = await migrated();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'postgres',
    async open(place) {
      const db = await migrated();
      const pool = await PostgresPool.open({ store: db.store, max: 4 });
      if (place.now) for (let i = 0; i < SQLITE_MIGRATION_READINGS; i++) place.now();
      const store = new PostgresNotesStore(pool, {
        tenant: place.tenant ?? LOCAL_NOTES_TENANT,
        workspace: notesWorkspaceId(place.workspace),
        ...(place.now ? { now: place.now } : {}),
      });
      return Object.assign(store, { close: () => pool.close() });
    },
    dump: () =>
      admin(async (client) => JSON.stringify((await client.query('SELECT * FROM notes ORDER BY key')).rows)),
    storedValue: (_store, key) =>
      admin(
        async (client) =>
          (await client.query<{ value: string }>('SELECT value FROM notes WHERE key = $1', [key])).rows[0]
            ?.value,
      ),
    close: async () => (database ? (await database).drop() : undefined),
  };
}

/** Both stores, SQLite first; `describe.each` over this runs a suite against each. */
export const notesBackends = (): NotesBackend[] => [sqliteBackend(), postgresBackend()];
