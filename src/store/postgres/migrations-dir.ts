import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RELATIVE = path.join('migrations', 'postgres');

/**
 * The folder of SQL migrations: `dist/migrations/postgres` next to the bundle (the build copies it there), or
 * `migrations/postgres` at the package root when running from source. Found by walking up from this module,
 * since the bundle puts it in a chunk folder.
 */
export function postgresMigrationsDir(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, RELATIVE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(
    `the PostgreSQL migrations (${RELATIVE}) are missing from the installed package; reinstall meshlens`,
  );
}
