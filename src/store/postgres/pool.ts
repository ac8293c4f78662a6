/**
 * One connection pool per process for the PostgreSQL store. `pg` is imported on first use, so that neither
 * stdio nor a SQLite-backed server ever loads it. A pool survives a database restart by itself: a client that
 * breaks is dropped (its error is logged, never thrown at the process) and the next query opens a new one.
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { StoreChoice } from './store-url.js';

type PostgresChoice = Extract<StoreChoice, { kind: 'postgres' }>;
type Warn = { warn(obj: object, msg: string): void };

export interface PostgresPoolOptions {
  readonly store: PostgresChoice;
  /** Shown in `pg_stat_activity`, so an operator can tell replicas apart. */
  readonly applicationName?: string;
  readonly max?: number;
  readonly logger?: Warn;
}

/** Connection errors that mean "the database is not there right now", as opposed to a bad query. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up or shutting down)
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** The store cannot be reached; the message says where and that calls recover once it is back. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** For a server that cannot start: what to fix, instead of "it recovers by itself". */
  readonly atStart: string;
  constructor(displayUrl: string, cause: unknown) {
    const where = `the PostgreSQL store at ${displayUrl} cannot be reached (${reasonOf(cause)})`;
    super(`${where}; calls that need it fail until it is back, then recover by themselves`, { cause });
    this.atStart = `${where}; start the database or correct --store (or MESHLENS_STORE, [server] store)`;
  }
}

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return /Connection terminated|connection timeout|terminating connection|Client has encountered a connection error/i.test(
    error.message,
  );
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}

export class PostgresPool {
  readonly displayUrl: string;
  private readonly pool: Pool;
  private readonly logger: Warn | undefined;

  private constructor(pool: Pool, displayUrl: string, logger: Warn | undefined) {
    this.pool = pool;
    this.displayUrl = displayUrl;
    this.logger = logger;
  }

  static async open(options: PostgresPoolOptions): Promise<PostgresPool> {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: options.store.url,
      max: options.max ?? 10,
      application_name: options.applicationName ?? 'meshlens',
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // Keeps a stuck statement from holding a call forever; the job lease uses its own timeouts.
      statement_timeout: 60_000,
    });
    // An idle client that loses its server emits here; without a listener the process would crash.
    pool.on('error', (error) =>
      options.logger?.warn({ err: error }, 'a PostgreSQL connection broke; it is replaced'),
    );
    return new PostgresPool(pool, options.store.displayUrl, options.logger);
  }

  /** Runs one statement; a lost connection becomes a `StoreUnavailableError`. */
  async query<R extends QueryResultRow>(sql: string, values: readonly unknown[] = []): Promise<R[]> {
    try {
      const result = await this.pool.query<R>(sql, values as unknown[]);
      return result.rows;
    } catch (error) {
      throw this.translated(error);
    }
  }

  /**
   * Runs `work` in one transaction on one client; it rolls back when `work` throws. `begin` may ask for
   * another isolation level or a read-only transaction.
   */
  async transaction<T>(work: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    const client = await this.connect();
    let broken = false;
    try {
      await client.query(begin);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isUnavailable(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw this.translated(error);
    } finally {
      client.release(broken);
    }
  }

  /**
   * A client of its own, for work that holds a lock across statements (the caller releases it). The pool
   * stops listening for a client's errors while it is checked out; a connection lost between two statements
   * would then be an unhandled error that ends the process. It is logged instead, and the next statement on
   * the client fails, which the caller handles.
   */
  async connect(): Promise<PoolClient> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.translated(error);
    }
    const onError = (error: Error) =>
      this.logger?.warn({ err: error }, 'a PostgreSQL connection in use broke; it is replaced');
    client.on('error', onError);
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      client.removeListener('error', onError);
      release(error);
    };
    return client;
  }

  translated(error: unknown): unknown {
    if (error instanceof StoreUnavailableError) return error;
    return isUnavailable(error) ? new StoreUnavailableError(this.displayUrl, error) : error;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
