import type { LoadedConfig, ResolvedRoot } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { IndexEngine } from '../index/engine.js';
import type {
  ExtractedVersion,
  IndexReader,
  IndexRunSummary,
  IndexStatus,
  RescanRequest,
} from '../index/reader.js';
import type { SnapshotHolder } from '../index/snapshot-holder.js';
import type { PersistentFactStore } from '../index/index-run.js';
import type { SharedIndex } from '../store/postgres/shared-index.js';
import type { TeamStore } from '../store/postgres/team-store.js';

export interface LazyIndexOptions {
  /** The PostgreSQL team store: facts and the cold index are shared with the other replicas on it. */
  readonly team?: TeamStore;
  /** With `[server.tenants]`: the tenant whose workspace this is; its shared rows carry the name. */
  readonly tenant?: string;
  /** How often a replica waiting for another's cold index asks again (tests make it short). */
  readonly pollMs?: number;
  /** Parse threads; 0 parses in-process (tests). Defaults to the core count. */
  readonly threads?: number;
}

/**
 * Stands in for the index engine until its module is loaded, so that the server can answer `initialize`
 * before tree-sitter, SQLite and the worker pool are even imported.
 */
export class LazyIndex implements IndexReader {
  private engine: IndexEngine | undefined;
  private loading: Promise<IndexEngine> | undefined;
  private readonly snapshotListeners: ((snapshot: SnapshotHolder) => void)[] = [];
  private readonly loaded: LoadedConfig;
  private readonly logger: Logger;
  private readonly options: LazyIndexOptions;
  /** The cold index shared with other replicas, with a team store. */
  private shared: SharedIndex | undefined;
  /** The cold index under way with a team store: closing waits for it to record its run. */
  private cold: Promise<unknown> | undefined;

  constructor(loaded: LoadedConfig, logger: Logger, options: LazyIndexOptions = {}) {
    this.loaded = loaded;
    this.logger = logger;
    this.options = options;
  }

  /** Loads the engine (once) and returns it. */
  load(): Promise<IndexEngine> {
    this.loading ??= this.createEngine().then((engine) => {
      this.engine = engine;
      for (const listener of this.snapshotListeners) engine.onSnapshot(listener);
      return engine;
    });
    return this.loading;
  }

  private async createEngine(): Promise<IndexEngine> {
    const [{ IndexEngine }, { FactCache, factKey }] = await Promise.all([
      import('../index/engine.js'),
      import('../store/fact-cache.js'),
    ]);
    const { loaded, logger } = this;
    const openLocal = () =>
      FactCache.open({ workspacePath: loaded.baseDir, maxSizeMb: loaded.config.cache.max_size_mb, logger });
    let openStore: () => PersistentFactStore = openLocal;
    if (this.options.team) {
      const { teamIndex } = await import('./team-index.js');
      const team = teamIndex(this.options.team, loaded, logger, openLocal, {
        ...(this.options.pollMs !== undefined ? { pollMs: this.options.pollMs } : {}),
        ...(this.options.tenant !== undefined ? { tenant: this.options.tenant } : {}),
      });
      openStore = team.openStore;
      this.shared = team.shared;
    }
    const { threads } = this.options;
    return new IndexEngine({
      loaded,
      logger,
      factKey,
      openStore,
      ...(threads !== undefined ? { threads } : {}),
    });
  }

  /** Calls `listener` with every snapshot the engine installs, once it is loaded. */
  onSnapshot(listener: (snapshot: SnapshotHolder) => void): void {
    if (this.engine) this.engine.onSnapshot(listener);
    else this.snapshotListeners.push(listener);
  }

  /** Loads the engine, indexes everything and, when asked, keeps watching the roots. */
  async start(options: {
    watch: boolean;
    onProgress?: (done: number, total: number) => void;
  }): Promise<IndexEngine> {
    const engine = await this.load();
    if (!this.shared) {
      await engine.start(options);
      return engine;
    }
    this.cold = this.shared.coldIndex(
      async () => {
        const run = await engine.start(options);
        return { files: engine.status().files, parsed: run.parsed };
      },
      () => engine.indexProgress(),
    );
    await this.cold;
    return engine;
  }

  /** The roots now: a folder matching a root pattern that came or went since start-up moves them. */
  roots(): readonly ResolvedRoot[] {
    return this.engine?.roots() ?? this.loaded.roots;
  }

  status(): IndexStatus {
    const status = this.engine ? this.engine.status() : this.notStarted();
    if (!this.shared) return status;
    // Waiting for another replica's cold index is indexing, as a caller sees it.
    const phase = status.phase === 'not_started' && this.shared.pending() ? 'indexing' : status.phase;
    return { ...status, phase, shared: this.shared.status() };
  }

  private notStarted(): IndexStatus {
    return {
      workspace: this.loaded.workspaceName,
      roots: this.loaded.roots,
      phase: 'not_started',
      generation: 0,
      files: 0,
      byLanguage: {},
      noGrammar: 0,
      rejected: [],
      symbols: 0,
      contracts: 0,
      edges: 0,
      docSections: 0,
    };
  }

  async extractVersion(relativePath: string, source: string): Promise<ExtractedVersion> {
    return (await this.load()).extractVersion(relativePath, source);
  }

  snapshot(): SnapshotHolder | undefined {
    return this.engine?.snapshot();
  }

  readiness(): string | undefined {
    if (!this.engine)
      return 'Still indexing (the index is starting); retry in a moment or call admin status.';
    if (this.engine.snapshot()) return undefined;
    return this.shared?.readiness() ?? this.engine.readiness();
  }

  indexProgress(): { readonly done: number; readonly total: number } | undefined {
    return this.engine?.indexProgress();
  }

  stateNotes(): readonly string[] {
    return this.engine?.stateNotes() ?? [];
  }

  /** Resolves once the changes the watcher has seen are in the index (at once without an engine). */
  async settled(): Promise<void> {
    await this.engine?.settled();
  }

  async rescan(request: RescanRequest): Promise<IndexRunSummary> {
    const engine = await this.load();
    return engine.rescan(request);
  }

  async close(): Promise<void> {
    this.shared?.close();
    await this.engine?.close();
    await this.cold?.catch(() => undefined);
  }
}
