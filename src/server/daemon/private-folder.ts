import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** A folder that is not the user's own and private: the daemon's socket must not go there. */
export class FolderNotPrivateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FolderNotPrivateError';
  }
}

/**
 * Makes `dir` and its parent (the per-user base, e.g. `/tmp/meshlens-1000`) folders that only this user can
 * open (0700). A folder someone else created there first, or a symlink in its place, is refused: whoever
 * owns it could swap the socket for their own and read every request.
 */
export function ensurePrivateFolder(dir: string): void {
  const parent = path.dirname(dir);
  for (const folder of [parent, dir]) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || stat.isSymbolicLink()) {
      throw new FolderNotPrivateError(
        `${folder} is not a folder (a symlink or file is in its place); remove it, or run \`meshlens serve --no-daemon\`.`,
      );
    }
    if (uid !== undefined && stat.uid !== uid) {
      throw new FolderNotPrivateError(
        `${folder} belongs to another user (uid ${stat.uid}), so the daemon socket cannot go there safely; ` +
          'remove it, set XDG_RUNTIME_DIR to a folder of your own, or run `meshlens serve --no-daemon`.',
      );
    }
    if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
  }
}
