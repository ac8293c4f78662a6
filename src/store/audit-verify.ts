import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import {
  CHAIN_VERSION,
  EMPTY_HEAD,
  openAuditReadOnly,
  readHead,
  rowHash,
  type ChainHead,
  type RawRow,
} from './audit-chain.js';

export interface VerifyOptions {
  /**
   * A head printed by an earlier verify and kept somewhere the log's writers cannot reach: the log must still
   * hold that row with that hash. It is the one check a rewrite of the whole file cannot pass.
   */
  readonly anchor?: ChainHead;
}

export type VerifyResult =
  | { readonly ok: true; readonly rows: number; readonly head: ChainHead }
  | { readonly ok: false; readonly rows: number; readonly firstBrokenRow: number; readonly reason: string };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const short = (hash: unknown): string => `${String(hash).slice(0, 12)}…`;
const rowsText = (from: number, to: number): string =>
  from === to ? `row ${from} is` : `rows ${from}–${to} are`;

/** Thrown inside the walk to stop at the first row that does not fit. */
class Broken extends Error {
  constructor(
    readonly row: number,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * Walks the rows in id order from the genesis hash and returns the last one. Stops at the first row that
 * does not fit: a gap in the ids (a deleted row), a chain version this code cannot check, a previous hash that
 * is not the hash of the row before (a row deleted, inserted or edited before it), or an edited field.
 */
function walkChain(
  db: Database.Database,
  anchor: ChainHead | undefined,
): { head: ChainHead; walked: number } {
  let head = EMPTY_HEAD;
  let walked = 0;
  for (const row of db.prepare<[], RawRow>('SELECT * FROM audit_log ORDER BY id').iterate()) {
    const id = Number(row.id);
    if (!Number.isSafeInteger(id) || id <= head.lastId) {
      // Rows come back in id order from a sound file; a damaged page can yield cells that break the order.
      const after = walked > 0 ? ` (after row ${head.lastId})` : '';
      throw new Broken(0, `row id ${String(row.id)} is out of order${after}: the database file is damaged`);
    }
    if (walked > 0 && id !== head.lastId + 1) {
      throw new Broken(id, `${rowsText(head.lastId + 1, id - 1)} missing before row ${id}`);
    }
    if (row.chain_version !== CHAIN_VERSION) {
      const version = String(row.chain_version);
      throw new Broken(id, `row ${id} has chain version ${version}, which this version cannot check`);
    }
    if (row.prev_hash !== head.lastHash) {
      throw new Broken(
        id,
        `row ${id}'s previous hash does not match the row before it (a row was deleted, inserted or edited)`,
      );
    }
    if (rowHash(row) !== row.hash)
      throw new Broken(id, `row ${id} does not match its hash (the row was edited)`);
    if (anchor && id === anchor.lastId && row.hash !== anchor.lastHash) {
      throw new Broken(
        id,
        `row ${id} is not the row of the anchor (hash ${short(anchor.lastHash)}): the log was rewritten`,
      );
    }
    head = { lastId: id, lastHash: String(row.hash) };
    walked++;
  }
  return { head, walked };
}

/** The stored head must name exactly the last row the walk reached. */
function checkHead(db: Database.Database, last: ChainHead): void {
  const stored = readHead(db);
  if (!stored) {
    throw new Broken(
      0,
      'the log has no head record, so rows missing at its end could not be told: it was written before heads ' +
        'were kept, or the head was removed (opening the log for writing adds one from the rows as they are)',
    );
  }
  const lastId = Number(stored.last_id);
  if (!Number.isSafeInteger(lastId) || lastId < 0) {
    throw new Broken(0, `the head record names row ${String(stored.last_id)}, which is not a row number`);
  }
  const recorded = `the head records ${lastId} ${lastId === 1 ? 'row' : 'rows'}`;
  if (lastId > last.lastId) {
    const end = last.lastId === 0 ? 'the log is empty' : `the log ends at row ${last.lastId}`;
    throw new Broken(
      last.lastId + 1,
      `${rowsText(last.lastId + 1, lastId)} missing at the end: ${recorded}, ${end}`,
    );
  }
  if (lastId < last.lastId) {
    throw new Broken(
      lastId + 1,
      `${recorded} but the log goes on to row ${last.lastId}: the head was edited or rows were added behind its back`,
    );
  }
  if (stored.last_hash !== last.lastHash) {
    const which = lastId === 0 ? 'the empty log' : `row ${lastId}`;
    throw new Broken(
      lastId,
      `the head's hash ${short(stored.last_hash)} is not ${which}'s: the head or the row was rewritten`,
    );
  }
}

/** The walk must have read every row the table holds, and SQLite must find the file sound. */
function checkFile(db: Database.Database, rows: number, walked: number): void {
  if (rows !== walked) {
    throw new Broken(
      0,
      `the table counts ${rows} rows but ${walked} could be read: the database file is damaged`,
    );
  }
  const problems = db.prepare<[], string>('PRAGMA integrity_check(5)').pluck().all();
  if (problems.length !== 1 || problems[0] !== 'ok') {
    throw new Broken(
      0,
      `the database file is damaged; SQLite's integrity check says: ${problems.join('; ')}`,
    );
  }
}

/**
 * Recomputes the chain from the genesis hash, checks that it ends where the head says, that every row was read
 * and that the file is sound; names the first row (by id) that does not fit, or 0 for the file as a whole.
 * Tamper-evident, not tamper-proof: whoever can write the file can rebuild the whole chain and its head, which
 * only an anchor kept elsewhere (`options.anchor`) shows. A missing file is refused, never taken as empty.
 */
export function verifyAuditLog(file: string, options: VerifyOptions = {}): VerifyResult {
  if (!existsSync(file)) {
    return { ok: false, rows: 0, firstBrokenRow: 0, reason: `there is no audit log at ${file}` };
  }
  let db: Database.Database;
  try {
    db = openAuditReadOnly(file);
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
    const { head, walked } = walkChain(db, options.anchor);
    checkHead(db, head);
    checkFile(db, rows, walked);
    const anchor = options.anchor;
    if (anchor && anchor.lastId > head.lastId) {
      throw new Broken(
        head.lastId + 1,
        `the anchor names row ${anchor.lastId} but the log ends at row ${head.lastId}: rows were removed since, head and all`,
      );
    }
    return { ok: true, rows, head };
  } catch (error) {
    if (error instanceof Broken) return { ok: false, rows, firstBrokenRow: error.row, reason: error.message };
    return { ok: false, rows, firstBrokenRow: 0, reason: `cannot read the audit log: ${errorText(error)}` };
  } finally {
    db.close();
  }
}
