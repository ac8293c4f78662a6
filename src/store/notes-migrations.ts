/**
 * The notes schema as numbered migrations, applied in order and recorded in `schema_migrations`. A PostgreSQL
 * store mirrors the same numbers with its own dialect; the tables keep to types both have (text, integer),
 * and every row names its workspace so that one team database can hold many.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const NOTES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'notes',
    sql: `
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  workspace TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '',
  author TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  pin_kind TEXT,
  pin_path TEXT,
  pin_name TEXT,
  pin_symbol_kind TEXT,
  pin_hash TEXT,
  UNIQUE (workspace, key)
);
CREATE INDEX notes_pinned ON notes (workspace, pin_kind) WHERE pin_kind IS NOT NULL;`,
  },
  {
    version: 2,
    name: 'notes full-text index',
    // External content: the index holds only tokens; the triggers keep it in step with every write. Porter
    // stemming, since notes are prose: "retry" finds "retries".
    sql: `
CREATE VIRTUAL TABLE notes_fts USING fts5(key, tags, value, content='notes', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
  INSERT INTO notes_fts (rowid, key, tags, value) VALUES (new.id, new.key, new.tags, new.value);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, key, tags, value) VALUES ('delete', old.id, old.key, old.tags, old.value);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
  INSERT INTO notes_fts (notes_fts, rowid, key, tags, value) VALUES ('delete', old.id, old.key, old.tags, old.value);
  INSERT INTO notes_fts (rowid, key, tags, value) VALUES (new.id, new.key, new.tags, new.value);
END;
INSERT INTO notes_fts (notes_fts) VALUES ('rebuild');`,
  },
];

export const NOTES_SCHEMA_VERSION = Math.max(...NOTES_MIGRATIONS.map((m) => m.version));

/**
 * Brings the file to the newest schema, each step in the same write transaction as its record, so that two
 * processes opening a new file at once apply it once. A file from a newer meshlens is refused, not altered.
 */
export function migrateNotes(db: Database.Database, now: () => Date): void {
  db.transaction(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as {
      v: number | null;
    };
    const current = applied.v ?? 0;
    if (current > NOTES_SCHEMA_VERSION) {
      throw new Error(
        `the notes file has schema version ${current}, newer than this meshlens knows (${NOTES_SCHEMA_VERSION}); upgrade meshlens`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of NOTES_MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, now().toISOString());
    }
  }).immediate();
}
