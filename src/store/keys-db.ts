/**
 * API keys and their usage in SQLite, one file per server installation shared by every meshlens process on
 * the machine (WAL, a busy timeout, write transactions that take the lock first). A key's text is shown once,
 * when it is created, and never stored: a row holds its prefix and its keyed hash (key-material.ts).
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { UsageCounter } from '../core/admission.js';
import { securePerms } from './fact-cache-db.js';
import { prefixOfKey } from '../core/api-key-format.js';
import { installationSecret, keyHasher, newApiKey, type KeyHasher } from './key-material.js';
import { migrateKeys } from './keys-migrations.js';
import { keysSecretPath } from './keys-paths.js';

const BUSY_TIMEOUT_MS = 5000;
/** last_used_at is for people reading `keys list`: a minute's precision spares a write on every call. */
const LAST_USED_PRECISION_MS = 60_000;
/** 32 bits of prefix collide rarely; a new key whose prefix is taken is simply drawn again. */
const PREFIX_DRAWS = 8;

/** A key as listed: everything but its hash. */
export interface KeyRecord {
  readonly id: number;
  readonly prefix: string;
  readonly tenant: string;
  readonly role: string;
  readonly label: string;
  /** The key's own rate (`10/s`), null for its role's. */
  readonly rate: string | null;
  /** The key's own daily quota, null for its role's. */
  readonly daily: number | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
}

/** A key as the authenticator checks it. */
export interface StoredKey extends KeyRecord {
  readonly hash: string;
}

export interface NewKey {
  readonly tenant: string;
  readonly role: string;
  readonly label?: string;
  readonly expiresAt?: Date;
  readonly rate?: string;
  readonly daily?: number;
}

/** One caller's usage over a window: `key:<id>` with its key's prefix and tenant, or `local`. */
export interface UsageRow {
  readonly subject: string;
  readonly prefix: string | null;
  readonly tenant: string | null;
  readonly calls: number;
  readonly refusals: number;
}

