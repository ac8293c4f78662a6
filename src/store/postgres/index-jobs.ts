/**
 * Index jobs: which replica builds a workspace's index. A replica takes the job by locking its row with
 * `SELECT … FOR UPDATE SKIP LOCKED` in a transaction it keeps open on a connection of its own for the whole
 * run; others find the row locked and wait. The lock is the claim: a replica that dies loses its connection,
 * PostgreSQL rolls the transaction back, and the next replica to ask gets the job. Nothing has to expire.
 */
import type { PoolClient } from 'pg';
import type { PostgresPool } from './pool.js';
import type { FactScope } from './shared-facts.js';

type Warn = { warn(obj: object, msg: string): void };

/** One run of a job, as `index_runs` records it. */
export interface IndexRun {
  readonly id: number;
  readonly replica: string;
  readonly state: 'running' | 'done' | 'abandoned' | 'failed';
  readonly startedAt: string;
  readonly heartbeatAt: string;
  /** Since the last heartbeat, by the database's clock (replicas' clocks may differ). */
  readonly heartbeatAgeMs: number;
  readonly finishedAt: string | null;
  readonly progress: { readonly done: number; readonly total: number };
  readonly inputsFingerprint: string | null;
  readonly files: number | null;
  readonly parsed: number | null;
  readonly pulled: number | null;
  readonly uploaded: number | null;
}

/** What a finished run produced: the job's new snapshot. */
export interface RunResult {
  readonly inputsFingerprint: string;
  readonly files: number;
  readonly parsed: number;
  readonly pulled: number;
  readonly uploaded: number;
}

interface RunRow {
  id: string;
  replica: string;
  state: IndexRun['state'];
  started_at: Date;
  heartbeat_at: Date;
  heartbeat_age_ms: number;
  finished_at: Date | null;
  progress_done: number;
  progress_total: number;
  inputs_fingerprint: string | null;
  files: number | null;
  parsed: number | null;
  pulled: number | null;
  uploaded: number | null;
}

const RUN_COLUMNS =
  'id, replica, state, started_at, heartbeat_at, finished_at, progress_done, progress_total, ' +
  'inputs_fingerprint, files, parsed, pulled, uploaded, ' +
  '(extract(epoch FROM now() - heartbeat_at) * 1000)::int AS heartbeat_age_ms';

function runOf(row: RunRow): IndexRun {
  return {
    id: Number(row.id),
    replica: row.replica,
    state: row.state,
    startedAt: row.started_at.toISOString(),
    heartbeatAt: row.heartbeat_at.toISOString(),
    heartbeatAgeMs: row.heartbeat_age_ms,
    finishedAt: row.finished_at?.toISOString() ?? null,
    progress: { done: row.progress_done, total: row.progress_total },
    inputsFingerprint: row.inputs_fingerprint,
    files: row.files,
    parsed: row.parsed,
    pulled: row.pulled,
    uploaded: row.uploaded,
  };
}

/**
 * The claim's transaction is idle for the whole run: a server-wide `idle_in_transaction_session_timeout`
 * must not end it, and keepalives let the server notice within about a minute a replica whose machine
 * vanished (a killed process closes its socket, which the server notices at once).
 */
const CLAIM_SETTINGS = [
  'SET LOCAL idle_in_transaction_session_timeout = 0',
  'SET LOCAL tcp_keepalives_idle = 30',
  'SET LOCAL tcp_keepalives_interval = 10',
  'SET LOCAL tcp_keepalives_count = 3',
];

export class IndexJobs {
  constructor(
    private readonly pool: PostgresPool,
    readonly scope: FactScope,
    private readonly logger: Warn,
  ) {}

