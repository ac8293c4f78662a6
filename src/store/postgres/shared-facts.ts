/**
 * The facts every replica of a workspace shares: rows keyed like the local fact cache and stored in its
 * encoding, so that they move between a replica's SQLite cache and PostgreSQL without being decoded.
 */
import type { RawFact } from '../fact-cache-encoding.js';
import type { PostgresPool } from './pool.js';

/** Whose facts: the tenant and the workspace name (replicas of one workspace use the same name). */
export interface FactScope {
  readonly tenant: string;
  readonly workspace: string;
}

/** Keys per statement: large enough to be one round trip per few thousand files, small enough to stream. */
const KEYS_PER_QUERY = 2000;

const hexKeys = (keys: readonly string[]): Buffer[] => keys.map((key) => Buffer.from(key, 'hex'));

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

export class SharedFacts {
  constructor(
    private readonly pool: PostgresPool,
    readonly scope: FactScope,
  ) {}

  /** The rows held for `keys` (those missing are simply absent). */
  async fetch(keys: readonly string[]): Promise<RawFact[]> {
    const found: RawFact[] = [];
    for (const part of chunks(keys, KEYS_PER_QUERY)) {
      const rows = await this.pool.query<{ key: string; kind: number; enc: number; value: Buffer }>(
        `SELECT encode(key, 'hex') AS key, kind, enc, value FROM shared_facts
          WHERE tenant = $1 AND workspace = $2 AND key = ANY($3::bytea[])`,
        [this.scope.tenant, this.scope.workspace, hexKeys(part)],
      );
      found.push(...rows);
    }
    return found;
  }

  /** Which of `keys` are held, without their values. */
  async present(keys: readonly string[]): Promise<Set<string>> {
    const held = new Set<string>();
    for (const part of chunks(keys, KEYS_PER_QUERY)) {
      const rows = await this.pool.query<{ key: string }>(
        `SELECT encode(key, 'hex') AS key FROM shared_facts
          WHERE tenant = $1 AND workspace = $2 AND key = ANY($3::bytea[])`,
        [this.scope.tenant, this.scope.workspace, hexKeys(part)],
      );
      for (const row of rows) held.add(row.key);
    }
    return held;
  }

  /** Stores rows in one statement; a key already held keeps its row (the same key means the same facts). */
  async upload(rows: readonly RawFact[]): Promise<number> {
    if (rows.length === 0) return 0;
    const inserted = await this.pool.query<{ n: number }>(
      `WITH added AS (
         INSERT INTO shared_facts (tenant, workspace, key, kind, enc, value)
         SELECT $1, $2, r.key, r.kind, r.enc, r.value
           FROM unnest($3::bytea[], $4::int2[], $5::int2[], $6::bytea[]) AS r (key, kind, enc, value)
         ON CONFLICT DO NOTHING RETURNING 1)
       SELECT count(*)::int AS n FROM added`,
      [
        this.scope.tenant,
        this.scope.workspace,
        hexKeys(rows.map((row) => row.key)),
        rows.map((row) => row.kind),
        rows.map((row) => row.enc),
        rows.map((row) => row.value),
      ],
    );
    return inserted[0]?.n ?? 0;
  }

  /** How many facts the workspace holds (status, tests). */
  async count(): Promise<number> {
    const rows = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM shared_facts WHERE tenant = $1 AND workspace = $2',
      [this.scope.tenant, this.scope.workspace],
    );
    return rows[0]?.n ?? 0;
  }
}
