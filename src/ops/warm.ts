/**
 * The lookup structures an operation would otherwise build on its first call after a snapshot is installed,
 * built ahead of that call while the server is idle. Each is patched from the previous snapshot's when it
 * can be, so warming after a reload costs what the reload changed.
 */
import type { SnapshotReader } from '../index/reader.js';
import { dependentsIndex } from './contracts/dependents-index.js';
import type { MeshServices } from './services.js';

export function warmSnapshot(snapshot: SnapshotReader, languages: MeshServices['languages']): void {
  dependentsIndex(snapshot, languages);
}
