/**
 * What operations may know about the index: types only (operations import these with `import type`). The
 * engine implements `IndexReader`; the composition root hands it to the registry as a service.
 */
import type { CallGraph } from './calls/model.js';
import type { ContractGraph } from './graph/model.js';
import type { ServiceView } from './services/types.js';
import type { IndexedFile, RejectedFile, RootInfo, Snapshot } from './snapshot.js';
import type { FileFacts } from './facts.js';
import type { IndexRunPhases } from './run-phases.js';

export type { IndexedFile, RejectReason, RejectedFile, RootInfo } from './snapshot.js';
export type {
  CallFact,
  Confidence,
  ContractFact,
  DocSectionFact,
  FileFacts,
  LanguageId,
  SymbolFact,
  SymbolKind,
} from './facts.js';
export type { LanguageSpec } from './languages/language-spec.js';
export type {
  ContractGraph,
  EdgeKind,
  GraphEdge,
  GraphNode,
  NodeKind,
  UnresolvedCall,
  UnresolvedTopic,
} from './graph/model.js';
export type { ServiceView, ServiceViewEntry } from './services/types.js';
export type { CallEdge, CallGraph, CallGraphStats, CallVia, DeclRef } from './calls/model.js';
export type { Learnt, ServiceEntry, ServiceKind, ServiceName } from './services/types.js';

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
  /** Where the run's time went (see `run-phases.ts`). */
  readonly phases?: IndexRunPhases;
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
  /** Why the last full index run failed, when it did (answers, if any, come from the snapshot before it). */
  readonly failure?: string;
  readonly fingerprint?: string;
  /** Replicas on one team store share the index: who built the snapshot, and what this replica did. */
  readonly shared?: SharedIndexStatus;
}

/** The shared index as one replica sees it (`serve --http --store postgres://…`). */
export interface SharedIndexStatus {
  /** This replica's name in the store. */
  readonly replica: string;
  /**
   * `waiting`: another replica holds the workspace's index job; `building`: this replica holds it;
   * `following`: another replica just built the snapshot and this one indexes from its facts;
   * `built` / `followed`: the cold index is done, either way; `unshared`: the store could not be used,
   * this replica indexed on its own (`note` says why).
   */
  readonly state: 'claiming' | 'waiting' | 'building' | 'following' | 'built' | 'followed' | 'unshared';
  /** The replica that holds the job while this one waits, and how far it says it is. */
  readonly holder?: {
    readonly replica: string;
    readonly since: string;
    readonly done: number;
    readonly total: number;
  };
  /** The workspace's shared snapshot: the last run that finished, by any replica. */
  readonly snapshot?: {
    readonly run: number;
    readonly replica: string;
    readonly finishedAt: string;
    readonly files: number;
    readonly parsed: number;
    readonly inputsFingerprint: string;
  };
  /** This replica's cold index: files parsed here, facts pulled from the store, facts it shared. */
  readonly thisRun?: {
    readonly parsed: number;
    readonly pulled: number;
    readonly uploaded: number;
    /** Whether this replica read the same files as the snapshot's run (false: its checkout differs). */
    readonly matchesSnapshot: boolean;
  };
  readonly note?: string;
}

export interface RescanRequest {
  /** Absolute paths inside the roots; none means everything. */
  readonly paths?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Another version of a file, extracted as the index extracts files (see `IndexReader.extractVersion`). */
export type ExtractedVersion =
  | { readonly kind: 'facts'; readonly facts: FileFacts }
  /** No extractor reads this kind of file: the index holds nothing for it either. */
  | { readonly kind: 'unsupported' }
  | { readonly kind: 'failed'; readonly reason: string };

export interface IndexReader {
  status(): IndexStatus;
  /** The installed snapshot, or undefined before the first one. */
  snapshot(): SnapshotReader | undefined;
  rescan(request: RescanRequest): Promise<IndexRunSummary>;
  /**
   * The facts of another version of a file (`source`, e.g. its text at a git revision; `path` root-relative
   * picks the language), extracted with the same extractor and settings as the indexed files. Absent: this
   * index cannot extract on request.
   */
  extractVersion?(path: string, source: string): Promise<ExtractedVersion>;
}

/**
 * One snapshot as operations read it: its immutable data, lookups by identity (never by a key the caller
 * builds), the contract graph and the structures derived from the snapshot. The graph and the derived
 * structures are built on first request and kept for the snapshot's lifetime: a query answered from this
 * snapshot never sees another one's.
 */
export interface SnapshotReader extends Snapshot {
  /** The indexed file at a root-relative path. */
  file(root: string, path: string): IndexedFile | undefined;
  /** The indexed file a graph node is located in, or holding an edge's evidence. */
  fileOf(at: {
    readonly root: string | undefined;
    readonly file: string | undefined;
  }): IndexedFile | undefined;
  /** The indexed file at an absolute path. */
  fileAt(absolutePath: string): IndexedFile | undefined;
  /** The service a root holds (its manifest's name), else the root's own name. */
  serviceOf(root: string): string;
  /**
   * The service model (what the workspace's manifests, Dockerfiles and deploy files declare) as the roots
   * see it: each entry with the root indexing it, and the folders holding code that no root covers.
   */
  serviceModel(): ServiceView;
  /**
   * The contract graph: reconciled from every file's facts by the first call, the same graph afterwards.
   * Callers that only count or list files never call it, so they never pay for reconciling.
   */
  contractGraph(): ContractGraph;
  /** Whether `contractGraph()` has run (a status report must not make it run). */
  hasContractGraph(): boolean;
  /** The call graph: every file's call sites bound to declarations, built by the first call. */
  callGraph(): CallGraph;
  /** Whether `callGraph()` has run. */
  hasCallGraph(): boolean;
  /** The structure `derivation` describes, built (or patched from the previous snapshot's) on first request. */
  derived<T>(derivation: Derivation<T>): T;
}

/**
 * A structure derived from a snapshot (a symbol index, ...), defined once by its owner and kept by each
 * snapshot reader; the definition itself is the cache key.
 */
export interface Derivation<T> {
  build(snapshot: SnapshotReader): T;
  /**
   * Brings the structure built for the previous snapshot up to date with the files that left and came since,
   * instead of rebuilding it (absent: always rebuilt). It is handed over, never shared: the previous snapshot
   * rebuilds its own if a late query still asks it.
   */
  patch?(previous: T, removed: readonly IndexedFile[], added: readonly IndexedFile[]): T;
}