  /** Takes the job when no replica holds it; undefined when one does. */
  async tryLock(): Promise<JobLock | undefined> {
    await this.pool.query(
      'INSERT INTO index_jobs (tenant, workspace) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [this.scope.tenant, this.scope.workspace],
    );
    const client = await this.pool.connect();
    // The pool already logs a checked-out client that breaks; this says what it means here.
    const onError = (error: Error) =>
      this.logger.warn(
        { err: error.message },
        'the connection holding the index job broke; the job is released',
      );
    client.on('error', onError);
    let held = false;
    try {
      await client.query('BEGIN');
      for (const setting of CLAIM_SETTINGS) await client.query(setting);
      const { rows } = await client.query<{ snapshot_run: string | null }>(
        `SELECT snapshot_run FROM index_jobs WHERE tenant = $1 AND workspace = $2 FOR UPDATE SKIP LOCKED`,
        [this.scope.tenant, this.scope.workspace],
      );
      const row = rows[0];
      if (!row) return undefined;
      held = true;
      const snapshotRun = row.snapshot_run === null ? null : Number(row.snapshot_run);
      return new JobLock(this.pool, client, this.scope, snapshotRun, () => client.off('error', onError));
    } catch (error) {
      throw this.pool.translated(error);
    } finally {
      if (!held) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.off('error', onError);
        client.release();
      }
    }
  }

  /** The job's snapshot (its last finished run) and the newest run still marked running, if any. */
  async state(): Promise<{ snapshot: IndexRun | undefined; running: IndexRun | undefined }> {
    const rows = await this.pool.query<RunRow & { is_snapshot: boolean }>(
      `SELECT ${RUN_COLUMNS}, r.id = j.snapshot_run AS is_snapshot
         FROM index_runs r JOIN index_jobs j ON j.tenant = r.tenant AND j.workspace = r.workspace
        WHERE r.tenant = $1 AND r.workspace = $2 AND (r.id = j.snapshot_run OR r.state = 'running')
        ORDER BY r.id`,
      [this.scope.tenant, this.scope.workspace],
    );
    const snapshot = rows.find((row) => row.is_snapshot);
    const running = rows.filter((row) => row.state === 'running').at(-1);
    return { snapshot: snapshot && runOf(snapshot), running: running && runOf(running) };
  }

  /** Every run of the job, newest first (status, tests). */
  async runs(limit = 20): Promise<IndexRun[]> {
    const rows = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM index_runs WHERE tenant = $1 AND workspace = $2 ORDER BY id DESC LIMIT $3`,
      [this.scope.tenant, this.scope.workspace, limit],
    );
    return rows.map(runOf);
  }
}

/** The job, locked by this replica until it finishes the run or lets go. */
export class JobLock {
  private run: number | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private beat: Promise<unknown> = Promise.resolve();
  private ended = false;

  constructor(
    private readonly pool: PostgresPool,
    private readonly client: PoolClient,
    private readonly scope: FactScope,
    /** The job's snapshot when the lock was taken: a waiter compares it with the one it saw before. */
    readonly snapshotRun: number | null,
    private readonly detach: () => void,
  ) {}

  /**
   * Records a run as started by `replica`. Runs still marked running are the leftovers of replicas that died
   * holding the job (the lock proves none of them holds it now): they are marked abandoned.
   */
  async begin(
    replica: string,
    progress: () => { done: number; total: number } | undefined,
    heartbeatMs = 2000,
  ): Promise<number> {
    await this.pool.query(
      `UPDATE index_runs SET state = 'abandoned', finished_at = now()
        WHERE tenant = $1 AND workspace = $2 AND state = 'running'`,
      [this.scope.tenant, this.scope.workspace],
    );
    const rows = await this.pool.query<{ id: string }>(
      `INSERT INTO index_runs (tenant, workspace, replica, state) VALUES ($1, $2, $3, 'running') RETURNING id`,
      [this.scope.tenant, this.scope.workspace, replica],
    );
    const run = Number(rows[0]?.id);
    this.run = run;
    this.heartbeat = setInterval(() => {
      const now = progress() ?? { done: 0, total: 0 };
      this.beat = this.pool
        .query(
          `UPDATE index_runs SET heartbeat_at = now(), progress_done = $2, progress_total = $3
            WHERE id = $1 AND state = 'running'`,
          [run, now.done, now.total],
        )
        .catch(() => undefined);
    }, heartbeatMs);
    this.heartbeat.unref();
    return run;
  }

  /** Records the run as the job's snapshot and lets go of the job, in one transaction. */
  async finish(result: RunResult): Promise<void> {
    await this.stopBeating();
    try {
      // Not now(): inside this transaction that is when the lock was taken, before the run.
      await this.client.query(
        `UPDATE index_runs SET state = 'done', finished_at = clock_timestamp(), heartbeat_at = clock_timestamp(),
                progress_done = $2, progress_total = $2, inputs_fingerprint = $3, files = $2,
                parsed = $4, pulled = $5, uploaded = $6
          WHERE id = $1`,
        [this.run, result.files, result.inputsFingerprint, result.parsed, result.pulled, result.uploaded],
      );
      await this.client.query(
        'UPDATE index_jobs SET snapshot_run = $3 WHERE tenant = $1 AND workspace = $2',
        [this.scope.tenant, this.scope.workspace, this.run],
      );
      await this.client.query('COMMIT');
      this.end(false);
    } catch (error) {
      this.end(true);
      throw this.pool.translated(error);
    }
  }

  /** Lets go of the job without a snapshot; a started run is recorded as failed, with why. */
  async release(failure?: string): Promise<void> {
    if (this.ended) return;
    await this.stopBeating();
    if (this.run !== undefined) {
      await this.pool
        .query(`UPDATE index_runs SET state = 'failed', finished_at = now(), failure = $2 WHERE id = $1`, [
          this.run,
          failure ?? 'stopped',
        ])
        .catch(() => undefined);
    }
    const rolledBack = await this.client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    this.end(!rolledBack);
  }

  private async stopBeating(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.beat;
  }

  private end(broken: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.detach();
    this.client.release(broken);
  }
}
