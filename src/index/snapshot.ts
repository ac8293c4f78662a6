import type { FileFacts, LanguageId } from './facts.js';
import type { ContractGraph } from './graph/model.js';
import type { RejectedFile, RootInfo } from './reader.js';

/** One indexed file in a snapshot. */
export interface IndexedFile {
  /** Name of the root it belongs to (its most specific root). */
  readonly root: string;
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  readonly absolutePath: string;
  readonly language: LanguageId | undefined;
  readonly size: number;
  readonly mtimeMs: number;
  /** SHA-256 of the content. */
  readonly hash: string;
  /** How the facts were obtained. */
  readonly outcome: 'parsed' | 'no-grammar';
  readonly facts: FileFacts;
}

/** An immutable view of the workspace, swapped in whole; queries never see a half-built one. */
export interface Snapshot {
  readonly generation: number;
  readonly createdAt: string;
  readonly workspace: string;
  readonly roots: readonly RootInfo[];
  /** Sorted by root order, then path. */
  readonly files: readonly IndexedFile[];
  readonly rejected: readonly RejectedFile[];
  /** Root name → the service it holds (manifest name, else folder name). */
  readonly services: ReadonlyMap<string, string>;
  /** Contracts and the code linked to them, reconciled from every file's facts. */
  readonly graph: ContractGraph;
  /** Whether `graph` has been reconciled yet (it is built on first use); absent: always built. */
  readonly graphBuilt?: () => boolean;
  /** Derived structures (graph, symbol index) add their canonical lines to the fingerprint here. */
  readonly extraLines?: () => readonly string[];
  /** Structures derived from this snapshot (a symbol index, ...), cached here by their owners on first use. */
  readonly derived?: DerivedCache;
  /**
   * Set when this snapshot was patched from the one before it (an incremental reload): what left and what
   * came, so a derived structure can be patched instead of rebuilt. The engine drops it once a newer
   * snapshot is patched from this one, so no chain of old snapshots stays reachable.
   */
  lineage?: SnapshotLineage;
}

export type DerivedCache = Map<string, unknown>;

export interface SnapshotLineage {
  /** The previous snapshot's derived cache (not the snapshot itself: its graph may be large). */
  readonly base: DerivedCache;
  /** Files of the previous snapshot that this one no longer holds as they were. */
  readonly removed: readonly IndexedFile[];
  /** Files this one holds that the previous did not (new, or a new version of a removed one). */
  readonly added: readonly IndexedFile[];
}

/** `root:path`, the identity of a file across snapshots. */
export const fileKey = (root: string, path: string): string => `${root}:${path}`;

/** The order of `Snapshot.files` and `Snapshot.rejected`: by root name, then path (code-unit order). */
export const compareFiles = (
  a: { readonly root: string; readonly path: string },
  b: { readonly root: string; readonly path: string },
): number => (a.root < b.root ? -1 : a.root > b.root ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
