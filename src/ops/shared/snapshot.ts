import { ToolError } from '../../core/errors.js';
import type { SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';

/** The installed snapshot; the registry's readiness gate normally answers before this can fail. */
export function requireSnapshot(services: MeshServices): SnapshotReader {
  const snapshot = services.index.snapshot();
  if (!snapshot)
    throw new ToolError(
      'still_indexing',
      'Still indexing; no snapshot yet. Retry shortly, or call admin status.',
    );
  return snapshot;
}
