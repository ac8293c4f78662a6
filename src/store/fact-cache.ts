/**
 * Persistent, content-addressed cache of per-file facts: one SQLite file per workspace, so that a restart or a
 * branch switch back re-parses nothing it has seen. The cache is an optimisation only: every method is best
 * effort and never throws, and a cache that cannot be opened degrades to "parse everything".
 */
import { createHash } from 'node:crypto';
import { cacheRoot } from './cache-paths.js';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import type { FileFacts } from '../index/facts.js';

/** Bump whenever the table layout or the value encoding (including `DICTIONARY`) changes: tables are rebuilt. */
export const CACHE_SCHEMA_VERSION = 2;
export const DEFAULT_MAX_SIZE_MB = 2048;
const DB_FILE = 'facts.db';
const MARKER_FILE = 'workspace_path';
/** Left by a session that hit corruption at run time, so that the next open rebuilds instead of failing again. */
const REBUILD_FILE = 'rebuild-requested';
const BUSY_TIMEOUT_MS = 2000;
const EVICT_TO = 0.8;
const MAX_EVICT_STEP = 1000;
/** Below this the JSON is stored as is: deflate's per-call cost outweighs saving a few bytes. */
const COMPRESS_MIN_BYTES = 128;
/**
 * Preset deflate dictionary of the keys and values every `FileFacts` repeats; it makes small files (most of a
 * workspace) about a quarter smaller. Frozen: changing it needs a `CACHE_SCHEMA_VERSION` bump.
 */
const DICTIONARY = Buffer.from(
  '"decorators":["@"],"docstring":"","parent":,"exported":true,"exported":false,"bodyStartLine":,"bodyEndLine":,' +
    '"startLine":,"endLine":,"signature":"","qualifiedName":"","name":"","kind":"method","kind":"function",' +
    '"kind":"class","kind":"field","kind":"const","id":{"symbols":[{"imports":[{"source":"","names":["","line":,' +
    '"reexport":true,"resolved":"","contracts":[{"confidence":"exact","via":"","symbol":,"kind":"grpc_server",' +
    '"service":"","method":"","kind":"grpc_client","kind":"topic_producer","kind":"topic_consumer","topic":"",' +
    '"kind":"http_route","path":"","package":"","language":"typescript","',
);
/** How `facts.value` is stored (the `enc` column). */
const ENC_JSON = 0;
const ENC_DEFLATE_DICT = 1;
const KINDS = ['parsed', 'no-grammar'] as const;
const HEX_KEY = /^[0-9a-f]{64}$/;

type Env = Readonly<Record<string, string | undefined>>;
type Warn = { warn(obj: object, msg: string): void };

/** A file as the last run saw it. */
export interface FileState {
  readonly size: number;
  readonly mtimeMs: number;
  readonly hash: string;
}

export interface CachedOutcome {
  readonly kind: 'parsed' | 'no-grammar';
  readonly facts: FileFacts;
}

export interface FactCacheStats {
  readonly entries: number;
  /** DB + WAL on disk. */
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
  readonly evicted: number;
  readonly errors: number;
}

export interface FactKeyParts {
  /** Changes whenever extraction output changes, so stale facts are never served. */
  readonly extractionVersion: string;
  readonly root: string;
  readonly relPath: string;
  readonly contentHash: string;
  /** Fingerprint of the configuration that extraction depends on (contract conventions, path aliases). */
  readonly configFingerprint: string;
}

export { cacheRoot };

export function workspaceIdOf(canonicalPath: string): string {
  return createHash('sha256').update(canonicalPath).digest('hex').slice(0, 16);
}

