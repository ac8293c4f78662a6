/**
 * Persistent, content-addressed cache of per-file facts: one SQLite file per workspace, so that a restart or a
 * branch switch back re-parses nothing it has seen. The cache is an optimisation only: every method is best
 * effort and never throws, and a cache that cannot be opened degrades to "parse everything".
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { FileFacts } from '../index/facts.js';
import {
  BUSY_TIMEOUT_MS,
  CACHE_SCHEMA_VERSION,
  diskBytes,
  type FactRow,
  isCorruption,
  messageOf,
  openDb,
  prepareStatements,
  removeDbFiles,
  rowsOf,
  securePerms,
  type Statements,
  usedBytes,
} from './fact-cache-db.js';
import { decodeFacts, encodeFacts, OUTCOME_KINDS, type RawFact } from './fact-cache-encoding.js';
import { cacheDirFor, canonicalWorkspacePath, prepareCacheDir } from './fact-cache-folder.js';

export const DEFAULT_MAX_SIZE_MB = 2048;
const DB_FILE = 'facts.db';
/** Left by a session that hit corruption at run time, so that the next open rebuilds instead of failing again. */
const REBUILD_FILE = 'rebuild-requested';
const EVICT_TO = 0.8;
const MAX_EVICT_STEP = 1000;
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

export class FactCache {
  private db: Database.Database | undefined;
  private readonly stmts: Statements | undefined;
  private hits = 0;
  private pendingTouches: number[] = [];
  private touchScheduled = false;
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
    this.stmts = db ? prepareStatements(db) : undefined;
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
      prepareCacheDir(dir, canonicalWorkspacePath(options.workspacePath));
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
      for (const row of rowsOf(keys, stmts)) {
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
      // Recency is written after the caller has its facts (a warm start of 6,000 files waited ~8 ms for it);
      // anything that evicts writes it first, so the LRU order is never stale when it matters.
      // A loop, not a spread: a warm start of 130,000 files or more passes that many arguments and overflows the stack.
      for (const id of hitIds) this.pendingTouches.push(id);
      if (!this.touchScheduled) {
        this.touchScheduled = true;
        setImmediate(() => this.flushTouches());
      }
    }
    return found;
  }

  /** Writes the recency of the entries read since the last flush. */
  private flushTouches(): void {
    this.touchScheduled = false;
    const { db, stmts } = this;
    const ids = this.pendingTouches;
    this.pendingTouches = [];
    if (!db || !stmts || ids.length === 0) return;
    try {
      db.transaction(() => stmts.touch.run(this.tick(), JSON.stringify(ids))).immediate();
    } catch (error) {
      this.fail('touch', error);
    }
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
    if (!this.db || entries.length === 0) return;
    // Encoding is CPU work: done before taking the write lock so other processes wait less.
    const rows: RawFact[] = [];
    for (const { key, outcome } of entries) {
      try {
        const [enc, value] = encodeFacts(outcome.facts);
        rows.push({ key, kind: OUTCOME_KINDS.indexOf(outcome.kind), enc, value });
      } catch (error) {
        this.fail('encode', error);
      }
    }
    this.putRaw(rows);
  }

  /** Stores entries already in this cache's encoding (facts another replica shared), without decoding them. */
  putRaw(rows: readonly RawFact[]): void {
    const { db, stmts } = this;
    if (!db || !stmts || rows.length === 0) return;
    const valid = rows.filter((row) => {
      if (HEX_KEY.test(row.key)) return true;
      this.fail('encode', new Error(`not a factKey() key: ${row.key.slice(0, 80)}`));
      return false;
    });
    try {
      db.transaction(() => {
        const now = this.tick();
        for (const { key, kind, enc, value } of valid) {
          const { id } = stmts.upsertFact.get(Buffer.from(key, 'hex'), kind, enc, value) as { id: number };
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
    this.flushTouches();
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
    this.flushTouches();
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
      const kind = OUTCOME_KINDS[row.kind];
      if (!kind) throw new Error(`unknown outcome kind ${row.kind}`);
      return { kind, facts: decodeFacts(row.enc, row.value) };
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
