import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AuditRecord } from '../../src/trust/audit.js';
import { AuditLog, GENESIS_HASH, readAuditRows, verifyAuditLog } from '../../src/store/audit-log.js';
import { rowHash } from '../../src/store/audit-chain.js';

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'meshlens-audit-head-'));
  dbPath = path.join(dir, 'audit.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function entry(i: number): AuditRecord {
  return {
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    session: 'session',
    operation: 'code.search',
    argumentDigest: `${i}`.padStart(64, 'a'),
    status: 'ok',
    elapsedMs: i,
    filesRead: [`file-${i}.ts`],
    redactions: 0,
  };
}

function writeRows(count: number): void {
  const log = AuditLog.open({ path: dbPath });
  expect(log.warning).toBeUndefined();
  log.recordAll(Array.from({ length: count }, (_, i) => entry(i + 1)));
  log.close();
}

function rawSql<T>(run: (db: Database.Database) => T): T {
  const db = new Database(dbPath);
  try {
    return run(db);
  } finally {
    db.close();
  }
}

/** XORs one byte of the file, as a disk error or a hex editor would. */
function flipByte(offset: number, mask: number): void {
  const fd = openSync(dbPath, 'r+');
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, offset);
    byte[0] = (byte[0] ?? 0) ^ mask;
    writeSync(fd, byte, 0, 1, offset);
  } finally {
    closeSync(fd);
  }
}

/** Where the audit_log table's root page (a leaf page while the log is small) keeps its cell count. */
function cellCountOffset(): number {
  return rawSql((db) => {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'audit_log'").pluck().get();
    // The b-tree page header holds the cell count, big-endian, at bytes 3 and 4 (page 1 starts after 100).
    return (Number(root) - 1) * pageSize + (root === 1 ? 100 : 0) + 3;
  });
}

const lastHash = (id: number): string => readAuditRows(dbPath).find((row) => row.id === id)?.hash ?? '';

/** What someone with write access can do: drop the last rows and set the head to match. */
function truncateConsistently(keep: number): void {
  rawSql((db) => {
    db.prepare('DELETE FROM audit_log WHERE id > ?').run(keep);
    const hash = db.prepare('SELECT hash FROM audit_log WHERE id = ?').pluck().get(keep);
    db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'audit_log'").run(keep);
    db.prepare('UPDATE audit_head SET last_id = ?, last_hash = ?').run(keep, hash);
  });
}

