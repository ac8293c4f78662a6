/**
 * The audit trail in PostgreSQL: one hash chain per tenant, which every replica appends to. An append locks
 * the chain's head row, chains its records onto the head and moves the head, all in one transaction, so
 * replicas append in turn and the chain stays one chain. Rows hash the same fields as the SQLite log
 * (audit-hash.ts), so one verifier checks both.
 *
 * A call's answer never waits for its record: records queue in memory and are written together, in order.
 * While the database cannot be reached they stay queued (up to `maxQueued`, then newer ones are dropped,
 * with a warning) and are written once it is back; the log says when writing stopped and when it resumed.
 */
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { AuditRecord, AuditSink } from '../../trust/audit.js';
import { auditFieldsOf, type AuditFields } from '../audit-fields.js';
import { CHAIN_VERSION, GENESIS_HASH, rowHash, type ChainHead } from '../audit-hash.js';
import type { PostgresPool } from './pool.js';

type Log = { warn(obj: object, msg: string): void };

export interface PostgresAuditOptions {
  /** Whose chain the records go to (`LOCAL_TENANT` for a server without tenants). */
  readonly tenant: string;
  readonly logger?: Log;
  /** Records kept while the database is away; the default holds several minutes of a busy server. */
  readonly maxQueued?: number;
  /** The wait before the first retry, doubled after each failure up to `maxRetryMs`. */
  readonly firstRetryMs?: number;
  readonly maxRetryMs?: number;
}

/** A record as it will be stored, less what only the append can know (its id and the previous hash). */
interface Pending {
  readonly appendId: string;
  readonly fields: AuditFields;
}

const BATCH = 200;
const COLUMNS = [
  'tenant',
  'id',
  'time',
  'session',
  'operation',
  'argument_digest',
  'status',
  'elapsed_ms',
  'files_read',
  'redactions',
  'trace_id',
  'warning',
  'caller',
  'prev_hash',
  'hash',
  'chain_version',
  'append_id',
] as const;
const APPEND_ONCE = 'audit_log_append_once';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function pendingOf(entry: AuditRecord): Pending {
  return {
    appendId: randomUUID(),
    // The hash covers this stored form, so the row verifies as it is read.
    fields: auditFieldsOf(entry),
  };
}

/** A unique violation on the append id: a commit whose answer was lost had happened after all. */
const appendedAlready = (error: unknown): boolean =>
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === APPEND_ONCE;

export class PostgresAuditSink implements AuditSink {
  readonly tenant: string;
  private readonly pool: PostgresPool;
  private readonly logger: Log | undefined;
  private readonly maxQueued: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private queue: Pending[] = [];
  /** The batch of the last failed append, retried as it was so that its append ids tell a lost commit. */
  private inFlight: Pending[] | undefined;
  private draining: Promise<void> | undefined;
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private failingSince: number | undefined;
  private dropped = 0;
  private closed = false;

  constructor(pool: PostgresPool, options: PostgresAuditOptions) {
    this.pool = pool;
    this.tenant = options.tenant;
    this.logger = options.logger;
    this.maxQueued = options.maxQueued ?? 50_000;
    this.firstRetryMs = options.firstRetryMs ?? 250;
    this.maxRetryMs = options.maxRetryMs ?? 5_000;
    this.retryMs = this.firstRetryMs;
  }

  /** Records waiting to be written (the failed batch included). */
  get queued(): number {
    return this.queue.length + (this.inFlight?.length ?? 0);
  }

  /** Nothing to load: the pool is open already. Kept so that both audit trails start the same way. */
  load(): Promise<void> {
    return Promise.resolve();
  }

  /** Best effort, never throws, never waits: the record is written after the answer has gone. */
  record(entry: AuditRecord): void {
    if (this.closed) return;
    if (this.queued >= this.maxQueued) {
      if (this.dropped === 0)
        this.logger?.warn(
          { tenant: this.tenant, queued: this.queued },
          `audit queue full (${this.queued} records): new records are dropped until the store is back`,
        );
      this.dropped++;
      return;
    }
    this.queue.push(pendingOf(entry));
    if (this.scheduled || this.draining || this.retryTimer) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  /** Writes what is queued; resolves when the queue is empty or an append failed (a retry is then set). */
  flush(): Promise<void> {
    return this.drain();
  }

