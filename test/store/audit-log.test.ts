import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { buildSync } from 'esbuild';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AuditRecord } from '../../src/trust/audit.js';
import {
  AuditLog,
  GENESIS_HASH,
  auditDbPath,
  readAuditRows,
  verifyAuditLog,
} from '../../src/store/audit-log.js';
import { rowHash } from '../../src/store/audit-hash.js';

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'meshlens-audit-'));
  dbPath = path.join(dir, 'nested', 'cache', 'audit.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function entry(i: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    session: `session-${i % 2}`,
    operation: 'code.search',
    argumentDigest: `${i}`.padStart(64, 'a'),
    status: 'ok',
    elapsedMs: 12.5 + i,
    filesRead: [`services/svc/file-${i}.ts`, 'proto/order.proto'],
    redactions: i,
    traceId: `trace-${i}`,
    warning: `warn-${i}`,
    caller: `key ml_0000000${i % 10} acme/reader`,
    ...overrides,
  };
}

function writeRows(count: number, file = dbPath): void {
  const log = AuditLog.open({ path: file });
  expect(log.warning).toBeUndefined();
  for (let i = 1; i <= count; i++) log.record(entry(i));
  log.close();
}

function rawSql(run: (db: Database.Database) => void): void {
  const db = new Database(dbPath);
  try {
    run(db);
  } finally {
    db.close();
  }
}

/** One byte (one character or one unit) different from what is stored. */
function tampered(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  const s = String(value);
  return s.slice(0, -1) + (s.endsWith('0') ? '1' : '0');
}