describe('verifyAuditLog checks that the chain ends at its head', () => {
  test('a fresh log has a head at the genesis hash and verifies empty', () => {
    AuditLog.open({ path: dbPath }).close();
    expect(verifyAuditLog(dbPath)).toEqual({
      ok: true,
      rows: 0,
      head: { lastId: 0, lastHash: GENESIS_HASH },
    });
  });

  test('an intact log reports its head: the last id and hash', () => {
    writeRows(5);
    expect(verifyAuditLog(dbPath)).toEqual({ ok: true, rows: 5, head: { lastId: 5, lastHash: lastHash(5) } });
  });

  test('a deleted last row breaks the log at that row', () => {
    writeRows(5);
    rawSql((db) => db.prepare('DELETE FROM audit_log WHERE id = 5').run());
    expect(verifyAuditLog(dbPath)).toEqual({
      ok: false,
      rows: 4,
      firstBrokenRow: 5,
      reason: 'row 5 is missing at the end: the head records 5 rows, the log ends at row 4',
    });
  });

  test('the last rows deleted break the log at the first of them', () => {
    writeRows(5);
    rawSql((db) => db.prepare('DELETE FROM audit_log WHERE id >= 3').run());
    expect(verifyAuditLog(dbPath)).toEqual({
      ok: false,
      rows: 2,
      firstBrokenRow: 3,
      reason: 'rows 3–5 are missing at the end: the head records 5 rows, the log ends at row 2',
    });
  });

  test('every row deleted breaks the log at row 1', () => {
    writeRows(5);
    rawSql((db) => db.prepare('DELETE FROM audit_log').run());
    expect(verifyAuditLog(dbPath)).toEqual({
      ok: false,
      rows: 0,
      firstBrokenRow: 1,
      reason: 'rows 1–5 are missing at the end: the head records 5 rows, the log is empty',
    });
  });

  test('one flipped bit in the page cell count no longer hides the last row', () => {
    writeRows(5);
    // 5 → 4: SQLite then reads four rows and finds nothing wrong with them.
    flipByte(cellCountOffset() + 1, 0x01);
    expect(verifyAuditLog(dbPath)).toMatchObject({
      ok: false,
      firstBrokenRow: 5,
      reason: 'row 5 is missing at the end: the head records 5 rows, the log ends at row 4',
    });
  });

  test.each([
    [0, 0x01],
    [1, 0xff],
  ])('a cell count made larger (byte %i ^ %i) is reported as a damaged file', (at, mask) => {
    writeRows(5);
    flipByte(cellCountOffset() + at, mask);
    expect(verifyAuditLog(dbPath)).toEqual({
      ok: false,
      rows: 5,
      firstBrokenRow: 0,
      reason: 'row id 0 is out of order (after row 5): the database file is damaged',
    });
  });

  test('a removed head, or its table dropped, is reported', () => {
    writeRows(3);
    const reason =
      'the log has no head record, so rows missing at its end could not be told: it was written before heads ' +
      'were kept, or the head was removed (opening the log for writing adds one from the rows as they are)';
    rawSql((db) => db.prepare('DELETE FROM audit_head').run());
    expect(verifyAuditLog(dbPath)).toEqual({ ok: false, rows: 3, firstBrokenRow: 0, reason });
    rawSql((db) => db.exec('DROP TABLE audit_head'));
    expect(verifyAuditLog(dbPath)).toEqual({ ok: false, rows: 3, firstBrokenRow: 0, reason });
  });

  test('a head that names fewer rows than the log holds is reported', () => {
    writeRows(5);
    rawSql((db) => db.prepare('UPDATE audit_head SET last_id = 4').run());
    expect(verifyAuditLog(dbPath)).toMatchObject({
      ok: false,
      firstBrokenRow: 5,
      reason:
        'the head records 4 rows but the log goes on to row 5: the head was edited or rows were added behind its back',
    });
  });

  test('a head that names no row number is reported', () => {
    writeRows(2);
    rawSql((db) => db.prepare("UPDATE audit_head SET last_id = 'two'").run());
    expect(verifyAuditLog(dbPath)).toMatchObject({
      ok: false,
      firstBrokenRow: 0,
      reason: 'the head record names row two, which is not a row number',
    });
  });

  test("a head whose hash is not the last row's is reported", () => {
    writeRows(5);
    rawSql((db) => db.prepare('UPDATE audit_head SET last_hash = ?').run('f'.repeat(64)));
    expect(verifyAuditLog(dbPath)).toMatchObject({
      ok: false,
      firstBrokenRow: 5,
      reason: "the head's hash ffffffffffff… is not row 5's: the head or the row was rewritten",
    });
  });

  test('appending after the last row was deleted chains onto the head and leaves a gap', () => {
    writeRows(5);
    rawSql((db) => db.prepare('DELETE FROM audit_log WHERE id = 5').run());
    const log = AuditLog.open({ path: dbPath });
    log.record(entry(6));
    log.close();
    expect(readAuditRows(dbPath).at(-1)?.id).toBe(6);
    expect(verifyAuditLog(dbPath)).toMatchObject({
      ok: false,
      firstBrokenRow: 6,
      reason: 'row 5 is missing before row 6',
    });
  });

  test('a log written before heads were kept gets its head from its rows when opened for writing', () => {
    writeRows(3);
    rawSql((db) => db.exec('DROP TABLE audit_head'));
    expect(verifyAuditLog(dbPath).ok).toBe(false);
    AuditLog.open({ path: dbPath }).close();
    expect(verifyAuditLog(dbPath)).toEqual({ ok: true, rows: 3, head: { lastId: 3, lastHash: lastHash(3) } });
  });

  test('a missing file is refused, not taken as an empty log', () => {
    const missing = path.join(dir, 'none.db');
    expect(verifyAuditLog(missing)).toEqual({
      ok: false,
      rows: 0,
      firstBrokenRow: 0,
      reason: `there is no audit log at ${missing}`,
    });
  });

  test('an emptied file is refused', () => {
    writeRows(3);
    writeFileSync(dbPath, '');
    expect(verifyAuditLog(dbPath)).toEqual({
      ok: false,
      rows: 0,
      firstBrokenRow: 0,
      reason: 'cannot read the audit log: no such table: audit_log',
    });
  });
});

