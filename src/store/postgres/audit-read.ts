/**
 * Reading the PostgreSQL audit chains: `audit verify` walks a tenant's chain with the same checks as the
 * SQLite log's, and `stats` reads rows. Each reads one snapshot of the database (a repeatable-read
 * transaction), so replicas appending meanwhile cannot make rows and head disagree.
 */
import type { RawRow } from '../audit-hash.js';
import { auditRowOf, type AuditRow } from '../audit-rows.js';
import {
  Broken,
  ChainWalk,
  checkCount,
  checkHead,
  type VerifyOptions,
  type VerifyResult,
} from '../audit-walk.js';
import type { PostgresPool } from './pool.js';

const PAGE = 2_000;
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** One snapshot of the database: replicas appending meanwhile cannot make rows and head disagree. */
const SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** A row as the driver gives it, with its bigint id (text) made a number, as the SQLite log stores it. */
const rawOf = (row: RawRow): RawRow => ({ ...row, id: Number(row.id) });

/** The tenants that have a chain: a head, or rows (a chain whose head was removed still shows). */
export async function auditChains(pool: PostgresPool): Promise<string[]> {
  const rows = await pool.query<{ tenant: string }>(
    `SELECT tenant FROM (SELECT tenant FROM audit_head UNION SELECT tenant FROM audit_log) AS chains
     ORDER BY tenant COLLATE "C"`,
  );
  return rows.map((row) => row.tenant);
}

/**
 * Recomputes a tenant's chain from the genesis hash and checks that it ends where its head says; names the
 * first row that does not fit, or 0 for the chain as a whole. A tenant with neither rows nor head is
 * refused, never taken as an empty chain.
 */
export async function verifyPostgresAudit(
  pool: PostgresPool,
  tenant: string,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  let rows = 0;
  try {
    return await pool.transaction(async (client) => {
      const counted = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM audit_log WHERE tenant = $1',
        [tenant],
      );
      rows = Number(counted.rows[0]?.n ?? 0);
      const head = await client.query<RawRow>('SELECT last_id, last_hash FROM audit_head WHERE tenant = $1', [
        tenant,
      ]);
      if (rows === 0 && head.rows.length === 0)
        throw new Broken(0, `there is no audit chain for this tenant in ${pool.displayUrl}`);
      const walk = new ChainWalk(options.anchor);
      for (let after = 0; ;) {
        const page = await client.query<RawRow>(
          'SELECT * FROM audit_log WHERE tenant = $1 AND id > $2 ORDER BY id LIMIT $3',
          [tenant, after, PAGE],
        );
        for (const row of page.rows) walk.add(rawOf(row));
        if (page.rows.length < PAGE) break;
        after = walk.head.lastId;
      }
      checkHead(head.rows[0], walk.head);
      checkCount(rows, walk.walked);
      walk.end();
      return { ok: true as const, rows, head: walk.head };
    }, SNAPSHOT);
  } catch (error) {
    if (error instanceof Broken) return { ok: false, rows, firstBrokenRow: error.row, reason: error.message };
    if ((error as Error).name === 'StoreUnavailableError') throw error;
    return { ok: false, rows, firstBrokenRow: 0, reason: `cannot read the audit chain: ${errorText(error)}` };
  }
}

/** Rows of every chain (or one tenant's), in time order, from `sinceMs` on: what `stats` counts. */
export async function readPostgresAuditRows(
  pool: PostgresPool,
  options: { readonly sinceMs?: number; readonly tenant?: string } = {},
): Promise<AuditRow[]> {
  // Times are ISO-8601 UTC from toISOString(), which sorts lexically in time order.
  const since = options.sinceMs === undefined ? '' : new Date(options.sinceMs).toISOString();
  const rows = await pool.query<RawRow>(
    `SELECT * FROM audit_log WHERE time >= $1 AND ($2::text IS NULL OR tenant = $2)
     ORDER BY time COLLATE "C", tenant COLLATE "C", id`,
    [since, options.tenant ?? null],
  );
  return rows.map((row) => auditRowOf(rawOf(row)));
}
