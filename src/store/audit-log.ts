import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AuditRecord, AuditSink } from '../trust/audit.js';

/** The previous hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);
/** Which fields, in which order, a row's hash covers (see `rowHash`). Stored per row so the rule can evolve. */
export const CHAIN_VERSION = 1;
/** How long an append waits for another process holding the write lock. */
const BUSY_TIMEOUT_MS = 5_000;

export { auditDbPath } from './cache-paths.js';

export interface AuditRow {
  readonly id: number;
  readonly time: string;
  readonly session: string;
  readonly operation: string;
  readonly argumentDigest: string;
  /** As stored; normally one of `AuditRecord['status']`. */
  readonly status: string;
  readonly elapsedMs: number;
  readonly filesRead: readonly string[];
  readonly redactions: number;
  readonly traceId: string | undefined;
  readonly warning: string | undefined;
  readonly prevHash: string;
  readonly hash: string;
  readonly chainVersion: number;
}

export interface AuditLogOptions {
  readonly path: string;
  readonly logger?: { warn(obj: object, msg: string): void };
}

export type VerifyResult =
  | { readonly ok: true; readonly rows: number }
  | { readonly ok: false; readonly rows: number; readonly firstBrokenRow: number; readonly reason: string };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_log (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  time            TEXT    NOT NULL,
  session         TEXT    NOT NULL,
  operation       TEXT    NOT NULL,
  argument_digest TEXT    NOT NULL,
  status          TEXT    NOT NULL,
  elapsed_ms      REAL    NOT NULL,
  files_read      TEXT    NOT NULL,
  redactions      INTEGER NOT NULL,
  trace_id        TEXT,
  warning         TEXT,
  prev_hash       TEXT    NOT NULL,
  hash            TEXT    NOT NULL,
  chain_version   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_log_time ON audit_log (time);
`;

/** A row as SQLite returns it. Values are `unknown` because a tampered row may hold anything. */
type RawRow = Readonly<Record<string, unknown>>;

/**
 * SHA-256 over the JSON array [previous hash, chain version, id, time, session, operation, argument digest,
 * status, elapsed ms, files read (the stored JSON text), redactions, trace id, warning]. JSON makes the field
 * boundaries unambiguous, and hashing the values exactly as stored means any edit to a stored byte shows.
 */
function rowHash(row: RawRow): string {
  const fields = [
    row.prev_hash,
    row.chain_version,
    row.id,
    row.time,
    row.session,
    row.operation,
    row.argument_digest,
    row.status,
    row.elapsed_ms,
    row.files_read,
    row.redactions,
    row.trace_id ?? null,
    row.warning ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

const finite = (n: number): number => (Number.isFinite(n) ? n : 0);
/**
 * SQLite stores UTF-8, so a lone UTF-16 surrogate would come back as U+FFFD and the row would no longer match
 * its hash; store (and hash) the string SQLite will give back.
 */
const text = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The hash-chained audit log: one row per operation call, appended by any number of processes. */
export class AuditLog implements AuditSink {
  /** Why the log is a no-op, when it could not be opened. */
  readonly warning: string | undefined;
  private db: Database.Database | undefined;
  private readonly append: ((entries: readonly AuditRecord[]) => void) | undefined;
  private readonly logger: AuditLogOptions['logger'];
  /** Set after a failed append so that a broken disk warns once, not on every call. */
  private failing = false;

  private constructor(
    db: Database.Database | undefined,
    warning: string | undefined,
    logger: AuditLogOptions['logger'],
  ) {
    this.db = db;
    this.warning = warning;
    this.logger = logger;
    if (!db) return;
    const last = db.prepare<[], { id: number; hash: string }>(
      'SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1',
    );
    // AUTOINCREMENT's counter survives deletions, so a deleted last row leaves a gap that verify reports.
    const seq = db.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").pluck();
    const insert = db.prepare(
      `INSERT INTO audit_log (id, time, session, operation, argument_digest, status, elapsed_ms, files_read,
         redactions, trace_id, warning, prev_hash, hash, chain_version)
       VALUES (@id, @time, @session, @operation, @argument_digest, @status, @elapsed_ms, @files_read,
         @redactions, @trace_id, @warning, @prev_hash, @hash, @chain_version)`,
    );
    const write = (entry: AuditRecord) => {
      const previous = last.get();
      const row = {
        id: Math.max(previous?.id ?? 0, seq.get() ?? 0) + 1,
        time: text(entry.time),
        session: text(entry.session),
        operation: text(entry.operation),
        argument_digest: text(entry.argumentDigest),
        status: text(entry.status),
        elapsed_ms: finite(entry.elapsedMs),
        files_read: JSON.stringify(entry.filesRead.map(text)),
        redactions: Math.trunc(finite(entry.redactions)),
        trace_id: entry.traceId === undefined ? null : text(entry.traceId),
        warning: entry.warning === undefined ? null : text(entry.warning),
        prev_hash: previous?.hash ?? GENESIS_HASH,
        chain_version: CHAIN_VERSION,
      };
      insert.run({ ...row, hash: rowHash(row) });
    };
    const tx = db.transaction((entries: readonly AuditRecord[]) => entries.forEach(write));
    // BEGIN IMMEDIATE takes the write lock before reading the last hash, so two processes cannot both
    // chain onto the same row; the busy timeout makes the second one wait instead of failing.
    this.append = (entries) => tx.immediate(entries);
  }

  /** Never throws: a log that cannot be opened becomes a no-op sink and says why in `warning`. */
  static open(options: AuditLogOptions): AuditLog {
    const file = path.resolve(options.path);
    let db: Database.Database | undefined;
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Create the file 0600 before SQLite opens it, so it is never readable by others, not even briefly;
      // SQLite gives its -wal and -shm files the database file's mode.
      closeSync(openSync(file, 'a', 0o600));
      chmodSync(file, 0o600);
      db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(SCHEMA);
      return new AuditLog(db, undefined, options.logger);
    } catch (error) {
      try {
        db?.close();
      } catch {
        // Already unusable; the warning below is what matters.
      }
      const warning = `audit log disabled: cannot open ${file}: ${errorText(error)}`;
      options.logger?.warn({ err: error, path: file }, warning);
      return new AuditLog(undefined, warning, options.logger);
    }
  }

  /** Best effort, never throws. */
  record(entry: AuditRecord): void {
    this.recordAll([entry]);
  }

  /** Appends several records, in order, in one transaction (one lock, one commit). Never throws. */
  recordAll(entries: readonly AuditRecord[]): void {
    if (!this.db || !this.append || entries.length === 0) return;
    try {
      this.append(entries);
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger?.warn({ err: error }, `audit record dropped: ${errorText(error)}`);
      this.failing = true;
    }
  }

  close(): void {
    const db = this.db;
    this.db = undefined;
    try {
      db?.close();
    } catch {
      // Closing twice or after a disk error: nothing left to release.
    }
  }
}

function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

/**
 * Recomputes the chain from the genesis hash and names the first row (by id) that does not fit: an edited
 * field, an edited or mismatched previous hash (a row deleted or inserted before it), or a gap in the ids (a
 * deleted row, including the last one once another is appended). Tamper-evident, not tamper-proof: whoever can
 * write the file can rebuild the whole chain. A missing file is an empty, valid log.
 */
export function verifyAuditLog(file: string): VerifyResult {
  if (!existsSync(file)) return { ok: true, rows: 0 };
  let db: Database.Database;
  try {
    db = openReadOnly(file);
  } catch (error) {
    return {
      ok: false,
      rows: 0,
      firstBrokenRow: 0,
      reason: `cannot open the audit log: ${errorText(error)}`,
    };
  }
  let rows = 0;
  try {
    rows = db.prepare<[], number>('SELECT count(*) FROM audit_log').pluck().get() ?? 0;
    const broken = (id: unknown, reason: string): VerifyResult => ({
      ok: false,
      rows,
      firstBrokenRow: typeof id === 'number' ? id : Number(id),
      reason,
    });
    let expectedPrev = GENESIS_HASH;
    let expectedId: number | undefined;
    for (const row of db.prepare<[], RawRow>('SELECT * FROM audit_log ORDER BY id').iterate()) {
      const id = row.id as number;
      if (expectedId !== undefined && id !== expectedId) {
        const missing = id - 1 === expectedId ? `row ${expectedId} is` : `rows ${expectedId}–${id - 1} are`;
        return broken(id, `${missing} missing before row ${id}`);
      }
      if (row.chain_version !== CHAIN_VERSION) {
        return broken(
          id,
          `row ${id} has chain version ${String(row.chain_version)}, which this version cannot check`,
        );
      }
      if (row.prev_hash !== expectedPrev) {
        return broken(
          id,
          `row ${id}'s previous hash does not match the row before it (a row was deleted, inserted or edited)`,
        );
      }
      if (rowHash(row) !== row.hash) {
        return broken(id, `row ${id} does not match its hash (the row was edited)`);
      }
      expectedPrev = String(row.hash);
      expectedId = id + 1;
    }
    return { ok: true, rows };
  } catch (error) {
    return { ok: false, rows, firstBrokenRow: 0, reason: `cannot read the audit log: ${errorText(error)}` };
  } finally {
    db.close();
  }
}

