import { fileKey, type IndexedFile, type RejectedFile, type Snapshot } from './snapshot.js';

/** How a freshly indexed file set compares with the installed snapshot. */
export type SnapshotChange =
  /** Nothing differs, not even a file's size or mtime: the installed snapshot can stay as it is. */
  | 'identical'
  /** Same files, same content and same derived inputs, but some file's size or mtime moved (a touch, a checkout that rewrote equal bytes). */
  | 'same-content'
  | 'changed';

export interface IndexedState {
  readonly files: readonly IndexedFile[];
  readonly rejected: readonly RejectedFile[];
  readonly services: ReadonlyMap<string, string>;
}

const rejectedKey = (r: RejectedFile): string => `${fileKey(r.root, r.path)}\u0000${r.reason}`;

/**
 * Compares what a reload produced with the installed snapshot. A reload that changes no content must not
 * become a new generation: several watcher events for one git operation, or a commit that moves HEAD
 * without touching the tree, would otherwise invalidate every derived index for nothing.
 */
export function compareWithSnapshot(
  previous: Snapshot | undefined,
  next: IndexedState,
  derivedInputsChanged: boolean,
): SnapshotChange {
  if (!previous || derivedInputsChanged) return 'changed';
  if (previous.files.length !== next.files.length) return 'changed';
  if (previous.rejected.length !== next.rejected.length) return 'changed';
  if (previous.services.size !== next.services.size) return 'changed';
  for (const [root, service] of next.services) {
    if (previous.services.get(root) !== service) return 'changed';
  }
  for (let i = 0; i < next.rejected.length; i++) {
    const before = previous.rejected[i];
    const after = next.rejected[i];
    if (!before || !after || rejectedKey(before) !== rejectedKey(after)) return 'changed';
  }
  let statsMoved = false;
  // Both lists are sorted the same way (root order, then path), so files pair up by position.
  for (let i = 0; i < next.files.length; i++) {
    const before = previous.files[i];
    const after = next.files[i];
    if (!before || !after) return 'changed';
    if (before.root !== after.root || before.path !== after.path || before.hash !== after.hash)
      return 'changed';
    if (before.outcome !== after.outcome) return 'changed';
    if (before.size !== after.size || before.mtimeMs !== after.mtimeMs) statsMoved = true;
  }
  return statsMoved ? 'same-content' : 'identical';
}
