import Database from 'better-sqlite3';
import type { RawRow } from './audit-hash.js';

export {
  CHAIN_VERSION,
  EMPTY_HEAD,
  GENESIS_HASH,
  headText,
  rowHash,
  type ChainHead,
  type RawRow,
} from './audit-hash.js';

/**
 * The rows, and the head: the id and hash of the last row, in a table of its own that every append updates in
 * the same transaction. Rows cannot say that rows after them are missing; the head can, so a log cut short
 * (its last rows deleted, or hidden by a damaged page) no longer verifies as a shorter valid log. `caller`
 * came with chain version 2; a log made before it gets the column when it is opened for writing.
 */
export const SCHEMA = `
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
  chain_version   INTEGER NOT NULL,
  caller          TEXT
);
CREATE INDEX IF NOT EXISTS audit_log_time ON audit_log (time);
CREATE TABLE IF NOT EXISTS audit_head (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  last_id   INTEGER NOT NULL,
  last_hash TEXT    NOT NULL
);
`;

/** Adds `caller` to a log made before it was recorded; its old rows keep verifying by chain version 1. */
export function addCallerColumn(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(audit_log)').all();
  if (!columns.some((column) => column.name === 'caller'))
    db.exec('ALTER TABLE audit_log ADD COLUMN caller TEXT');
}

/** The stored head; undefined when its table or its row is missing. Values may be anything if tampered. */
export function readHead(db: Database.Database): RawRow | undefined {
  const table = db
    .prepare<[], number>("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'audit_head'")
    .pluck()
    .get();
  if (!table) return undefined;
  return db.prepare<[], RawRow>('SELECT last_id, last_hash FROM audit_head WHERE id = 1').get();
}

/** How long a reader or an append waits for another process holding the write lock. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Opens an existing log for reading only: never creates the file, never writes to it. */
export function openAuditReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}
