/**
 * Where a workspace's fact cache lives: a folder per workspace under the cache root, named by a hash of the
 * workspace's canonical path and holding a marker that names the workspace (what `doctor` reads). Free of
 * SQLite, like cache-paths.ts, so that naming the folder loads no database code.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheRoot } from './cache-paths.js';

type Env = Readonly<Record<string, string | undefined>>;

const MARKER_FILE = 'workspace_path';

export function workspaceIdOf(canonicalPath: string): string {
  return createHash('sha256').update(canonicalPath).digest('hex').slice(0, 16);
}

/** Symlinks resolved, so that two spellings of one workspace share one cache. */
export function canonicalWorkspacePath(workspacePath: string): string {
  const absolute = path.resolve(workspacePath);
  try {
    return fs.realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

export function cacheDirFor(workspacePath: string, env: Env = process.env): string {
  return path.join(cacheRoot(env), 'workspaces', workspaceIdOf(canonicalWorkspacePath(workspacePath)));
}

/** For `doctor --fix`: deletes this workspace's cache folder and nothing outside it; throws if it cannot. */
export function removeCacheDir(
  workspacePath: string,
  env: Env = process.env,
): { path: string; removed: boolean } {
  const dir = cacheDirFor(workspacePath, env);
  const existed = fs.existsSync(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return { path: dir, removed: existed };
}

/** Creates the folder owner-only and (re)writes its marker. */
export function prepareCacheDir(dir: string, workspacePath: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  // Rewritten on every open: its mtime then tells `doctor` when the project last used this cache.
  fs.writeFileSync(path.join(dir, MARKER_FILE), workspacePath, { mode: 0o600 });
}
