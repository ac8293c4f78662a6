/**
 * The SQLite file behind the fact cache: its layout, how it is opened (created owner-only, tuned, rebuilt when
 * the layout changed), the statements the cache runs, and what the cache and `doctor` measure of the file.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Bump whenever the table layout or the value encoding (including `DICTIONARY` in fact-cache-encoding.ts)
 * changes: tables are rebuilt.
 */
export const CACHE_SCHEMA_VERSION = 2;
export const BUSY_TIMEOUT_MS = 2000;

/**
 * Values live in a rowid table (large rows belong there) and last access in a narrow side table, so that
 * recording a hit rewrites a few bytes instead of the whole value.
 */
const SCHEMA = `
CREATE TABLE facts (id INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE, kind INTEGER NOT NULL, enc INTEGER NOT NULL, value BLOB NOT NULL);
CREATE TABLE access (id INTEGER PRIMARY KEY, last_used INTEGER NOT NULL);
CREATE INDEX access_lru ON access (last_used, id);
CREATE TRIGGER facts_evict AFTER DELETE ON facts BEGIN DELETE FROM access WHERE id = old.id; END;
CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, hash TEXT NOT NULL) WITHOUT ROWID;
`;

export function openDb(dbPath: string, quotaBytes: number): Database.Database {
  // Created here with 0600 because SQLite would use the umask; it gives -wal and -shm the database's mode.
  fs.closeSync(fs.openSync(dbPath, 'a', 0o600));
  fs.chmodSync(dbPath, 0o600);
  const db = new Database(dbPath, { timeout: BUSY_TIMEOUT_MS });
  try {
    // Both must come before the first table is created; later they are no-ops. A compressed entry is about
    // 1.4 KB, so 4 KB pages fit two and waste a third of each page; 8 KB pages cut bytes per entry by 20 %.
    db.pragma('page_size = 8192');
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Keep the WAL small relative to the quota, since the quota counts it.
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const walPages = Math.max(16, Math.min(1000, Math.floor(quotaBytes / 8 / pageSize)));
    db.pragma(`wal_autocheckpoint = ${walPages}`);
    db.pragma(`journal_size_limit = ${walPages * pageSize}`);
    db.transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)');
      const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
        { value: number } | undefined;
      if (row?.value === CACHE_SCHEMA_VERSION) return;
      // Another layout (older or newer meshlens): the entries are unreadable, so start over in place.
      db.exec(
        'DROP TRIGGER IF EXISTS facts_evict; DROP TABLE IF EXISTS facts; DROP TABLE IF EXISTS access; DROP TABLE IF EXISTS files;',
      );
      db.exec(SCHEMA);
      db.prepare(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?), ('lru_clock', 0)",
      ).run(CACHE_SCHEMA_VERSION);
    }).immediate();
    securePerms(dbPath);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export interface FactRow {
  readonly k: string;
  readonly id: number;
  readonly kind: number;
  readonly enc: number;
  readonly value: Buffer;
}

export type Statements = ReturnType<typeof prepareStatements>;

/** Below this many keys a lookup probes the index per key, whatever the share of the cache they are. */
const SCAN_MIN_KEYS = 512;

/**
 * The rows of `keys`. Asked for at least half of the entries (a warm start asks for all of them), the table
 * is read in one pass and filtered here, which took half the time of one index probe per key at 62,000.
 */
export function* rowsOf(keys: readonly string[], stmts: Statements): Iterable<FactRow> {
  const entries = (stmts.count.get() as { n: number }).n;
  if (keys.length < SCAN_MIN_KEYS || keys.length * 2 < entries) {
    yield* stmts.selectMany.iterate(JSON.stringify(keys)) as Iterable<FactRow>;
    return;
  }
  const wanted = new Set(keys);
  for (const row of stmts.selectAll.iterate() as Iterable<Omit<FactRow, 'k'> & { key: Buffer }>) {
    const k = row.key.toString('hex');
    if (wanted.has(k)) yield { k, id: row.id, kind: row.kind, enc: row.enc, value: row.value };
  }
}

export function prepareStatements(db: Database.Database) {
  return {
    // CROSS JOIN pins json_each as the outer loop, so each key is one index probe.
    selectMany: db.prepare(
      'SELECT j.value AS k, f.id, f.kind, f.enc, f.value FROM json_each(?) AS j CROSS JOIN facts AS f ON f.key = unhex(j.value)',
    ),
    // Every entry, for a lookup of most of them: one pass over the table beats a probe per key.
    selectAll: db.prepare('SELECT key, id, kind, enc, value FROM facts'),
    touch: db.prepare('UPDATE access SET last_used = ? WHERE id IN (SELECT value FROM json_each(?))'),
    tick: db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'lru_clock' RETURNING value"),
    upsertFact: db.prepare(
      'INSERT INTO facts (key, kind, enc, value) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET ' +
        'kind = excluded.kind, enc = excluded.enc, value = excluded.value RETURNING id',
    ),
    upsertAccess: db.prepare(
      'INSERT INTO access (id, last_used) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET last_used = excluded.last_used',
    ),
    // The trigger removes the access rows; `changes` counts only the facts rows.
    evict: db.prepare('DELETE FROM facts WHERE id IN (SELECT id FROM access ORDER BY last_used, id LIMIT ?)'),
    count: db.prepare('SELECT count(*) AS n FROM access'),
    selectFiles: db.prepare('SELECT path, size, mtime, hash FROM files'),
    upsertFile: db.prepare(
      'INSERT INTO files (path, size, mtime, hash) VALUES (?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET ' +
        'size = excluded.size, mtime = excluded.mtime, hash = excluded.hash',
    ),
    deleteFile: db.prepare('DELETE FROM files WHERE path = ?'),
  };
}

/** For `meshlens doctor`: integrity (quick_check) and entry count, without modifying the file. */
export function inspectCache(dbPath: string): { ok: true; entries: number } | { ok: false; reason: string } {
  if (!fs.existsSync(dbPath)) return { ok: false, reason: `no cache file at ${dbPath}` };
  let db: Database.Database | undefined;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const problems = (db.pragma('quick_check') as { quick_check: string }[])
      .map((row) => row.quick_check)
      .filter((line) => line !== 'ok');
    if (problems.length > 0) return { ok: false, reason: `quick_check: ${problems.slice(0, 3).join('; ')}` };
    const row = db.prepare('SELECT count(*) AS n FROM access').get() as { n: number };
    return { ok: true, entries: row.n };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  } finally {
    db?.close();
  }
}

export function securePerms(dbPath: string): void {
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      fs.chmodSync(file, 0o600);
    } catch {
      // -wal and -shm exist only while a connection is open.
    }
  }
}

export function removeDbFiles(dbPath: string): void {
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`])
    fs.rmSync(file, { force: true });
}

export function diskBytes(dbPath: string): number {
  let total = 0;
  for (const file of [dbPath, `${dbPath}-wal`]) {
    try {
      total += fs.statSync(file).size;
    } catch {
      // No WAL yet.
    }
  }
  return total;
}

/** Pages holding data: what the file shrinks to after an incremental vacuum. */
export function usedBytes(db: Database.Database): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return (pages - free) * (db.pragma('page_size', { simple: true }) as number);
}

export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
