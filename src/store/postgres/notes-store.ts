/**
 * A workspace's notes in the PostgreSQL team store: one table shared by every replica, each row under its
 * tenant and workspace, searched with PostgreSQL full-text search. It answers as the SQLite store does; where
 * the two differ (the rank's numbers, stemming details) the docs say so.
 */
import { ToolError } from '../../core/errors.js';
import type {
  Note,
  NoteListQuery,
  NotePage,
  NoteSearchHit,
  NoteSearchQuery,
  NotesStore,
  NoteWrite,
} from '../../core/notes.js';
import { prefixBound } from '../note-key-prefix.js';
import { anyWordQuery, documentTexts, documentVector, RANK_WEIGHTS } from './notes-search.js';
import { StoreUnavailableError, type PostgresPool } from './pool.js';
import { LOCAL_TENANT } from './team-store.js';
import { NOTE_COLUMNS, pinOf, type PinColumns } from '../note-rows.js';

/** The tenant of a server that serves no tenants (see LOCAL_TENANT). */
export const LOCAL_NOTES_TENANT = LOCAL_TENANT;

interface NoteRow extends PinColumns {
  key: string;
  value: string;
  tags: string[];
  author: string;
  created_at: Date;
  updated_at: Date;
}

function noteOf(row: NoteRow): Note {
  const pin = pinOf(row);
  return {
    key: row.key,
    value: row.value,
    tags: row.tags,
    author: row.author,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(pin ? { pin } : {}),
  };
}

/** A WHERE clause built with its parameters, numbered in order. */
class Where {
  readonly params: unknown[] = [];
  private readonly terms: string[] = [];

  constructor(tenant: string, workspace: string) {
    this.add('n.tenant = ?', tenant);
    this.add('n.workspace = ?', workspace);
  }

  /** `?` marks where each value goes. */
  add(term: string, ...values: unknown[]): this {
    let sql = term;
    for (const value of values) {
      this.params.push(value);
      sql = sql.replace('?', `$${this.params.length}`);
    }
    this.terms.push(sql);
    return this;
  }

  /** Keys starting with `prefix`, as a range the primary key index walks. */
  prefix(prefix: string | undefined): this {
    if (prefix === undefined || prefix === '') return this;
    const bound = prefixBound(prefix);
    this.add('n.key >= ?', prefix);
    return bound === undefined ? this : this.add('n.key < ?', bound);
  }

  tag(tag: string | undefined): this {
    return tag === undefined ? this : this.add('? = ANY (n.tags)', tag);
  }

  get sql(): string {
    return this.terms.join(' AND ');
  }

  /** The number the next parameter takes. */
  get next(): number {
    return this.params.length + 1;
  }
}

export interface PostgresNotesOptions {
  readonly tenant: string;
  /** The workspace identity every row is kept under (the same as the SQLite store's). */
  readonly workspace: string;
  readonly now?: () => Date;
}

export class PostgresNotesStore implements NotesStore {
  readonly location: string;
  private readonly pool: PostgresPool;
  private readonly tenant: string;
  private readonly workspace: string;
  private readonly now: () => Date;

  /** Opens nothing: the pool belongs to the team store, which migrated the database and closes it. */
  constructor(pool: PostgresPool, options: PostgresNotesOptions) {
    this.pool = pool;
    this.tenant = options.tenant;
    this.workspace = options.workspace;
    this.now = options.now ?? (() => new Date());
    this.location = `${pool.displayUrl} (tenant ${options.tenant}, workspace ${options.workspace})`;
  }

  async put(write: NoteWrite): Promise<{ note: Note; created: boolean }> {
    const pin = write.pin;
    const values = [
      this.tenant,
      this.workspace,
      write.key,
      write.value,
      write.tags,
      write.author,
      this.now().toISOString(),
      pin?.kind ?? null,
      pin?.path ?? null,
      pin?.kind === 'declaration' ? pin.qualifiedName : null,
      pin?.kind === 'declaration' ? pin.symbolKind : null,
      pin?.hash ?? null,
      ...documentTexts(write.key, write.tags, write.value),
    ];
    // `xmax = 0` only on a row this statement inserted: a replaced row carries the writer's lock. Unlike a
    // read before the write, it stays right when two replicas write one new key at once.
    const [row] = await this.query<NoteRow & { created: boolean }>(
      `WITH seen AS (INSERT INTO tenants (name) VALUES ($1) ON CONFLICT DO NOTHING)
       INSERT INTO notes AS n (tenant, workspace, key, value, tags, author, created_at, updated_at,
         pin_kind, pin_path, pin_name, pin_symbol_kind, pin_hash, search)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $11, $12, ${documentVector(13)})
       ON CONFLICT (tenant, workspace, key) DO UPDATE SET value = excluded.value, tags = excluded.tags,
         author = excluded.author, updated_at = excluded.updated_at, pin_kind = excluded.pin_kind,
         pin_path = excluded.pin_path, pin_name = excluded.pin_name,
         pin_symbol_kind = excluded.pin_symbol_kind, pin_hash = excluded.pin_hash, search = excluded.search
       RETURNING ${NOTE_COLUMNS}, (n.xmax = 0) AS created`,
      values,
    );
    if (!row) throw new Error(`note ${JSON.stringify(write.key)} was not returned by its own write`);
    return { note: noteOf(row), created: row.created };
  }

