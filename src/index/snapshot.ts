import type { FileFacts, LanguageId } from './facts.js';
import type { ServiceView } from './services/types.js';

export interface RootInfo {
  /** Unique, stable label: the folder name, disambiguated with its parent when two roots share one. */
  readonly name: string;
  /** Absolute, canonical. */
  readonly path: string;
}

export type RejectReason =
  | 'oversized'
  | 'binary'
  | 'long_line'
  | 'nesting'
  | 'unreadable'
  | 'parse_failed'
  | 'parse_timeout'
  /** A file or folder the walk could not use (a path over the system's length limit, a folder it may not list). */
  | 'unusable_path';

export interface RejectedFile {
  readonly root: string;
  /** Relative to its root, `/`-separated. */
  readonly path: string;
  readonly reason: RejectReason;
  readonly size: number;
  readonly detail?: string;
}

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
  /** Root name → the service it holds (manifest name, else the model's name for its folder, else folder name). */
  readonly services: ReadonlyMap<string, string>;
  /** The service model as the roots see it (absent in snapshots built without one, e.g. in tests). */
  readonly serviceView?: ServiceView;
}

/** `root:path`, the identity of a file across snapshots. */
export const fileKey = (root: string, path: string): string => `${root}:${path}`;

/** The order of `Snapshot.files` and `Snapshot.rejected`: by root name, then path (code-unit order). */
export const compareFiles = (
  a: { readonly root: string; readonly path: string },
  b: { readonly root: string; readonly path: string },
): number => (a.root < b.root ? -1 : a.root > b.root ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
