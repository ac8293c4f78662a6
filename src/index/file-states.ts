import type { KnownFileState } from './index-run.js';
import { fileKey, type IndexedFile } from './snapshot.js';

/**
 * The size, mtime and hash of the files whose state differs from what the cache last recorded (the
 * previous snapshot's file, or after a restart the cache's own record): all that needs writing back.
 */
export function changedFileStates(
  indexed: readonly IndexedFile[],
  previous: ReadonlyMap<string, IndexedFile>,
  known: ReadonlyMap<string, KnownFileState> | undefined,
): Map<string, KnownFileState> {
  const changed = new Map<string, KnownFileState>();
  for (const file of indexed) {
    const key = fileKey(file.root, file.path);
    const before = previous.get(key) ?? known?.get(key);
    if (
      !before ||
      before.size !== file.size ||
      before.mtimeMs !== file.mtimeMs ||
      before.hash !== file.hash
    ) {
      changed.set(key, { size: file.size, mtimeMs: file.mtimeMs, hash: file.hash });
    }
  }
  return changed;
}