  async get(key: string): Promise<Note | undefined> {
    const where = this.where().add('n.key = ?', key);
    const [row] = await this.query<NoteRow>(
      `SELECT ${NOTE_COLUMNS} FROM notes n WHERE ${where.sql}`,
      where.params,
    );
    return row ? noteOf(row) : undefined;
  }

  async list(query: NoteListQuery): Promise<NotePage> {
    // Keys hold no control character, and PostgreSQL text no NUL: such a prefix names no note.
    if (query.prefix?.includes('\u0000')) return { notes: [], total: 0 };
    const where = this.where().prefix(query.prefix).tag(query.tag);
    const page = `LIMIT $${where.next} OFFSET $${where.next + 1}`;
    const rows = await this.query<Partial<NoteRow> & { total: number }>(
      `SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM notes n WHERE ${where.sql}) t
       LEFT JOIN LATERAL (SELECT ${NOTE_COLUMNS} FROM notes n WHERE ${where.sql} ORDER BY n.key ${page}) p ON true`,
      [...where.params, query.limit, query.offset],
    );
    return { notes: pageRows(rows).map(noteOf), total: rows[0]?.total ?? 0 };
  }

  async search(query: NoteSearchQuery): Promise<{ hits: NoteSearchHit[]; total: number }> {
    const where = this.where().tag(query.tag);
    const matching = anyWordQuery(query.words, where.next);
    if (!matching) return { hits: [], total: 0 };
    const params = [...where.params, ...matching.params];
    const page = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
    const rank = `ts_rank_cd('${RANK_WEIGHTS}'::float4[], n.search, query.q)`;
    // One statement: the count and the page are read from one snapshot, as SQLite reads them in one transaction.
    const rows = await this.query<Partial<NoteRow> & { total: number; rank: number | null }>(
      `SELECT t.total, p.* FROM (SELECT ${matching.sql} AS q) query
       CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM notes n
         WHERE ${where.sql} AND n.search @@ query.q) t
       LEFT JOIN LATERAL (SELECT ${NOTE_COLUMNS}, ${rank} AS rank FROM notes n
         WHERE ${where.sql} AND n.search @@ query.q ORDER BY rank DESC, n.key ${page}) p ON true`,
      [...params, query.limit, query.offset],
    );
    return {
      // Negated, so that lower is better whichever store ranked it.
      hits: pageRows(rows).map((row) => ({ note: noteOf(row), score: -(row.rank ?? 0) })),
      total: rows[0]?.total ?? 0,
    };
  }

  async delete(key: string): Promise<boolean> {
    const where = this.where().add('n.key = ?', key);
    const rows = await this.query(`DELETE FROM notes n WHERE ${where.sql} RETURNING 1`, where.params);
    return rows.length > 0;
  }

  async keys(prefix: string, limit: number): Promise<string[]> {
    if (prefix.includes('\u0000')) return [];
    const where = this.where().prefix(prefix);
    const rows = await this.query<{ key: string }>(
      `SELECT n.key FROM notes n WHERE ${where.sql} ORDER BY n.key LIMIT $${where.next}`,
      [...where.params, limit],
    );
    return rows.map((row) => row.key);
  }

  async pinned(): Promise<Note[]> {
    const where = this.where().add('n.pin_kind IS NOT NULL');
    const rows = await this.query<NoteRow>(
      `SELECT ${NOTE_COLUMNS} FROM notes n WHERE ${where.sql} ORDER BY n.key`,
      where.params,
    );
    return rows.map(noteOf);
  }

  /** Nothing to release: the team store owns the pool. */
  close(): void {}

  private where(): Where {
    return new Where(this.tenant, this.workspace);
  }

  /**
   * A lost database is a tool failure the caller can read, not an internal error. A connection the database
   * ended (a restart, an operator's pg_terminate_backend) waits in the pool until its next use and fails
   * that statement without running it, so the statement is sent again on a fresh connection. Should a
   * connection break between a commit and its reply, the retried put says "replaced" and the retried delete
   * "not found": the notes themselves are right either way.
   */
  private async query<R extends object>(sql: string, values: readonly unknown[]): Promise<R[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<R & Record<string, unknown>>(sql, values);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        if (attempt <= STALE_CONNECTION_RETRIES && endedByServer(error.cause)) {
          // One turn of the event loop lets the other ended connections report it and leave the pool.
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        throw new ToolError('unavailable', error.message);
      }
    }
  }
}

/**
 * Each retry drops one ended connection from the pool, so this many (the pool's size) get past every one a
 * restart left behind; the database ending new connections as fast is an outage, reported as one.
 */
const STALE_CONNECTION_RETRIES = 10;

/** A connection that was open and was ended, as opposed to one that could not be opened. */
function endedByServer(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === '57P01' ||
    code === '57P02' ||
    code === 'ECONNRESET' ||
    /Connection terminated/i.test(error.message)
  );
}

/** The page's rows of a `count LEFT JOIN LATERAL page` result: none when the one row carries only the count. */
const pageRows = <R extends Partial<NoteRow>>(rows: readonly R[]): (R & NoteRow)[] =>
  rows.filter((row): row is R & NoteRow => typeof row.key === 'string');
