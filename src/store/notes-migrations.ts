/**
 * The notes schema as numbered migrations (see migrations.ts). Every row names its workspace so that one team
 * database can hold many.
 */
import type Database from 'better-sqlite3';
import { applyMigrations, schemaVersionOf, type Migration } from './migrations.js';

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

export const NOTES_SCHEMA_VERSION = schemaVersionOf(NOTES_MIGRATIONS);

export function migrateNotes(db: Database.Database, now: () => Date): void {
  applyMigrations(db, NOTES_MIGRATIONS, 'notes', now);
}
