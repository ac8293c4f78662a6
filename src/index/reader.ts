/**
 * What operations may know about the index: types only (operations import these with `import type`). The
 * engine implements `IndexReader`; the composition root hands it to the registry as a service.
 */
import type { Snapshot } from './snapshot.js';

export interface RootInfo {
  /** Unique, stable label: the folder name, disambiguated with its parent when two roots share one. */
  readonly name: string;
  /** Absolute, canonical. */
  readonly path: string;
}

export type RejectReason =
  'oversized' | 'binary' | 'long_line' | 'nesting' | 'unreadable' | 'parse_failed' | 'parse_timeout';

export interface RejectedFile {
  readonly root: string;
  /** Relative to its root, `/`-separated. */
  readonly path: string;
  readonly reason: RejectReason;
  readonly size: number;
  readonly detail?: string;
}

export interface IndexRunSummary {
  readonly generation: number;
  readonly at: string;
  readonly wallMs: number;
  readonly filesSeen: number;
  readonly parsed: number;
  readonly cacheHits: number;
  readonly cacheMisses: number;
  readonly changed: number;
  /** Files read from disk; unchanged files (same size and mtime) are trusted from the last run. */
  readonly read: number;
  readonly removed: number;
  readonly full: boolean;
}

export interface IndexStatus {
  readonly workspace: string;
  readonly roots: readonly RootInfo[];
  readonly phase: 'not_started' | 'indexing' | 'ready';
  /** Generation of the installed snapshot; 0 before the first one. */
  readonly generation: number;
  /** Progress of the index run under way, if any. */
  readonly progress?: { readonly done: number; readonly total: number };
  readonly files: number;
  readonly byLanguage: Readonly<Record<string, number>>;
  readonly noGrammar: number;
  readonly rejected: readonly RejectedFile[];
  readonly symbols: number;
  readonly contracts: number;
  /** Contract-graph edges; absent until the graph is first built (on the first contract or graph query). */
  readonly edges?: number;
  readonly docSections: number;
  readonly lastRun?: IndexRunSummary;
  readonly cache?: {
    readonly path: string;
    readonly entries: number;
    readonly bytes: number;
    readonly warning?: string;
  };
  /** Why reloads are being held (a git operation), if they are. */
  readonly hold?: string;
  readonly fingerprint?: string;
}

export interface RescanRequest {
  /** Absolute paths inside the roots; none means everything. */
  readonly paths?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface IndexReader {
  status(): IndexStatus;
  /** The installed snapshot, or undefined before the first one. */
  snapshot(): Snapshot | undefined;
  rescan(request: RescanRequest): Promise<IndexRunSummary>;
}
