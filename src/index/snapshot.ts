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
  /** Derived structures (graph, symbol index) add their canonical lines to the fingerprint here. */
  readonly extraLines?: () => readonly string[];
}

/** `root:path`, the identity of a file across snapshots. */
export const fileKey = (root: string, path: string): string => `${root}:${path}`;
