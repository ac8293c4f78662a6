/**
 * Where a server installation keeps its API keys and their usage. Keys belong to the installation, not to a
 * workspace, and cannot be rebuilt, so they are data: `$MESHLENS_KEYS_DB`, else `keys.db` in the data folder.
 * Free of SQLite, like cache-paths.ts.
 */
import path from 'node:path';
import { dataRoot } from './notes-paths.js';

type Env = Readonly<Record<string, string | undefined>>;

export function keysDbPath(env: Env = process.env): string {
  if (env.MESHLENS_KEYS_DB) return path.resolve(env.MESHLENS_KEYS_DB);
  return path.join(dataRoot(env), 'keys.db');
}

/** The installation secret the key hashes are keyed with, beside the database but never inside it. */
export const keysSecretPath = (dbPath: string): string => `${dbPath}.secret`;