interface KeyRow {
  id: number;
  prefix: string;
  hash: string;
  tenant: string;
  role: string;
  label: string;
  rate: string | null;
  daily: number | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const recordOf = (row: KeyRow): KeyRecord => ({
  id: row.id,
  prefix: row.prefix,
  tenant: row.tenant,
  role: row.role,
  label: row.label,
  rate: row.rate,
  daily: row.daily,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

/** The usage query, shared with `stats`, which reads the file without opening the store (or its secret). */
export function usageRows(db: Database.Database, fromDay: string | undefined): UsageRow[] {
  return db
    .prepare<[string], UsageRow>(
      `SELECT u.subject AS subject, k.prefix AS prefix, k.tenant AS tenant,
         sum(u.calls) AS calls, sum(u.refusals) AS refusals
       FROM key_usage u LEFT JOIN api_keys k ON u.subject = 'key:' || k.id
       WHERE u.day >= ?
       GROUP BY u.subject ORDER BY calls DESC, refusals DESC, u.subject`,
    )
    .all(fromDay ?? '');
}

/** Usage from a key file opened read-only; none when there is no file yet. */
export function readKeyUsage(file: string, fromDay: string | undefined): UsageRow[] {
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    return usageRows(db, fromDay);
  } finally {
    db.close();
  }
}

export interface KeyStoreOptions {
  readonly path: string;
  readonly now?: () => Date;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export class SqliteKeyStore implements UsageCounter {
  readonly location: string;
  /** The keyed hash of a key's text, with this installation's secret. */
  readonly hash: KeyHasher;
  private readonly db: Database.Database;
  private readonly now: () => Date;

  private constructor(db: Database.Database, location: string, hash: KeyHasher, now: () => Date) {
    this.db = db;
    this.location = location;
    this.hash = hash;
    this.now = now;
  }

  /** Creates the folder, the file (owner-only) and the secret, and brings the schema up to date. Throws when it cannot. */
  static open(options: KeyStoreOptions): SqliteKeyStore {
    const file = path.resolve(options.path);
    const now = options.now ?? (() => new Date());
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const secret = installationSecret(keysSecretPath(file), options.env ?? process.env);
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrateKeys(db, now);
      securePerms(file);
      return new SqliteKeyStore(db, file, keyHasher(secret), now);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** A new key: its text (to show once) and its row. */
  create(request: NewKey): { readonly key: string; readonly record: KeyRecord } {
    const insert = this.db.prepare(
      `INSERT INTO api_keys (prefix, hash, tenant, role, label, rate, daily, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const taken = this.db.prepare('SELECT 1 FROM api_keys WHERE prefix = ?').pluck();
    const run = this.db.transaction(() => {
      for (let draw = 0; draw < PREFIX_DRAWS; draw++) {
        const key = newApiKey();
        const prefix = prefixOfKey(key);
        if (taken.get(prefix) !== undefined) continue;
        const id = insert.run(
          prefix,
          this.hash(key),
          request.tenant,
          request.role,
          request.label ?? '',
          request.rate ?? null,
          request.daily ?? null,
          this.now().toISOString(),
          request.expiresAt?.toISOString() ?? null,
        ).lastInsertRowid;
        return { key, id: Number(id) };
      }
      throw new Error(`no free key prefix after ${PREFIX_DRAWS} draws`);
    });
    const { key, id } = run.immediate();
    const record = this.byId(id);
    if (!record) throw new Error(`key ${id} was not there right after it was written`);
    return { key, record };
  }

  list(): KeyRecord[] {
    return this.db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY id').all().map(recordOf);
  }

  /** Whether any key is neither revoked nor expired: the server then asks every request for one. */
  hasActiveKey(nowMs: number): boolean {
    return this.list().some(
      (key) => key.revokedAt === null && (key.expiresAt === null || Date.parse(key.expiresAt) > nowMs),
    );
  }

  /** The key named by its prefix or its id. */
  find(prefixOrId: string): KeyRecord | undefined {
    const row = /^[0-9]+$/.test(prefixOrId)
      ? this.db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?').get(Number(prefixOrId))
      : this.db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE prefix = ?').get(prefixOrId);
    return row ? recordOf(row) : undefined;
  }

  /** Revokes the key, once: a key revoked already keeps its first revocation time. */
  revoke(id: number): KeyRecord | undefined {
    this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(this.now().toISOString(), id);
    return this.byId(id);
  }

  /** The rows a presented key could be, by its prefix (one at most, since prefixes are unique). */
  candidates(prefix: string): StoredKey[] {
    return this.db
      .prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE prefix = ?')
      .all(prefix)
      .map((row) => ({ ...recordOf(row), hash: row.hash }));
  }

  /** Notes that the key was used; written at most once a minute per key. */
  touch(id: number, nowMs: number): void {
    const at = new Date(nowMs).toISOString();
    const before = new Date(nowMs - LAST_USED_PRECISION_MS).toISOString();
    this.db
      .prepare(
        'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      )
      .run(at, id, before);
  }

  admitCall(subject: string, day: string, dailyLimit: number | undefined): { readonly admitted: boolean } {
    const calls = this.db
      .prepare<[string, string], number>('SELECT calls FROM key_usage WHERE subject = ? AND day = ?')
      .pluck();
    const count = (column: 'calls' | 'refusals') =>
      this.db
        .prepare(
          `INSERT INTO key_usage (subject, day, ${column}) VALUES (?, ?, 1)
           ON CONFLICT (subject, day) DO UPDATE SET ${column} = ${column} + 1`,
        )
        .run(subject, day);
    // BEGIN IMMEDIATE: the lock is taken before the count is read, so two processes cannot both admit the
    // last call of the day.
    return this.db
      .transaction(() => {
        const admitted = dailyLimit === undefined || (calls.get(subject, day) ?? 0) < dailyLimit;
        count(admitted ? 'calls' : 'refusals');
        return { admitted };
      })
      .immediate();
  }

  countRefusal(subject: string, day: string): void {
    this.db
      .prepare(
        `INSERT INTO key_usage (subject, day, refusals) VALUES (?, ?, 1)
         ON CONFLICT (subject, day) DO UPDATE SET refusals = refusals + 1`,
      )
      .run(subject, day);
  }

  /** Calls and refusals per caller from `fromDay` on (every day without one), most calls first. */
  usage(fromDay: string | undefined): UsageRow[] {
    return usageRows(this.db, fromDay);
  }

  private byId(id: number): KeyRecord | undefined {
    const row = this.db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?').get(id);
    return row ? recordOf(row) : undefined;
  }

  close(): void {
    try {
      this.db.close();
    } catch {
      // Closing twice or after a disk error: nothing left to release.
    }
  }
}