/** Symlinks resolved, so that two spellings of one workspace share one cache. */
export function canonicalWorkspacePath(workspacePath: string): string {
  const absolute = path.resolve(workspacePath);
  try {
    return fs.realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

export function cacheDirFor(workspacePath: string, env: Env = process.env): string {
  return path.join(cacheRoot(env), 'workspaces', workspaceIdOf(canonicalWorkspacePath(workspacePath)));
}

/** Hex SHA-256 over every input that can change a file's facts; JSON framing keeps the fields unambiguous. */
export function factKey(parts: FactKeyParts): string {
  const framed = JSON.stringify([
    CACHE_SCHEMA_VERSION,
    parts.extractionVersion,
    parts.root,
    parts.relPath,
    parts.contentHash,
    parts.configFingerprint,
  ]);
  return createHash('sha256').update(framed).digest('hex');
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

/** For `doctor --fix`: deletes this workspace's cache folder and nothing outside it; throws if it cannot. */
export function removeCacheDir(
  workspacePath: string,
  env: Env = process.env,
): { path: string; removed: boolean } {
  const dir = cacheDirFor(workspacePath, env);
  const existed = fs.existsSync(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return { path: dir, removed: existed };
}

export class FactCache {
  private db: Database.Database | undefined;
  private readonly stmts: Statements | undefined;
  private hits = 0;
  private misses = 0;
  private evictedCount = 0;
  private errors = 0;
  private readonly logged = new Set<string>();
  private permsChecked = false;

  private constructor(
    readonly path: string,
    db: Database.Database | undefined,
    readonly warning: string | undefined,
    private readonly quotaBytes: number,
    private readonly logger: Warn,
  ) {
    this.db = db;
    this.stmts = db ? prepare(db) : undefined;
  }

  get disabled(): boolean {
    return this.db === undefined;
  }

  static open(options: { workspacePath: string; env?: Env; maxSizeMb?: number; logger?: Warn }): FactCache {
    const logger = options.logger ?? { warn: () => undefined };
    const mb = options.maxSizeMb;
    const quotaBytes =
      (mb !== undefined && Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_SIZE_MB) * 1024 * 1024;
    let dbPath = '';
    const disabled = (reason: string, error: unknown): FactCache => {
      const warning = `fact cache disabled, every file will be parsed: ${reason}: ${messageOf(error)}`;
      logger.warn({ path: dbPath, err: messageOf(error) }, warning);
      return new FactCache(dbPath, undefined, warning, quotaBytes, logger);
    };
    let dir: string;
    try {
      dir = cacheDirFor(options.workspacePath, options.env ?? process.env);
      dbPath = path.join(dir, DB_FILE);
      prepareDir(dir, canonicalWorkspacePath(options.workspacePath));
    } catch (error) {
      return disabled('cannot create the cache folder', error);
    }
    let warning: string | undefined;
    let db: Database.Database;
    try {
      const requested = path.join(dir, REBUILD_FILE);
      if (fs.existsSync(requested)) {
        warning = 'fact cache was found corrupt in an earlier session; rebuilt empty';
        removeDbFiles(dbPath);
        fs.rmSync(requested, { force: true });
      }
      db = openDb(dbPath, quotaBytes);
    } catch (error) {
      // Only damage justifies deleting the file: a busy or unreadable cache may be healthy and in use elsewhere.
      if (!isCorruption(error)) return disabled('cannot open the cache', error);
      warning = `fact cache was corrupt (${messageOf(error)}); rebuilt empty`;
      try {
        removeDbFiles(dbPath);
        db = openDb(dbPath, quotaBytes);
      } catch (retryError) {
        return disabled('cannot rebuild the corrupt cache', retryError);
      }
    }
    if (warning) logger.warn({ path: dbPath }, warning);
    const cache = new FactCache(dbPath, db, warning, quotaBytes, logger);
    cache.enforceQuota();
    return cache;
  }

  getMany(requested: readonly string[]): Map<string, CachedOutcome> {
    const found = new Map<string, CachedOutcome>();
    const keys = [...new Set(requested)];
    const { db, stmts } = this;
    if (!db || !stmts || keys.length === 0) {
      this.misses += keys.length;
      return found;
    }
    const hitIds: number[] = [];
    try {
      // One query for the whole batch: json_each turns the key list into a table joined on the key index.
      for (const row of stmts.selectMany.iterate(JSON.stringify(keys)) as Iterable<FactRow>) {
        const outcome = this.decode(row);
        if (!outcome) continue;
        found.set(row.k, outcome);
        hitIds.push(row.id);
      }
    } catch (error) {
      // A batch that failed half way (damaged pages) is not trusted at all: everything is a miss.
      found.clear();
      hitIds.length = 0;
      this.fail('get', error);
    }
    this.hits += found.size;
    this.misses += keys.length - found.size;
    if (hitIds.length > 0 && this.db) {
      try {
        db.transaction(() => stmts.touch.run(this.tick(), JSON.stringify(hitIds))).immediate();
      } catch (error) {
        this.fail('touch', error);
      }
    }
    return found;
  }

  /**
   * What the last run saw of each file (`root:path` → size, mtime, content hash): a restart trusts the hash
   * of a file whose size and mtime are unchanged instead of reading it again.
   */
  fileStates(): Map<string, FileState> {
    const states = new Map<string, FileState>();
    if (!this.stmts) return states;
    try {
      for (const row of this.stmts.selectFiles.iterate() as Iterable<{
        path: string;
        size: number;
        mtime: number;
        hash: string;
      }>) {
        states.set(row.path, { size: row.size, mtimeMs: row.mtime, hash: row.hash });
      }
    } catch (error) {
      this.fail('file states', error);
    }
    return states;
  }

  /** Records changed file states and forgets removed files, in one transaction. */
  recordFileStates(changed: ReadonlyMap<string, FileState>, removed: Iterable<string>): void {
    const { db, stmts } = this;
    if (!db || !stmts) return;
    const gone = [...removed];
    if (changed.size === 0 && gone.length === 0) return;
    try {
      db.transaction(() => {
        for (const [key, state] of changed) stmts.upsertFile.run(key, state.size, state.mtimeMs, state.hash);
        for (const key of gone) stmts.deleteFile.run(key);
      }).immediate();
    } catch (error) {
      this.fail('record file states', error);
    }
  }

  putMany(entries: readonly { key: string; outcome: CachedOutcome }[]): void {
    const { db, stmts } = this;
    if (!db || !stmts || entries.length === 0) return;
    // Encoding is CPU work: done before taking the write lock so other processes wait less.
    const rows: [Buffer, number, number, Buffer][] = [];
    for (const { key, outcome } of entries) {
      try {
        if (!HEX_KEY.test(key)) throw new Error(`not a factKey() key: ${key.slice(0, 80)}`);
        const [encoding, value] = encode(outcome.facts);
        rows.push([Buffer.from(key, 'hex'), KINDS.indexOf(outcome.kind), encoding, value]);
      } catch (error) {
        this.fail('encode', error);
      }
    }
    try {
      db.transaction(() => {
        const now = this.tick();
        for (const [key, kind, encoding, value] of rows) {
          const { id } = stmts.upsertFact.get(key, kind, encoding, value) as { id: number };
          stmts.upsertAccess.run(id, now);
        }
      }).immediate();
      if (!this.permsChecked) {
        this.permsChecked = true;
        securePerms(this.path);
      }
    } catch (error) {
      this.fail('put', error);
    }
  }

  /**
   * Evicts least recently used entries down to 80 % of the quota when DB + WAL exceed it; returns how many were
   * evicted. Each step is sized to the remaining excess (at most 1,000 entries) and re-measured, so being slightly
   * over never wipes the cache; then freed pages are returned to the file system and the WAL truncated.
   */
  enforceQuota(): number {
    const { db, stmts } = this;
    if (!db || !stmts) return 0;
    let evicted = 0;
    try {
      if (diskBytes(this.path) <= this.quotaBytes) return 0;
      const target = this.quotaBytes * EVICT_TO;
      for (;;) {
        const used = usedBytes(db);
        const entries = (stmts.count.get() as { n: number }).n;
        if (used <= target || entries === 0) break;
        // Fixed overhead (schema, indexes) inflates the average, which only makes each step smaller.
        const perEntry = used / entries;
        const step = Math.min(MAX_EVICT_STEP, entries, Math.max(1, Math.ceil((used - target) / perEntry)));
        const removed = db.transaction(() => stmts.evict.run(step).changes).immediate();
        if (removed === 0) break;
        evicted += removed;
      }
      db.pragma('incremental_vacuum');
      // A truncate checkpoint waits for every reader; without the busy handler it gives up instead of stalling.
      db.pragma('busy_timeout = 0');
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    } catch (error) {
      this.fail('quota', error);
    }
    this.evictedCount += evicted;
    return evicted;
  }

  stats(): FactCacheStats {
    let entries = 0;
    try {
      if (this.db && this.stmts) entries = (this.stmts.count.get() as { n: number }).n;
    } catch (error) {
      this.fail('stats', error);
    }
    const bytes = this.path ? diskBytes(this.path) : 0;
    return {
      entries,
      bytes,
      hits: this.hits,
      misses: this.misses,
      evicted: this.evictedCount,
      errors: this.errors,
    };
  }

  close(): void {
    const db = this.db;
    this.db = undefined;
    if (!db) return;
    try {
      db.pragma('optimize');
    } catch (error) {
      this.fail('close', error);
    } finally {
      db.close();
    }
  }

  /** A logical clock shared by every process on this file, so LRU order holds even within one millisecond. */
  private tick(): number {
    return (this.stmts?.tick.get() as { value: number }).value;
  }

  private decode(row: FactRow): CachedOutcome | undefined {
    try {
      const kind = KINDS[row.kind];
      if (!kind) throw new Error(`unknown outcome kind ${row.kind}`);
      const json =
        row.enc === ENC_DEFLATE_DICT ? zlib.inflateRawSync(row.value, { dictionary: DICTIONARY }) : row.value;
      return { kind, facts: JSON.parse(json.toString('utf8')) as FileFacts };
    } catch (error) {
      this.fail('decode', error);
      return undefined;
    }
  }

  /** Counts the error, logs the first of each operation, and stops using a file that SQLite reports damaged. */
  private fail(operation: string, error: unknown): void {
    this.errors++;
    const corrupt = isCorruption(error);
    if (!this.logged.has(operation) || corrupt) {
      this.logged.add(operation);
      this.logger.warn(
        { path: this.path, operation, err: messageOf(error) },
        `fact cache ${operation} failed`,
      );
    }
    if (corrupt && this.db) {
      this.logger.warn({ path: this.path }, 'fact cache is corrupt: disabled now, rebuilt on next open');
      try {
        fs.writeFileSync(path.join(path.dirname(this.path), REBUILD_FILE), '', { mode: 0o600 });
        this.db.close();
      } catch {
        // Best effort: without the marker the next open still detects damage in the header or schema.
      }
      this.db = undefined;
    }
  }
}

interface FactRow {
  readonly k: string;
  readonly id: number;
  readonly kind: number;
  readonly enc: number;
  readonly value: Buffer;
}

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  return {
    // CROSS JOIN pins json_each as the outer loop, so each key is one index probe.
    selectMany: db.prepare(
      'SELECT j.value AS k, f.id, f.kind, f.enc, f.value FROM json_each(?) AS j CROSS JOIN facts AS f ON f.key = unhex(j.value)',
    ),
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

function openDb(dbPath: string, quotaBytes: number): Database.Database {
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

function prepareDir(dir: string, workspacePath: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  // Rewritten on every open: its mtime then tells `doctor` when the project last used this cache.
  fs.writeFileSync(path.join(dir, MARKER_FILE), workspacePath, { mode: 0o600 });
}

function encode(facts: FileFacts): [number, Buffer] {
  const json = Buffer.from(JSON.stringify(facts), 'utf8');
  if (json.length < COMPRESS_MIN_BYTES) return [ENC_JSON, json];
  return [ENC_DEFLATE_DICT, zlib.deflateRawSync(json, { level: 3, dictionary: DICTIONARY })];
}

function securePerms(dbPath: string): void {
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      fs.chmodSync(file, 0o600);
    } catch {
      // -wal and -shm exist only while a connection is open.
    }
  }
}

function removeDbFiles(dbPath: string): void {
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`])
    fs.rmSync(file, { force: true });
}

function diskBytes(dbPath: string): number {
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
function usedBytes(db: Database.Database): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return (pages - free) * (db.pragma('page_size', { simple: true }) as number);
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