  private drain(): Promise<void> {
    this.draining ??= this.writeQueued().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async writeQueued(): Promise<void> {
    while (this.inFlight || this.queue.length > 0) {
      const batch = this.inFlight ?? this.queue.splice(0, BATCH);
      this.inFlight = batch;
      try {
        await this.pool.transaction((client) => this.append(client, batch));
      } catch (error) {
        if (!appendedAlready(error)) {
          this.failed(error);
          return;
        }
      }
      this.inFlight = undefined;
      this.recovered();
    }
  }

  /** Chains the batch onto the head, which stays locked until the transaction ends. */
  private async append(client: PoolClient, batch: readonly Pending[]): Promise<void> {
    let head = await lockHead(client, this.tenant);
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const pending of batch) {
      const row = {
        ...pending.fields,
        id: head.lastId + 1,
        prev_hash: head.lastHash,
        chain_version: CHAIN_VERSION,
      };
      const hash = rowHash(row);
      const stored: Record<string, unknown> = {
        ...row,
        tenant: this.tenant,
        hash,
        append_id: pending.appendId,
      };
      tuples.push(`(${COLUMNS.map((_, i) => `$${values.length + i + 1}`).join(', ')})`);
      values.push(...COLUMNS.map((column) => stored[column]));
      head = { lastId: row.id, lastHash: hash };
    }
    await client.query(`INSERT INTO audit_log (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values);
    await client.query('UPDATE audit_head SET last_id = $2, last_hash = $3 WHERE tenant = $1', [
      this.tenant,
      head.lastId,
      head.lastHash,
    ]);
  }

  private failed(error: unknown): void {
    if (this.failingSince === undefined) {
      this.failingSince = Date.now();
      this.logger?.warn(
        { err: error, tenant: this.tenant, queued: this.queued },
        `audit records are kept in memory (at most ${this.maxQueued}) and written when the store is back: ${errorText(error)}`,
      );
    }
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.drain();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
  }

  private recovered(): void {
    this.retryMs = this.firstRetryMs;
    if (this.failingSince === undefined || this.queued > 0) return;
    const seconds = Math.round((Date.now() - this.failingSince) / 100) / 10;
    const lost = this.dropped > 0 ? `; ${this.dropped} records were dropped when the queue was full` : '';
    this.logger?.warn(
      { tenant: this.tenant, dropped: this.dropped },
      `audit records written again after ${seconds} s (chain ${this.tenant})${lost}`,
    );
    this.failingSince = undefined;
    this.dropped = 0;
  }

  /**
   * Writes what is still queued, waiting at most `waitMs` for the store; what cannot be written by then is
   * lost, and the log says how many records.
   */
  async close(waitMs = 5_000): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([this.drain(), deadline]);
    clearTimeout(timer);
    if (this.queued > 0)
      this.logger?.warn(
        { tenant: this.tenant, lost: this.queued },
        `${this.queued} audit records were not written: the store at ${this.pool.displayUrl} could not be reached`,
      );
  }
}

/** Locks the tenant's head row (creating it at the genesis hash the first time) and returns it. */
async function lockHead(client: PoolClient, tenant: string): Promise<ChainHead> {
  const select = 'SELECT last_id, last_hash FROM audit_head WHERE tenant = $1 FOR UPDATE';
  let { rows } = await client.query<{ last_id: string; last_hash: string }>(select, [tenant]);
  if (rows.length === 0) {
    await client.query(
      'INSERT INTO audit_head (tenant, last_id, last_hash) VALUES ($1, 0, $2) ON CONFLICT (tenant) DO NOTHING',
      [tenant, GENESIS_HASH],
    );
    ({ rows } = await client.query<{ last_id: string; last_hash: string }>(select, [tenant]));
  }
  const [head] = rows;
  if (!head) throw new Error(`the audit head of ${tenant} was not there right after it was written`);
  return { lastId: Number(head.last_id), lastHash: head.last_hash };
}
