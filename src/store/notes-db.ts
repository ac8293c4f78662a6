/**
 * A workspace's notes in SQLite: one file per workspace identity, shared by every meshlens process on the
 * machine (WAL, a busy timeout, write transactions that take the lock first), searched with FTS5.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type {
  Note,
  NoteListQuery,
  NotePage,
  NoteSearchHit,
  NoteSearchQuery,
  NotesStore,
  NoteWrite,
} from '../core/notes.js';
import { securePerms } from './fact-cache-db.js';
import { prefixBound } from './note-key-prefix.js';
import { migrateNotes } from './notes-migrations.js';
import { NOTE_COLUMNS, pinOf, type PinColumns } from './note-rows.js';

// Still exported from here; it lives apart so that the PostgreSQL store uses it without loading SQLite.
export { prefixBound };

/** Another process writing holds the lock for milliseconds; waiting this long means something is stuck. */
const BUSY_TIMEOUT_MS = 5000;

/** Column weights for bm25: a word in the key says more than one in the tags, which says more than the text. */
const RANK = 'bm25(notes_fts, 4.0, 2.0, 1.0)';

interface NoteRow extends PinColumns {
  key: string;
  value: string;
  tags: string;
  author: string;
  created_at: string;
  updated_at: string;
}

function noteOf(row: NoteRow): Note {
  const pin = pinOf(row);
  return {
    key: row.key,
    value: row.value,
    tags: row.tags === '' ? [] : row.tags.split(' '),
    author: row.author,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(pin ? { pin } : {}),
  };
}

/** Each word as an FTS5 string (quotes doubled), so nothing the caller types is read as query syntax. */
const matchExpression = (words: readonly string[]): string =>
  words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');

/** Tags are stored space-separated; a tag holds no space, so the padded form finds whole tags only. */
const TAG_FILTER = "(? IS NULL OR instr(' ' || n.tags || ' ', ' ' || ? || ' ') > 0)";
/** The key-prefix condition and its parameters, none without a prefix. */
function prefixFilter(prefix: string | undefined): { sql: string; params: string[] } {
  if (prefix === undefined) return { sql: '', params: [] };
  const bound = prefixBound(prefix);
  return bound === undefined
    ? { sql: ' AND n.key >= ?', params: [prefix] }
    : { sql: ' AND n.key >= ? AND n.key < ?', params: [prefix, bound] };
}

export interface SqliteNotesOptions {
  readonly path: string;
  /** The workspace identity every row is kept under. */
  readonly workspace: string;
  readonly now?: () => Date;
}

export class SqliteNotesStore implements NotesStore {
  readonly location: string;
  private readonly db: Database.Database;
  private readonly workspace: string;
  private readonly now: () => Date;

  private constructor(db: Database.Database, options: SqliteNotesOptions) {
    this.db = db;
    this.location = options.path;
    this.workspace = options.workspace;
    this.now = options.now ?? (() => new Date());
  }

