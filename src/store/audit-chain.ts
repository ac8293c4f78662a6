import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/** The previous hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);
/** Which fields, in which order, a row's hash covers (see `rowHash`). Stored per row so the rule can evolve. */
export const CHAIN_VERSION = 1;

/**
 * The rows, and the head: the id and hash of the last row, in a table of its own that every append updates in
 * the same transaction. Rows cannot say that rows after them are missing; the head can, so a log cut short
 * (its last rows deleted, or hidden by a damaged page) no longer verifies as a shorter valid log.
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
  chain_version   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_log_time ON audit_log (time);
CREATE TABLE IF NOT EXISTS audit_head (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  last_id   INTEGER NOT NULL,
  last_hash TEXT    NOT NULL
);
`;

/** A row as SQLite returns it. Values are `unknown` because a tampered row may hold anything. */
export type RawRow = Readonly<Record<string, unknown>>;

/** The last row of the chain as the head records it: ids run from 1, so `lastId` is also the row count. */
export interface ChainHead {
  readonly lastId: number;
  readonly lastHash: string;
}

export const EMPTY_HEAD: ChainHead = { lastId: 0, lastHash: GENESIS_HASH };

/**
 * SHA-256 over the JSON array [previous hash, chain version, id, time, session, operation, argument digest,
 * status, elapsed ms, files read (the stored JSON text), redactions, trace id, warning]. JSON makes the field
 * boundaries unambiguous, and hashing the values exactly as stored means any edit to a stored byte shows.
 */
export function rowHash(row: RawRow): string {
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

/** The stored head; undefined when its table or its row is missing. Values may be anything if tampered. */
export function readHead(db: Database.Database): RawRow | undefined {
  const table = db
    .prepare<[], number>("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'audit_head'")
    .pluck()
    .get();
  if (!table) return undefined;
  return db.prepare<[], RawRow>('SELECT last_id, last_hash FROM audit_head WHERE id = 1').get();
}

/** `12:3f9a…` style text for a head: what `audit verify` prints and `--anchor` takes back. */
export const headText = (head: ChainHead): string => `${head.lastId}:${head.lastHash}`;

/** How long a reader or an append waits for another process holding the write lock. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Opens an existing log for reading only: never creates the file, never writes to it. */
export function openAuditReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}
