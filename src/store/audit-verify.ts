import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openAuditReadOnly, readHead, type RawRow } from './audit-chain.js';
import {
  Broken,
  ChainWalk,
  checkCount,
  checkHead,
  type VerifyOptions,
  type VerifyResult,
} from './audit-walk.js';

export type { VerifyOptions, VerifyResult } from './audit-walk.js';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** SQLite must find the file sound. */
function checkFile(db: Database.Database): void {
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
    const walk = new ChainWalk(options.anchor);
    for (const row of db.prepare<[], RawRow>('SELECT * FROM audit_log ORDER BY id').iterate()) walk.add(row);
    checkHead(readHead(db), walk.head);
    checkCount(rows, walk.walked);
    checkFile(db);
    walk.end();
    return { ok: true, rows, head: walk.head };
  } catch (error) {
    if (error instanceof Broken) return { ok: false, rows, firstBrokenRow: error.row, reason: error.message };
    return { ok: false, rows, firstBrokenRow: 0, reason: `cannot read the audit log: ${errorText(error)}` };
  } finally {
    db.close();
  }
}