  /** Creates the folder and file owner-only, and brings the schema up to date. Throws when it cannot. */
  static open(options: SqliteNotesOptions): SqliteNotesStore {
    const file = path.resolve(options.path);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Created 0600 before SQLite opens it: its -wal and -shm files take the database file's mode.
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrateNotes(db, options.now ?? (() => new Date()));
      securePerms(file);
      return new SqliteNotesStore(db, { ...options, path: file });
    } catch (error) {
      db.close();
      throw error;
    }
  }

  // The methods are async for the interface's sake; SQLite answers at once, inside one synchronous call.
  async put(write: NoteWrite): Promise<{ note: Note; created: boolean }> {
    const at = this.now().toISOString();
    const pin = write.pin;
    const upsert = this.db.prepare<unknown[]>(
      `INSERT INTO notes (workspace, key, value, tags, author, created_at, updated_at,
         pin_kind, pin_path, pin_name, pin_symbol_kind, pin_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace, key) DO UPDATE SET value = excluded.value, tags = excluded.tags,
         author = excluded.author, updated_at = excluded.updated_at, pin_kind = excluded.pin_kind,
         pin_path = excluded.pin_path, pin_name = excluded.pin_name, pin_symbol_kind = excluded.pin_symbol_kind,
         pin_hash = excluded.pin_hash`,
    );
    const existed = this.db.prepare('SELECT 1 FROM notes WHERE workspace = ? AND key = ?').pluck();
    const run = this.db.transaction(() => {
      const before = existed.get(this.workspace, write.key) !== undefined;
      upsert.run(
        this.workspace,
        write.key,
        write.value,
        write.tags.join(' '),
        write.author,
        at,
        at,
        pin?.kind ?? null,
        pin?.path ?? null,
        pin?.kind === 'declaration' ? pin.qualifiedName : null,
        pin?.kind === 'declaration' ? pin.symbolKind : null,
        pin?.hash ?? null,
      );
      return { note: this.read(write.key), created: !before };
    });
    // BEGIN IMMEDIATE: the lock is taken before the read, so two writers of one key cannot both "create" it,
    // and the note read back is the one written, not another process's.
    const { note, created } = run.immediate();
    if (!note) throw new Error(`note ${JSON.stringify(write.key)} was not there right after it was written`);
    return { note, created };
  }

  async get(key: string): Promise<Note | undefined> {
    return this.read(key);
  }

  private read(key: string): Note | undefined {
    const row = this.db
      .prepare<[string, string], NoteRow>(
        `SELECT ${NOTE_COLUMNS} FROM notes n WHERE n.workspace = ? AND n.key = ?`,
      )
      .get(this.workspace, key);
    return row ? noteOf(row) : undefined;
  }

  async list(query: NoteListQuery): Promise<NotePage> {
    const prefix = prefixFilter(query.prefix);
    const where = `n.workspace = ?${prefix.sql} AND ${TAG_FILTER}`;
    const params = [this.workspace, ...prefix.params, query.tag ?? null, query.tag ?? null];
    const read = this.db.transaction(() => {
      const total = this.db
        .prepare(`SELECT count(*) FROM notes n WHERE ${where}`)
        .pluck()
        .get(...params);
      const rows = this.db
        .prepare<unknown[], NoteRow>(
          `SELECT ${NOTE_COLUMNS} FROM notes n WHERE ${where} ORDER BY n.key LIMIT ? OFFSET ?`,
        )
        .all(...params, query.limit, query.offset);
      return { notes: rows.map(noteOf), total: Number(total) };
    });
    return read();
  }

  async search(query: NoteSearchQuery): Promise<{ hits: NoteSearchHit[]; total: number }> {
    if (query.words.length === 0) return { hits: [], total: 0 };
    const from = `notes_fts JOIN notes n ON n.id = notes_fts.rowid
      WHERE notes_fts MATCH ? AND n.workspace = ? AND ${TAG_FILTER}`;
    const params = [matchExpression(query.words), this.workspace, query.tag ?? null, query.tag ?? null];
    const read = this.db.transaction(() => {
      const total = this.db
        .prepare(`SELECT count(*) FROM ${from}`)
        .pluck()
        .get(...params);
      const rows = this.db
        .prepare<unknown[], NoteRow & { score: number }>(
          `SELECT ${NOTE_COLUMNS}, ${RANK} AS score FROM ${from} ORDER BY score, n.key LIMIT ? OFFSET ?`,
        )
        .all(...params, query.limit, query.offset);
      return { hits: rows.map((row) => ({ note: noteOf(row), score: row.score })), total: Number(total) };
    });
    return read();
  }

  async delete(key: string): Promise<boolean> {
    return (
      this.db.prepare('DELETE FROM notes WHERE workspace = ? AND key = ?').run(this.workspace, key).changes >
      0
    );
  }

  async pinned(): Promise<Note[]> {
    return this.db
      .prepare<[string], NoteRow>(
        `SELECT ${NOTE_COLUMNS} FROM notes n WHERE n.workspace = ? AND n.pin_kind IS NOT NULL ORDER BY n.key`,
      )
      .all(this.workspace)
      .map(noteOf);
  }

  /** All keys starting with `prefix`, ordered, at most `limit` (completions). */
  async keys(prefix: string, limit: number): Promise<string[]> {
    const filter = prefixFilter(prefix === '' ? undefined : prefix);
    return this.db
      .prepare<unknown[], string>(
        `SELECT n.key FROM notes n WHERE n.workspace = ?${filter.sql} ORDER BY n.key LIMIT ?`,
      )
      .pluck()
      .all(this.workspace, ...filter.params, limit);
  }

  close(): void {
    try {
      this.db.close();
    } catch {
      // Closing twice or after a disk error: nothing left to release.
    }
  }
}
