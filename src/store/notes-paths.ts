/**
 * Where a workspace's notes live. Notes are what agents wrote, not something meshlens can rebuild, so they are
 * kept as data, beside the caches and never among them: wiping the cache folder (or `doctor --fix`) keeps
 * them, and nothing is ever written into the repository. Free of SQLite, like cache-paths.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { canonicalWorkspacePath, workspaceIdOf } from './fact-cache-folder.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `$MESHLENS_DATA_DIR`, else `$XDG_DATA_HOME/meshlens`, else `~/.local/share/meshlens`. */
export function dataRoot(env: Env = process.env): string {
  if (env.MESHLENS_DATA_DIR) return path.resolve(env.MESHLENS_DATA_DIR);
  // As for XDG_CACHE_HOME, the spec says a relative XDG_DATA_HOME must be ignored.
  const xdg = env.XDG_DATA_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'meshlens');
  return path.join(env.HOME || os.homedir(), '.local', 'share', 'meshlens');
}

/** The identity notes are kept under: the same as the fact cache's, so two spellings of a workspace share them. */
export const notesWorkspaceId = (workspacePath: string): string =>
  workspaceIdOf(canonicalWorkspacePath(workspacePath));

/** One SQLite file per workspace identity under `notes/` in the data folder. */
export function notesDbPath(workspacePath: string, env: Env = process.env): string {
  return path.join(dataRoot(env), 'notes', `${notesWorkspaceId(workspacePath)}.db`);
}
