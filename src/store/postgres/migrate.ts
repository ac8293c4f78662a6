/**
 * Brings a PostgreSQL database to the schema this version needs, with the SQL files in
 * `migrations/postgres`. Replicas that start together wait on one advisory lock, so each migration runs
 * once. A database migrated by a newer version (a migration this one does not know) is refused: running on
 * a schema it does not understand could lose data.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { postgresMigrationsDir } from './migrations-dir.js';
import { isUnavailable, StoreUnavailableError } from './pool.js';
import type { StoreChoice } from './store-url.js';

type PostgresChoice = Extract<StoreChoice, { kind: 'postgres' }>;

export const MIGRATIONS_TABLE = 'meshlens_migrations';

export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
}

export interface MigrationResult {
  /** Names of the migrations this call applied (empty when the schema was current). */
  readonly applied: readonly string[];
}

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export async function migratePostgres(
  store: PostgresChoice,
  migrationsDir?: string,
): Promise<MigrationResult> {
  const { runner } = await import('node-pg-migrate');
  const dir = migrationsDir ?? postgresMigrationsDir();
  try {
    const ran = await runner({
      databaseUrl: store.url,
      dir,
      migrationsTable: MIGRATIONS_TABLE,
      direction: 'up',
      count: Infinity,
      singleTransaction: true,
      checkOrder: true,
      advisoryLockMode: 'wait',
      // It logs to the console by default; stdout is the MCP channel on stdio.
      logger: quiet,
      verbose: false,
    });
    await refuseUnknown(store, dir);
    return { applied: ran.map((m) => m.name) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/Not run migration .* is preceding already run migration/.test(message)) throw tooNew(store, message);
    throw isUnavailable(error) ? new StoreUnavailableError(store.displayUrl, error) : error;
  }
}

/** A migration recorded in the database that this version does not ship: a newer version got there first. */
async function refuseUnknown(store: PostgresChoice, dir: string): Promise<void> {
  const known = new Set(readdirSync(dir).map((file) => path.parse(file).name));
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`);
    const unknown = rows.map((row) => row.name).filter((name) => !known.has(name));
    if (unknown.length > 0) throw tooNew(store, `it holds migration ${unknown.join(', ')}`);
  } finally {
    await client.end();
  }
}

function tooNew(store: PostgresChoice, detail: string): SchemaTooNewError {
  return new SchemaTooNewError(
    `the database at ${store.displayUrl} was migrated by another meshlens version (${detail}); ` +
      'run the same version on every replica',
  );
}
