/**
 * API keys in PostgreSQL, shared by every replica on the database. The same rows as the SQLite key store
 * (keys-db.ts): a key's text is shown once and never stored, a row holds its prefix and its keyed hash.
 *
 * No key row is cached: each request looks its key up by prefix (one indexed read), so a key revoked on one
 * replica is refused by every replica from the next request on.
 */
import { prefixOfKey } from '../../core/api-key-format.js';
import { keyHasher, newApiKey, type KeyHasher } from '../key-material.js';
import type { KeyRecord, NewKey, StoredKey } from '../keys-db.js';
import { sharedKeySecret } from './key-secret.js';
import type { PostgresPool } from './pool.js';

type Env = Readonly<Record<string, string | undefined>>;
type Warn = { warn(obj: object, msg: string): void };

/** last_used_at is for people reading `keys list`: a minute's precision spares a write on every call. */
const LAST_USED_PRECISION_MS = 60_000;
/** 32 bits of prefix collide rarely; a new key whose prefix is taken is simply drawn again. */
const PREFIX_DRAWS = 8;
const MAX_ID = 2_147_483_647;

interface KeyRow {
  id: number;
  prefix: string;
  hash: string;
  tenant: string;
  role: string;
  label: string;
  rate: string | null;
  daily: number | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const iso = (at: Date | null): string | null => (at === null ? null : at.toISOString());

const recordOf = (row: KeyRow): KeyRecord => ({
  id: row.id,
  prefix: row.prefix,
  tenant: row.tenant,
  role: row.role,
  label: row.label,
  rate: row.rate,
  daily: row.daily,
  createdAt: row.created_at.toISOString(),
  expiresAt: iso(row.expires_at),
  revokedAt: iso(row.revoked_at),
  lastUsedAt: iso(row.last_used_at),
});

export interface PostgresKeyStoreOptions {
  readonly env?: Env;
  readonly now?: () => Date;
  readonly logger?: Warn;
}

export class PostgresKeyStore {
  /** Where the keys are, for messages: the database's URL without its password. */
  readonly location: string;
  /** The keyed hash of a key's text, with the secret every replica shares. */
  readonly hash: KeyHasher;
  private readonly pool: PostgresPool;
  private readonly now: () => Date;
  private readonly logger: Warn | undefined;
  /** When this process last wrote each key's last_used_at, so that it writes at most once a minute. */
  private readonly touched = new Map<number, number>();

  private constructor(pool: PostgresPool, hash: KeyHasher, options: PostgresKeyStoreOptions) {
    this.pool = pool;
    this.location = pool.displayUrl;
    this.hash = hash;
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger;
  }

  /** Reads (or, the first time, creates) the shared secret; the schema is migrated by the team store. */
  static async open(pool: PostgresPool, options: PostgresKeyStoreOptions = {}): Promise<PostgresKeyStore> {
    const secret = await sharedKeySecret(pool, options.env ?? process.env);
    return new PostgresKeyStore(pool, keyHasher(secret), options);
  }

  /** A new key: its text (to show once) and its row. Its tenant is listed in `tenants` too. */
  async create(request: NewKey): Promise<{ readonly key: string; readonly record: KeyRecord }> {
    return this.pool.transaction(async (client) => {
      await client.query('INSERT INTO tenants (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [
        request.tenant,
      ]);
      for (let draw = 0; draw < PREFIX_DRAWS; draw++) {
        const key = newApiKey();
        const { rows } = await client.query<KeyRow>(
          `INSERT INTO api_keys (prefix, hash, tenant, role, label, rate, daily, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (prefix) DO NOTHING RETURNING *`,
          [
            prefixOfKey(key),
            this.hash(key),
            request.tenant,
            request.role,
            request.label ?? '',
            request.rate ?? null,
            request.daily ?? null,
            this.now(),
            request.expiresAt ?? null,
          ],
        );
        const [row] = rows;
        if (row) return { key, record: recordOf(row) };
      }
      throw new Error(`no free key prefix after ${PREFIX_DRAWS} draws`);
    });
  }

  async list(): Promise<KeyRecord[]> {
    return (await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY id')).map(recordOf);
  }

  /** Whether any key is neither revoked nor expired: the server then asks every request for one. */
  async hasActiveKey(nowMs: number): Promise<boolean> {
    const rows = await this.pool.query(
      'SELECT 1 FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1) LIMIT 1',
      [new Date(nowMs)],
    );
    return rows.length > 0;
  }

  /** The key named by its prefix or its id. */
  async find(prefixOrId: string): Promise<KeyRecord | undefined> {
    if (/^[0-9]+$/.test(prefixOrId)) return this.byId(Number(prefixOrId));
    const [row] = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE prefix = $1', [prefixOrId]);
    return row ? recordOf(row) : undefined;
  }

  /** Revokes the key, once: a key revoked already keeps its first revocation time. */
  async revoke(id: number): Promise<KeyRecord | undefined> {
    await this.pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
      this.now(),
      id,
    ]);
    return this.byId(id);
  }

  /** The rows a presented key could be, by its prefix (one at most, since prefixes are unique). */
  async candidates(prefix: string): Promise<StoredKey[]> {
    const rows = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE prefix = $1', [prefix]);
    return rows.map((row) => ({ ...recordOf(row), hash: row.hash }));
  }

  /**
   * Notes that the key was used, at most once a minute per key and process, without holding up the request.
   * A write that fails is tried again on the key's next request.
   */
  touch(id: number, nowMs: number): void {
    if (nowMs - (this.touched.get(id) ?? -Infinity) < LAST_USED_PRECISION_MS) return;
    this.touched.set(id, nowMs);
    this.pool
      .query(
        `UPDATE api_keys SET last_used_at = $1
         WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $3)`,
        [new Date(nowMs), id, new Date(nowMs - LAST_USED_PRECISION_MS)],
      )
      .catch((error: unknown) => {
        this.touched.delete(id);
        this.logger?.warn({ err: error }, 'could not note when a key was last used');
      });
  }

  private async byId(id: number): Promise<KeyRecord | undefined> {
    if (!Number.isSafeInteger(id) || id > MAX_ID) return undefined;
    const [row] = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return row ? recordOf(row) : undefined;
  }

  /** The pool belongs to the team store, which closes it. */
  close(): void {}
}
