import type { RejectedFile } from './reader.js';
import { fileKey, type IndexedFile, type Snapshot, type SnapshotLineage } from './snapshot.js';

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

/** Beyond this many files in flight, a derived structure is cheaper rebuilt than patched. */
const MAX_LINEAGE_FILES = 20_000;

/**
 * How a snapshot patched from `previous` relates to a snapshot whose derived structures are built. Usually
 * that is `previous` itself; when nobody asked `previous` for anything (several reloads before the next
 * query), the patch is folded into `previous`'s own lineage, so the next query still patches.
 */
export function lineageOf(
  previous: Snapshot,
  patch: { readonly removed: readonly IndexedFile[]; readonly added: readonly IndexedFile[] },
): SnapshotLineage | undefined {
  if (!previous.derived) return undefined;
  const before = previous.lineage;
  if (previous.derived.size > 0 || !before) return { base: previous.derived, ...patch };
  // A file added by the earlier patch and removed by this one never reached the base: it cancels out.
  const removedNow = new Set(patch.removed);
  const addedBefore = new Set(before.added);
  const removed = [...before.removed, ...patch.removed.filter((f) => !addedBefore.has(f))];
  const added = [...before.added.filter((f) => !removedNow.has(f)), ...patch.added];
  if (removed.length + added.length > MAX_LINEAGE_FILES) return undefined;
  return { base: before.base, removed, added };
}
