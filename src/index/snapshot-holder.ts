import { buildCallGraph } from './calls/build.js';
import type { CallGraph } from './calls/model.js';
import type { ContractGraph } from './graph/model.js';
import { reconcile, type ReconcileInput } from './graph/reconcile.js';
import type { Derivation, SnapshotReader } from './reader.js';
import type { ServiceView } from './services/types.js';
import type { IndexedFile, RejectedFile, RootInfo, Snapshot } from './snapshot.js';

/** What the contract graph is reconciled with besides the snapshot's files and services. */
export type GraphSettings = Omit<ReconcileInput, 'files' | 'services'>;

type DerivedCache = Map<Derivation<unknown>, unknown>;

/** How a snapshot patched from an earlier one takes over that one's derived structures. */
export interface SnapshotLineage {
  /** The earlier snapshot's derived structures (not the snapshot itself: its graph may be large). */
  readonly base: DerivedCache;
  /** Files of the earlier snapshot that this one no longer holds as they were. */
  readonly removed: readonly IndexedFile[];
  /** Files this one holds that the earlier one did not (new, or a new version of a removed one). */
  readonly added: readonly IndexedFile[];
}

/** Beyond this many files in flight, a derived structure is cheaper rebuilt than patched. */
const MAX_LINEAGE_FILES = 20_000;

/**
 * One installed snapshot and everything derived from it. The snapshot's data never changes; what this
 * holder adds (the contract graph, derived structures, lookup tables) is built on first request and kept
 * until the snapshot is dropped. Reconciling happens in `contractGraph()` and nowhere else.
 */
export class SnapshotHolder implements SnapshotReader {
  readonly generation: number;
  readonly createdAt: string;
  readonly workspace: string;
  readonly roots: readonly RootInfo[];
  readonly files: readonly IndexedFile[];
  readonly rejected: readonly RejectedFile[];
  readonly services: ReadonlyMap<string, string>;
  readonly serviceView: ServiceView | undefined;
  private readonly graphSettings: GraphSettings;
  private reconciled: ContractGraph | undefined;
  private calls: CallGraph | undefined;
  private readonly derivedCache: DerivedCache = new Map();
  private lineage: SnapshotLineage | undefined;
  private byPath: Map<string, Map<string, IndexedFile>> | undefined;
  private byAbsolutePath: Map<string, IndexedFile> | undefined;

  constructor(snapshot: Snapshot, graphSettings: GraphSettings, lineage?: SnapshotLineage) {
    this.generation = snapshot.generation;
    this.createdAt = snapshot.createdAt;
    this.workspace = snapshot.workspace;
    this.roots = snapshot.roots;
    this.files = snapshot.files;
    this.rejected = snapshot.rejected;
    this.services = snapshot.services;
    this.serviceView = snapshot.serviceView;
    this.graphSettings = graphSettings;
    this.lineage = lineage;
  }

  file(root: string, path: string): IndexedFile | undefined {
    if (!this.byPath) {
      this.byPath = new Map();
      for (const file of this.files) {
        const inRoot = this.byPath.get(file.root) ?? this.byPath.set(file.root, new Map()).get(file.root);
        inRoot?.set(file.path, file);
      }
    }
    return this.byPath.get(root)?.get(path);
  }

  fileOf(at: {
    readonly root: string | undefined;
    readonly file: string | undefined;
  }): IndexedFile | undefined {
    return at.root === undefined || at.file === undefined ? undefined : this.file(at.root, at.file);
  }

  fileAt(absolutePath: string): IndexedFile | undefined {
    if (!this.byAbsolutePath) {
      this.byAbsolutePath = new Map();
      for (const file of this.files)
        if (!this.byAbsolutePath.has(file.absolutePath)) this.byAbsolutePath.set(file.absolutePath, file);
    }
    return this.byAbsolutePath.get(absolutePath);
  }

  serviceOf(root: string): string {
    return this.services.get(root) ?? root;
  }

  serviceModel(): ServiceView {
    return this.serviceView ?? { entries: [], uncovered: [], partial: false };
  }

  contractGraph(): ContractGraph {
    this.reconciled ??= reconcile({ files: this.files, services: this.services, ...this.graphSettings });
    return this.reconciled;
  }

  hasContractGraph(): boolean {
    return this.reconciled !== undefined;
  }

  callGraph(): CallGraph {
    this.calls ??= buildCallGraph(this.files, this.graphSettings.imports ?? []);
    return this.calls;
  }

  hasCallGraph(): boolean {
    return this.calls !== undefined;
  }

  derived<T>(derivation: Derivation<T>): T {
    if (this.derivedCache.has(derivation)) return this.derivedCache.get(derivation) as T;
    const value = this.inherited(derivation) ?? derivation.build(this);
    this.derivedCache.set(derivation, value);
    return value;
  }

  /** The structure the earlier snapshot built, taken over and patched, if it built one. */
  private inherited<T>(derivation: Derivation<T>): T | undefined {
    const lineage = this.lineage;
    if (!lineage || !derivation.patch || !lineage.base.has(derivation)) return undefined;
    const previous = lineage.base.get(derivation) as T;
    lineage.base.delete(derivation);
    return derivation.patch(previous, lineage.removed, lineage.added);
  }

  /**
   * What a snapshot patched from this one (the files that left and came) inherits. Usually this one's derived
   * structures; when nobody asked this one for anything (several reloads before the next query), this one's
   * own lineage is extended instead, so the next query still patches.
   */
  lineageFor(patch: {
    readonly removed: readonly IndexedFile[];
    readonly added: readonly IndexedFile[];
  }): SnapshotLineage | undefined {
    const before = this.lineage;
    if (this.derivedCache.size > 0 || !before) return { base: this.derivedCache, ...patch };
    // A file added by the earlier patch and removed by this one never reached the base: it cancels out.
    const removedNow = new Set(patch.removed);
    const addedBefore = new Set(before.added);
    const removed = [...before.removed, ...patch.removed.filter((f) => !addedBefore.has(f))];
    const added = [...before.added.filter((f) => !removedNow.has(f)), ...patch.added];
    if (removed.length + added.length > MAX_LINEAGE_FILES) return undefined;
    return { base: before.base, removed, added };
  }

  /** Called once a newer snapshot is installed: only the newest may point back, or every old file list stays reachable. */
  releaseLineage(): void {
    this.lineage = undefined;
  }
}
