import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AuditRecord, AuditSink } from '../trust/audit.js';
import { auditFieldsOf } from './audit-fields.js';
import {
  BUSY_TIMEOUT_MS,
  CHAIN_VERSION,
  EMPTY_HEAD,
  GENESIS_HASH,
  SCHEMA,
  addCallerColumn,
  rowHash,
  type ChainHead,
} from './audit-chain.js';

export { auditDbPath, tenantAuditDbPath } from './cache-paths.js';
export { CHAIN_VERSION, GENESIS_HASH } from './audit-chain.js';
export { readAuditRows, type AuditRow } from './audit-rows.js';
export { verifyAuditLog, type VerifyOptions, type VerifyResult } from './audit-verify.js';

export interface AuditLogOptions {
  readonly path: string;
  readonly logger?: { warn(obj: object, msg: string): void };
}

/**
 * A log without a head gets one when it is opened for writing: from its last row (a log written before heads
 * were kept), or the genesis hash for a new log, so that every log this version writes has a head from its
 * first moment. One statement, so it is atomic; a head already there is left alone.
 */
const INITIAL_HEAD = `
INSERT OR IGNORE INTO audit_head (id, last_id, last_hash)
SELECT 1, coalesce(max(id), 0), coalesce((SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), ?)
FROM audit_log`;

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
    const head = db.prepare<[], { lastId: number; lastHash: string }>(
      'SELECT last_id AS lastId, last_hash AS lastHash FROM audit_head WHERE id = 1',
    );
    const last = db.prepare<[], { lastId: number; lastHash: string }>(
      'SELECT id AS lastId, hash AS lastHash FROM audit_log ORDER BY id DESC LIMIT 1',
    );
    // AUTOINCREMENT's counter survives deletions, so a deleted last row leaves a gap that verify reports.
    const seq = db.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").pluck();
    const insert = db.prepare(
      `INSERT INTO audit_log (id, time, session, operation, argument_digest, status, elapsed_ms, files_read,
         redactions, trace_id, warning, caller, prev_hash, hash, chain_version)
       VALUES (@id, @time, @session, @operation, @argument_digest, @status, @elapsed_ms, @files_read,
         @redactions, @trace_id, @warning, @caller, @prev_hash, @hash, @chain_version)`,
    );
    const moveHead = db.prepare<[number, string]>(
      `INSERT INTO audit_head (id, last_id, last_hash) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET last_id = excluded.last_id, last_hash = excluded.last_hash`,
    );
    const write = (previous: ChainHead, entry: AuditRecord): ChainHead => {
      const row = {
        id: Math.max(previous.lastId, seq.get() ?? 0) + 1,
        ...auditFieldsOf(entry),
        prev_hash: previous.lastHash,
        chain_version: CHAIN_VERSION,
      };
      const hash = rowHash(row);
      insert.run({ ...row, hash });
      return { lastId: row.id, lastHash: hash };
    };
    // The new rows chain onto the head, not onto whatever row is last: rows deleted after the head's row
    // then leave a gap before the next row. The head moves in the same transaction as the rows it names.
    const appendAll = (entries: readonly AuditRecord[]) => {
      const start = head.get() ?? last.get() ?? EMPTY_HEAD;
      const end = entries.reduce(write, start);
      moveHead.run(end.lastId, end.lastHash);
    };
    const tx = db.transaction(appendAll);
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
      addCallerColumn(db);
      db.prepare(INITIAL_HEAD).run(GENESIS_HASH);
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
