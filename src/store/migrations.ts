/**
 * Numbered schema migrations, applied in order and recorded in `schema_migrations`. Each store (notes, keys)
 * keeps its own list in its own file; a PostgreSQL store mirrors the same numbers in its own dialect, so the
 * tables keep to types both have (text, integer).
 */
import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const schemaVersionOf = (migrations: readonly Migration[]): number =>
  Math.max(...migrations.map((m) => m.version));

/**
 * Brings the file to the newest schema, each step in the same write transaction as its record, so that two
 * processes opening a new file at once apply it once. A file from a newer meshlens is refused, not altered.
 * `what` names the file in that refusal ("notes", "keys").
 */
export function applyMigrations(
  db: Database.Database,
  migrations: readonly Migration[],
  what: string,
  now: () => Date,
): void {
  const newest = schemaVersionOf(migrations);
  db.transaction(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as {
      v: number | null;
    };
    const current = applied.v ?? 0;
    if (current > newest) {
      throw new Error(
        `the ${what} file has schema version ${current}, newer than this meshlens knows (${newest}); upgrade meshlens`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, now().toISOString());
    }
  }).immediate();
}