describe('auditDbPath', () => {
  test('MESHLENS_AUDIT_DB wins, then the cache folder rules', () => {
    expect(auditDbPath({ MESHLENS_AUDIT_DB: '/x/a.db', MESHLENS_CACHE_DIR: '/c' })).toBe(
      path.resolve('/x/a.db'),
    );
    expect(auditDbPath({ MESHLENS_CACHE_DIR: '/c', XDG_CACHE_HOME: '/xdg' })).toBe(
      path.resolve('/c/audit.db'),
    );
    expect(auditDbPath({ XDG_CACHE_HOME: '/xdg', HOME: '/home/u' })).toBe(
      path.join('/xdg', 'meshlens', 'audit.db'),
    );
    expect(auditDbPath({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' })).toBe(
      path.join('/home/u', '.cache', 'meshlens', 'audit.db'),
    );
    expect(auditDbPath({ HOME: '/home/u' })).toBe(path.join('/home/u', '.cache', 'meshlens', 'audit.db'));
  });
});

describe('AuditLog', () => {
  test('rows chain from the genesis hash and verify', () => {
    writeRows(5);
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 5 });
    const rows = readAuditRows(dbPath);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[2]).toMatchObject({
      session: 'session-1',
      operation: 'code.search',
      status: 'ok',
      elapsedMs: 15.5,
      filesRead: ['services/svc/file-3.ts', 'proto/order.proto'],
      redactions: 3,
      traceId: 'trace-3',
      warning: 'warn-3',
      caller: 'key ml_00000003 acme/reader',
      chainVersion: 2,
    });
  });

  test('a log of chain version 1 (no caller column) gets the column, keeps verifying, and goes on in version 2', () => {
    mkdirSync(path.dirname(dbPath), { recursive: true });
    const old = new Database(dbPath);
    old.exec(`CREATE TABLE audit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, session TEXT NOT NULL,
      operation TEXT NOT NULL, argument_digest TEXT NOT NULL, status TEXT NOT NULL, elapsed_ms REAL NOT NULL,
      files_read TEXT NOT NULL, redactions INTEGER NOT NULL, trace_id TEXT, warning TEXT, prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL, chain_version INTEGER NOT NULL);
      CREATE TABLE audit_head (id INTEGER PRIMARY KEY CHECK (id = 1), last_id INTEGER NOT NULL, last_hash TEXT NOT NULL);`);
    let prev = GENESIS_HASH;
    for (let id = 1; id <= 2; id++) {
      const row = {
        id,
        time: `2025-01-01T00:00:0${id}.000Z`,
        session: 's',
        operation: 'code.search',
        argument_digest: 'a'.repeat(64),
        status: 'ok',
        elapsed_ms: 1.5,
        files_read: '[]',
        redactions: 0,
        trace_id: null,
        warning: null,
        prev_hash: prev,
        chain_version: 1,
      };
      prev = rowHash(row);
      old
        .prepare(
          `INSERT INTO audit_log VALUES (@id, @time, @session, @operation, @argument_digest, @status, @elapsed_ms,
           @files_read, @redactions, @trace_id, @warning, @prev_hash, @hash, @chain_version)`,
        )
        .run({ ...row, hash: prev });
    }
    old.prepare('INSERT INTO audit_head VALUES (1, 2, ?)').run(prev);
    old.close();
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 2 });
    const log = AuditLog.open({ path: dbPath });
    log.record(entry(3));
    log.close();
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 3 });
    expect(readAuditRows(dbPath).map((r) => [r.id, r.chainVersion, r.caller ?? null])).toEqual([
      [1, 1, null],
      [2, 1, null],
      [3, 2, 'key ml_00000003 acme/reader'],
    ]);
  });

  test('optional fields are stored as absent and still verify', () => {
    const log = AuditLog.open({ path: dbPath });
    log.record({ ...entry(1), traceId: undefined, warning: undefined, filesRead: [], elapsedMs: Number.NaN });
    log.record({ ...entry(2), session: 'lone \ud800 surrogate' });
    log.close();
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 2 });
    expect(readAuditRows(dbPath)[0]).toMatchObject({
      traceId: undefined,
      warning: undefined,
      filesRead: [],
      elapsedMs: 0,
    });
  });

  test('the file is 0600 and a folder it creates is 0700', () => {
    const log = AuditLog.open({ path: dbPath });
    log.record(entry(1));
    expect(statSync(dbPath).mode & 0o777).toBe(0o600);
    expect(statSync(`${dbPath}-wal`).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(dbPath)).mode & 0o777).toBe(0o700);
    log.close();
  });

  test('readAuditRows filters by time', () => {
    writeRows(5);
    const since = Date.UTC(2025, 0, 1, 0, 0, 4);
    expect(readAuditRows(dbPath, { sinceMs: since }).map((r) => r.id)).toEqual([4, 5]);
    expect(readAuditRows(path.join(dir, 'missing.db'))).toEqual([]);
  });

  test('a batch is appended in order in one transaction, interleaved with another writer, and verifies', () => {
    const a = AuditLog.open({ path: dbPath });
    const b = AuditLog.open({ path: dbPath });
    a.recordAll([entry(1), entry(2), entry(3)]);
    b.record(entry(4));
    a.recordAll([entry(5), entry(6)]);
    a.recordAll([]);
    a.close();
    b.close();
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 6 });
    expect(readAuditRows(dbPath).map((r) => r.redactions)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('two instances appending alternately keep one valid chain', () => {
    const a = AuditLog.open({ path: dbPath });
    const b = AuditLog.open({ path: dbPath });
    for (let i = 1; i <= 10; i++) (i % 2 ? a : b).record(entry(i));
    a.close();
    b.close();
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 10 });
    expect(readAuditRows(dbPath).map((r) => r.redactions)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test('two processes appending at the same time keep one valid chain', async () => {
    const bundle = path.join(dir, 'writer.cjs');
    const source = fileURLToPath(new URL('../../src/store/audit-log.ts', import.meta.url));
    buildSync({
      stdin: {
        contents: `const { AuditLog } = require(${JSON.stringify(source)});
          const log = AuditLog.open({ path: process.argv[2] });
          for (let i = 0; i < 150; i++) log.record({ time: new Date().toISOString(), session: process.argv[3],
            operation: 'code.search', argumentDigest: 'd', status: 'ok', elapsedMs: i, filesRead: [], redactions: 0 });
          log.close();
          if (log.warning) { console.error(log.warning); process.exit(2); }`,
        resolveDir: dir,
        loader: 'js',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['better-sqlite3'],
      outfile: bundle,
      logLevel: 'silent',
    });
    const nodePath = fileURLToPath(new URL('../../node_modules', import.meta.url));
    const run = (session: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [bundle, dbPath, session], {
          env: { ...process.env, NODE_PATH: nodePath },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        child.on('exit', resolve);
      });
    expect(await Promise.all([run('p1'), run('p2')])).toEqual([0, 0]);
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 300 });
    const sessions = readAuditRows(dbPath).map((r) => r.session);
    expect(sessions.filter((s) => s === 'p1')).toHaveLength(150);
  });

  test('an unopenable path never throws: the sink becomes a no-op with a warning', () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const warn = vi.fn();
    const log = AuditLog.open({ path: path.join(blocker, 'audit.db'), logger: { warn } });
    expect(log.warning).toMatch(/^audit log disabled: cannot open .*a-file.audit\.db: /);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(() => log.record(entry(1))).not.toThrow();
    expect(() => log.close()).not.toThrow();
  });

  test('a file that is not a database is refused at open, and verify says so', () => {
    writeFileSync(path.join(dir, 'junk.db'), 'x'.repeat(4096));
    const log = AuditLog.open({ path: path.join(dir, 'junk.db') });
    expect(log.warning).toContain('cannot open');
    const result = verifyAuditLog(path.join(dir, 'junk.db'));
    expect(result.ok).toBe(false);
  });

  test('a record after close is dropped quietly', () => {
    const log = AuditLog.open({ path: dbPath });
    log.close();
    expect(() => log.record(entry(1))).not.toThrow();
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: true, rows: 0 });
  });
});

