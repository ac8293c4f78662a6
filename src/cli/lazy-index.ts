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

  constructor(loaded: LoadedConfig, logger: Logger) {
    this.loaded = loaded;
    this.logger = logger;
  }

  /** Loads the engine (once) and returns it. */
  load(): Promise<IndexEngine> {
    this.loading ??= Promise.all([import('../index/engine.js'), import('../store/fact-cache.js')]).then(
      ([{ IndexEngine }, { FactCache, factKey }]) => {
        const { loaded, logger } = this;
        this.engine = new IndexEngine({
          loaded,
          logger,
          factKey,
          openStore: () =>
            FactCache.open({
              workspacePath: loaded.baseDir,
              maxSizeMb: loaded.config.cache.max_size_mb,
              logger,
            }),
        });
        for (const listener of this.snapshotListeners) this.engine.onSnapshot(listener);
        return this.engine;
      },
    );
    return this.loading;
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
    await engine.start(options);
    return engine;
  }

  /** The roots now: a folder matching a root pattern that came or went since start-up moves them. */
  roots(): readonly ResolvedRoot[] {
    return this.engine?.roots() ?? this.loaded.roots;
  }

  status(): IndexStatus {
    if (this.engine) return this.engine.status();
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
    return this.engine.readiness();
  }

  indexProgress(): { readonly done: number; readonly total: number } | undefined {
    return this.engine?.indexProgress();
  }

  stateNotes(): readonly string[] {
    return this.engine?.stateNotes() ?? [];
  }

  async rescan(request: RescanRequest): Promise<IndexRunSummary> {
    const engine = await this.load();
    return engine.rescan(request);
  }

  async close(): Promise<void> {
    await this.engine?.close();
  }
}