function parseFiles(text: unknown): string[] {
  try {
    const value: unknown = JSON.parse(String(text));
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

const optionalText = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);

/** Rows in id order, optionally only those at or after `sinceMs` (for `meshlens stats`). Read-only. */
export function readAuditRows(file: string, options: { sinceMs?: number } = {}): AuditRow[] {
  if (!existsSync(file)) return [];
  const db = openReadOnly(file);
  try {
    // Times are ISO-8601 UTC from toISOString(), which sorts lexically in time order.
    const since = options.sinceMs === undefined ? '' : new Date(options.sinceMs).toISOString();
    const rows = db
      .prepare<[string], RawRow>('SELECT * FROM audit_log WHERE time >= ? ORDER BY id')
      .all(since);
    return rows.map((row) => ({
      id: Number(row.id),
      time: String(row.time),
      session: String(row.session),
      operation: String(row.operation),
      argumentDigest: String(row.argument_digest),
      status: String(row.status),
      elapsedMs: Number(row.elapsed_ms),
      filesRead: parseFiles(row.files_read),
      redactions: Number(row.redactions),
      traceId: optionalText(row.trace_id),
      warning: optionalText(row.warning),
      prevHash: String(row.prev_hash),
      hash: String(row.hash),
      chainVersion: Number(row.chain_version),
    }));
  } finally {
    db.close();
  }
}
