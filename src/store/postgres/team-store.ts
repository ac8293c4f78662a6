/**
 * The team store as a running server holds it: one migrated PostgreSQL database behind one pool. Keys,
 * usage, audit, notes, facts and index jobs each have their own file here that takes this handle.
 */
import { migratePostgres } from './migrate.js';
import { PostgresPool } from './pool.js';
import type { StoreChoice } from './store-url.js';

type Warn = { warn(obj: object, msg: string): void };

/**
 * The tenant whose rows a server that serves no tenants (no `[server.tenants]`) keeps: its notes, its audit
 * chain. Tenant names start with a letter or digit, so no key's tenant can be this one and reach them.
 */
export const LOCAL_TENANT = '_local';

export interface TeamStore {
  readonly store: Extract<StoreChoice, { kind: 'postgres' }>;
  readonly pool: PostgresPool;
  /** Names this process in the database (index job claims, `pg_stat_activity`). */
  readonly replica: string;
  close(): Promise<void>;
}

/** Migrates the database (waiting for a replica that migrates it at the same time), then opens the pool. */
export async function openTeamStore(
  store: Extract<StoreChoice, { kind: 'postgres' }>,
  options: { readonly logger?: Warn; readonly replica?: string } = {},
): Promise<TeamStore> {
  await migratePostgres(store);
  const replica = options.replica ?? `meshlens-${process.pid}`;
  const pool = await PostgresPool.open({
    store,
    applicationName: replica,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return { store, pool, replica, close: () => pool.close() };
}