describe('verifyAuditLog detects tampering', () => {
  const columns = [
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
  ];

  test.each(columns)('one byte of %s in row 3 breaks row 3', (column) => {
    writeRows(5);
    rawSql((db) => {
      const value = db.prepare(`SELECT ${column} FROM audit_log WHERE id = 3`).pluck().get();
      db.prepare(`UPDATE audit_log SET ${column} = ? WHERE id = 3`).run(tampered(value));
    });
    const result = verifyAuditLog(dbPath);
    expect(result).toMatchObject({ ok: false, rows: 5, firstBrokenRow: 3 });
  });

  test('a null optional field set to a value breaks that row', () => {
    const log = AuditLog.open({ path: dbPath });
    for (let i = 1; i <= 3; i++) log.record(entry(i, { traceId: undefined }));
    log.close();
    rawSql((db) => db.prepare(`UPDATE audit_log SET trace_id = 'x' WHERE id = 2`).run());
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: false, firstBrokenRow: 2 });
  });

  test('a row of chain version 2 relabelled as version 1 (whose hash leaves the caller out) breaks', () => {
    writeRows(3);
    rawSql((db) => db.prepare('UPDATE audit_log SET chain_version = 1, caller = NULL WHERE id = 2').run());
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: false, firstBrokenRow: 2 });
  });

  test('a renumbered last row is named by its new id', () => {
    writeRows(5);
    rawSql((db) => db.prepare('UPDATE audit_log SET id = 6 WHERE id = 5').run());
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: false, firstBrokenRow: 6 });
  });

  test('a deleted middle row breaks the next row', () => {
    writeRows(5);
    rawSql((db) => db.prepare('DELETE FROM audit_log WHERE id = 3').run());
    const result = verifyAuditLog(dbPath);
    expect(result).toMatchObject({ ok: false, rows: 4, firstBrokenRow: 4 });
    expect(result.ok === false && result.reason).toBe('row 3 is missing before row 4');
  });

  test('a deleted middle row with the ids renumbered still breaks at the next row', () => {
    writeRows(5);
    rawSql((db) => {
      db.prepare('DELETE FROM audit_log WHERE id = 3').run();
      db.prepare('UPDATE audit_log SET id = id - 1 WHERE id > 3').run();
    });
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: false, firstBrokenRow: 3 });
  });

  test('a deleted first row breaks the new first row', () => {
    writeRows(3);
    rawSql((db) => db.prepare('DELETE FROM audit_log WHERE id = 1').run());
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: false, firstBrokenRow: 2 });
  });

  test('a deleted last row shows once the next row is appended', () => {
    writeRows(5);
    rawSql((db) => db.prepare('DELETE FROM audit_log WHERE id = 5').run());
    writeRows(1);
    expect(verifyAuditLog(dbPath)).toMatchObject({ ok: false, firstBrokenRow: 6 });
  });
});