describe('what only an anchor kept elsewhere shows', () => {
  test('rows and head cut short together verify, but not against an earlier head', () => {
    writeRows(5);
    const anchor = { lastId: 5, lastHash: lastHash(5) };
    truncateConsistently(3);
    expect(verifyAuditLog(dbPath)).toEqual({ ok: true, rows: 3, head: { lastId: 3, lastHash: lastHash(3) } });
    expect(verifyAuditLog(dbPath, { anchor })).toEqual({
      ok: false,
      rows: 3,
      firstBrokenRow: 4,
      reason: 'the anchor names row 5 but the log ends at row 3: rows were removed since, head and all',
    });
  });

  test('a row rewritten with the chain after it rehashed verifies, but not against an earlier head', () => {
    writeRows(5);
    const anchor = { lastId: 4, lastHash: lastHash(4) };
    rawSql((db) => {
      db.prepare("UPDATE audit_log SET session = 'someone else' WHERE id = 2").run();
      let prev = db.prepare('SELECT hash FROM audit_log WHERE id = 1').pluck().get() as string;
      for (const row of db.prepare('SELECT * FROM audit_log WHERE id >= 2 ORDER BY id').all() as Record<
        string,
        unknown
      >[]) {
        const hash = rowHash({ ...row, prev_hash: prev });
        db.prepare('UPDATE audit_log SET prev_hash = ?, hash = ? WHERE id = ?').run(prev, hash, row.id);
        prev = hash;
      }
      db.prepare('UPDATE audit_head SET last_hash = ?').run(prev);
    });
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 5 });
    expect(verifyAuditLog(dbPath, { anchor })).toEqual({
      ok: false,
      rows: 5,
      firstBrokenRow: 4,
      reason: `row 4 is not the row of the anchor (hash ${anchor.lastHash.slice(0, 12)}…): the log was rewritten`,
    });
  });

  test('a damaged last WAL frame drops the last append whole, rows and head together', () => {
    // A live log keeps its latest appends in the -wal file; copying both is the state a crash leaves.
    const log = AuditLog.open({ path: dbPath });
    for (let i = 1; i <= 5; i++) log.record(entry(i));
    const anchor = { lastId: 5, lastHash: lastHash(5) };
    const copy = path.join(dir, 'crashed.db');
    copyFileSync(dbPath, copy);
    const wal = readFileSync(`${dbPath}-wal`);
    log.close();
    // SQLite takes a frame whose checksum fails as never committed, and drops it and what follows.
    wal[wal.length - 100] = (wal[wal.length - 100] ?? 0) ^ 0x01;
    writeFileSync(`${copy}-wal`, wal);
    expect(verifyAuditLog(copy)).toMatchObject({ ok: true, rows: 4 });
    expect(verifyAuditLog(copy, { anchor })).toMatchObject({
      ok: false,
      firstBrokenRow: 5,
      reason: 'the anchor names row 5 but the log ends at row 4: rows were removed since, head and all',
    });
  });

  test('a log that only grew since the anchor verifies against it', () => {
    writeRows(3);
    const anchor = { lastId: 3, lastHash: lastHash(3) };
    const log = AuditLog.open({ path: dbPath });
    log.recordAll([entry(4), entry(5)]);
    log.close();
    expect(verifyAuditLog(dbPath, { anchor })).toEqual({
      ok: true,
      rows: 5,
      head: { lastId: 5, lastHash: lastHash(5) },
    });
  });
});
