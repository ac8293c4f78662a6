/**
 * The key store's schema as numbered migrations (see migrations.ts). Times are ISO-8601 text; `rate` is the
 * key's own rate as written (`10/s`) and `daily` its own daily quota, both null for "as its role says".
 */
import type Database from 'better-sqlite3';
import { applyMigrations, schemaVersionOf, type Migration } from './migrations.js';

export const KEYS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'api keys and their daily usage',
    sql: `
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  prefix TEXT NOT NULL UNIQUE,
  hash TEXT NOT NULL,
  tenant TEXT NOT NULL,
  role TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  rate TEXT,
  daily INTEGER,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  last_used_at TEXT
);
CREATE TABLE key_usage (
  subject TEXT NOT NULL,
  day TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  refusals INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subject, day)
);`,
  },
];

export const KEYS_SCHEMA_VERSION = schemaVersionOf(KEYS_MIGRATIONS);

export function migrateKeys(db: Database.Database, now: () => Date): void {
  applyMigrations(db, KEYS_MIGRATIONS, 'keys', now);
}
