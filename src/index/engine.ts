import { createHash } from 'node:crypto';
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { crawl, type CrawlOptions, type CrawledFile } from './crawl.js';
import { crawlWorkspaceDocs } from './workspace-docs.js';
import { fingerprintOf } from './fingerprint.js';
import {
  runIndex,
  type FactKeyOf,
  type FactStore,
  type KnownFileState,
  type PersistentFactStore,
  type RunOutput,
} from './index-run.js';
import { createParsePool, type ParsePool, type ParseWorkerStats } from './parse/pool.js';
import { StringPool } from './string-pool.js';
import type { ExtractedVersion, IndexReader, IndexRunSummary, IndexStatus, RescanRequest } from './reader.js';
import { extractVersion } from './extract-version.js';
import { fileKey, type IndexedFile, type RejectedFile } from './snapshot.js';
import { compareWithSnapshot, type SnapshotChange } from './snapshot-diff.js';
import type { SnapshotHolder } from './snapshot-holder.js';
import { graphLines } from './graph/graph-lines.js';
import { countSnapshot } from './snapshot-counts.js';
import { buildSnapshot } from './snapshot-build.js';
import { extractOptionsOf } from './extract-options.js';
import { changedFileStates } from './file-states.js';
import { applyPatch, planPatch, rebuildFileList, sameRejections, type PatchPlan } from './reload-plan.js';
import type { Watcher } from './watcher.js';
import { WorkspaceInputs } from './workspace-inputs.js';
import { runSummary, type RunFigures } from './run-summary.js';
import { PhaseClock } from './run-phases.js';
import type { ResolvedRoot } from '../core/config.js';
import { releaseHeapWhenIdle } from '../core/heap-release.js';

declare const MESHLENS_EXTRACTION_HASH: string | undefined;

/**
 * Part of every cache key: the build injects a hash of the extraction sources, so facts cached by a build
 * with other extractors are never reused. Running from sources (tests) uses a fixed development key.
 */
export const EXTRACTION_VERSION: string =
  typeof MESHLENS_EXTRACTION_HASH === 'string' ? MESHLENS_EXTRACTION_HASH : 'dev';

export interface EngineOptions {
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
  /** Parse threads; 0 parses in-process. Defaults to the core count. */
  readonly threads?: number;
  /** How long an idle parse worker stays before it leaves (default: the pool's, a few seconds). */
  readonly parseWorkerIdleMs?: number;
  /** Runs of at most this many files are parsed in this thread while no worker is alive (the pool's default). */
  readonly parseInProcessMaxFiles?: number;
  /** Opens the persistent fact cache (absent: every run parses everything). */
  readonly openStore?: () => PersistentFactStore;
  /** Cache key of one file's facts; required with `openStore`. */
  readonly factKey?: FactKeyOf;
}

/** What a caller may pass along with a run. */
interface RunRequest {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  /** Absolute paths reported changed: their content is checked even where size and mtime look the same. */
  readonly verify?: readonly string[] | undefined;
  /** Started by a full run before it crawls; a run without one starts its own. */
  readonly clock?: PhaseClock;
}

const plainKey: FactKeyOf = (parts) => JSON.stringify(parts);
const noStore: FactStore = { getMany: () => new Map(), putMany: () => undefined };

/**
 * Owns the index of one workspace: runs full and incremental index runs one at a time, installs each result
 * as a new immutable snapshot, and answers status questions while a run is under way.
 */
export class IndexEngine implements IndexReader {
  private current: SnapshotHolder | undefined;
  /** Told of each snapshot as it is installed (a server warming what its first queries would build). */
  private readonly installed = new Set<(snapshot: SnapshotHolder) => void>();
  private generation = 0;
  private progress: { done: number; total: number } | undefined;
  private lastRun: IndexRunSummary | undefined;
  /** The look for changes made while the watcher subscribed (see `start`). */
  private catchingUp: Promise<void> | undefined;
  private closing = false;
  private fingerprint: string | undefined;
  /** The installed snapshot's files by `root:path`, kept in step with it (a patch updates it in place). */
  private byKey = new Map<string, IndexedFile>();
  private pool: ParsePool | undefined;
  private cache: PersistentFactStore | undefined;
  private readonly strings = new StringPool();
  private queue: Promise<unknown> = Promise.resolve();
  private holdReason: string | undefined;
  /** Why the last full run failed; cleared by the next one that succeeds. */
  private failure: string | undefined;
  /** The roots (expanded again on every full run), the service model and the import settings. */
  private readonly inputs: WorkspaceInputs;
  private watcher: Watcher | undefined;
  private readonly options: EngineOptions;
  private readonly configFingerprint: string;

  constructor(options: EngineOptions) {
    this.options = options;
    this.inputs = new WorkspaceInputs(options.loaded);
    const { config } = options.loaded;
    // Only settings that change what extraction produces belong in the cache key.
    this.configFingerprint = createHash('sha256')
      .update(JSON.stringify({ contracts: config.contracts, docs: config.docs.sanitize_prompt_injections }))
      .digest('hex')
      .slice(0, 16);
  }

  private crawlOptions(): CrawlOptions {
    const { workspace } = this.options.loaded.config;
    return { exclude: workspace.exclude, includeSecretFiles: workspace.include_secret_files };
  }

  private ensureResources(): { pool: ParsePool; store: FactStore } {
    if (!this.pool) {
      this.pool = createParsePool({
        // Custom conventions and the docs filter run inside extraction, so every worker gets them.
        extractOptions: extractOptionsOf(this.options.loaded.config),
        ...(this.options.threads !== undefined ? { threads: this.options.threads } : {}),
        ...(this.options.parseWorkerIdleMs !== undefined
          ? { idleTimeoutMs: this.options.parseWorkerIdleMs }
          : {}),
        ...(this.options.parseInProcessMaxFiles !== undefined
          ? { inProcessMaxFiles: this.options.parseInProcessMaxFiles }
          : {}),
        // Once the workers have left, the indexing is over: hand its spare heap back.
        onDrained: (isIdle) => releaseHeapWhenIdle(isIdle),
      });
    }
    if (!this.cache && this.options.openStore && this.options.loaded.config.cache.enabled) {
      this.cache = this.options.openStore();
    }
    return { pool: this.pool, store: this.cache ?? noStore };
  }

  /** The parse worker threads: none alive before the first run, and none once idle workers have left. */
  parseWorkers(): ParseWorkerStats {
    return this.pool?.workerStats() ?? { alive: 0, started: 0, lostBatches: 0 };
  }

  /** Another version of a file, extracted in this thread with the workspace's extraction settings. */
  extractVersion(relativePath: string, source: string): Promise<ExtractedVersion> {
    return extractVersion(relativePath, source, extractOptionsOf(this.options.loaded.config));
  }

  /** Runs `task` after every run queued before it: reloads never interleave or install out of order. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The roots as the installed snapshot (or the run under way) sees them. */
  roots(): readonly ResolvedRoot[] {
    return this.inputs.roots;
  }

  /**
   * The first full run and, with `watch`, the watcher. The watcher subscribes while the first index runs
   * (on a large tree its subscriptions take seconds: 4 s for 62,000 files, which the first snapshot need not
   * wait for) and holds its reloads until the run is installed. A change made before the subscriptions were
   * in place is found by one more look at every file's size and mtime once they are: it reaches the next
   * snapshot instead of falling between the crawl and the subscription.
   */
  async start(options: {
    watch: boolean;
    onProgress?: (done: number, total: number) => void;
  }): Promise<IndexRunSummary> {
    const request = options.onProgress ? { onProgress: options.onProgress } : {};
    if (!options.watch) return this.rescan(request);
    let release = (): void => undefined;
    const firstRun = new Promise<void>((resolve) => (release = resolve));
    const watching = this.watch(firstRun).then(
      () => true,
      (error: unknown) => {
        this.options.logger.error({ err: error }, 'cannot watch the roots; changes need admin rescan');
        return false;
      },
    );
    try {
      return await this.rescan(request);
    } finally {
      release();
      this.catchingUp = watching.then((watched) => (watched ? this.catchUp() : undefined));
    }
  }

  /**
   * A full run that reads only files whose size or mtime moved since the installed snapshot. When it finds
   * nothing, the status keeps describing the run that built the snapshot.
   */
  private catchUp(): Promise<void> {
    return this.serialize(async () => {
      // An engine closed during its first run opens no pool or cache again.
      if (this.closing) return;
      const shown = this.lastRun;
      const installed = this.current;
      await this.indexEverything({});
      if (this.current === installed && shown) this.lastRun = shown;
    }).catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'the look for changes made while the watcher started failed');
    });
  }

  indexAll(signal?: AbortSignal): Promise<IndexRunSummary> {
    return this.serialize(() => this.indexEverything({ signal }));
  }

  /** Re-indexes the given absolute paths (files or folders), or everything. */
  rescan(request: RescanRequest): Promise<IndexRunSummary> {
    if (!request.paths || request.paths.length === 0) {
      return this.serialize(() => this.indexEverything(request));
    }
    return this.reloadPaths(request.paths, request.signal, request.onProgress);
  }

  /**
   * Incremental reload: the previous snapshot's files, with the given paths re-read (changed or new) or
   * dropped (deleted). Folders are re-crawled. The result equals a full run over the same tree.
   */
  reloadPaths(
    paths: readonly string[],
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<IndexRunSummary> {
    return this.serialize(() => this.reloadChanged(paths, { signal, onProgress, verify: paths }));
  }

  /**
   * A full run: the root patterns expanded again (a folder that now matches one is crawled as a root, one
   * that is gone drops out), then every root crawled. A failure is remembered until a run succeeds.
   */
  private async indexEverything(request: RunRequest): Promise<IndexRunSummary> {
    try {
      const clock = new PhaseClock();
      await this.refreshRoots();
      const options = { ...this.crawlOptions(), ...(request.signal ? { signal: request.signal } : {}) };
      const files = await clock.timeAsync('crawlMs', async () => {
        const found = await crawl(this.inputs.roots, options);
        // Re-read on every full run; the watcher watches the roots only, so a reload carries them as they were.
        if (this.options.loaded.config.docs.workspace_docs)
          found.push(...(await crawlWorkspaceDocs(this.options.loaded.baseDir, this.inputs.roots, options)));
        return found;
      });
      const summary = await this.install(files, true, 0, { ...request, clock });
      this.failure = undefined;
      return summary;
    } catch (error) {
      // Remembered, so that a caller waiting for the first snapshot is told why there is none.
      if (!request.signal?.aborted) this.failure = (error as Error).message;
      throw error;
    }
  }

  /** The body of `reloadPaths`, run in turn. With nothing installed yet, a reload is the first full run. */
  private async reloadChanged(paths: readonly string[], request: RunRequest): Promise<IndexRunSummary> {
    const current = this.current;
    if (!current) return this.indexEverything(request);
    const plan = planPatch(current, this.byKey, paths, this.crawlOptions());
    if (plan) return this.installPatch(current, plan, request);
    const { files, removed } = await rebuildFileList(this.inputs.roots, current, paths, this.crawlOptions());
    return this.install(files, false, removed, request);
  }

  /**
   * Expands the root patterns again. When the roots moved, the service model is read afresh and the watcher
   * watches the new set before anything is crawled (a change in a new root made meanwhile is not lost).
   */
  private async refreshRoots(): Promise<boolean> {
    if (!this.inputs.refreshRoots()) return false;
    const roots = this.inputs.roots;
    this.options.logger.info({ roots: roots.map((root) => root.name) }, 'the root folders changed');
    await this.watcher?.setRoots(roots, this.inputs.patternBases());
    return true;
  }

  /** One index run over `files`; files the installed snapshot holds unchanged are reused, not re-read. */
  private run(
    files: readonly CrawledFile[],
    known: ReadonlyMap<string, KnownFileState> | undefined,
    request: RunRequest,
  ): Promise<RunOutput> {
    const { pool, store } = this.ensureResources();
    const { signal, onProgress, verify, clock } = request;
    this.progress = { done: 0, total: files.length };
    return runIndex({
      files,
      previous: this.byKey,
      ...(known ? { known } : {}),
      ...(verify && verify.length > 0 ? { verify: new Set(verify) } : {}),
      pool,
      store,
      strings: this.strings,
      ...(clock ? { clock } : {}),
      keyOf: (root, path, hash) =>
        (this.options.factKey ?? plainKey)({
          extractionVersion: EXTRACTION_VERSION,
          root,
          relPath: path,
          contentHash: hash,
          configFingerprint: this.configFingerprint,
        }),
      ...(signal ? { signal } : {}),
      onProgress: (done, total) => {
        this.progress = { done, total };
        onProgress?.(done, total);
      },
    });
  }

  /** Installs a run over the whole file list (a full index, or a reload that had to re-crawl). */
  private async install(
    files: readonly CrawledFile[],
    full: boolean,
    removedHint: number,
    request: RunRequest,
  ): Promise<IndexRunSummary> {
    const started = performance.now();
    const clock = request.clock ?? new PhaseClock();
    const previous = this.byKey;
    this.ensureResources();
    // After a restart the cache remembers each file's size, mtime and hash: unchanged files are not re-read.
    const known = this.current ? undefined : this.cache?.fileStates();
    try {
      const output = await this.run(files, known, { ...request, clock });
      const keys = new Set(output.indexed.map((f) => fileKey(f.root, f.path)));
      const gone = [...(known?.keys() ?? previous.keys())].filter((key) => !keys.has(key));
      clock.time('fileStatesMs', () => this.rememberFileStates(output.indexed, gone, previous, known));
      const installed = clock.time('installMs', () => {
        const removed = full ? [...previous.keys()].filter((k) => !keys.has(k)).length : removedHint;
        const inputsMoved = this.inputs.refresh();
        const change = compareWithSnapshot(
          this.current,
          { files: output.indexed, rejected: output.rejected, services: this.inputs.services() },
          inputsMoved,
        );
        const summary = { started, filesSeen: files.length, output, removed, full };
        return this.commit(output.indexed, output.rejected, change, summary);
      });
      return this.withPhases(installed, clock);
    } finally {
      this.progress = undefined;
    }
  }

  /** Installs a reload that touched only the changed files: cost follows the change, not the workspace. */
  private async installPatch(
    current: SnapshotHolder,
    plan: PatchPlan,
    request: RunRequest,
  ): Promise<IndexRunSummary> {
    const started = performance.now();
    const clock = new PhaseClock();
    try {
      // Every planned file was reported changed: none is trusted by its size and mtime.
      const verify = plan.files.map((file) => file.absolutePath);
      const output = await this.run(plan.files, undefined, { ...request, verify, clock });
      const patched = applyPatch(current, plan, output.indexed, output.rejected);
      const stayed = new Set(patched.added.map((f) => fileKey(f.root, f.path)));
      const gone = patched.removed.map((f) => fileKey(f.root, f.path)).filter((key) => !stayed.has(key));
      clock.time('fileStatesMs', () => this.rememberFileStates(output.indexed, gone, this.byKey, undefined));
      const before = new Set(patched.removed.map((f) => fileKey(f.root, f.path)));
      const inputsMoved = this.inputs.refresh({
        paths: [...plan.files, ...patched.removed].map((f) => f.absolutePath),
        structural: gone.length > 0 || [...stayed].some((key) => !before.has(key)),
      });
      const contentMoved =
        output.changed > 0 || gone.length > 0 || !sameRejections(current.rejected, patched.rejected);
      const change: SnapshotChange =
        contentMoved || inputsMoved ? 'changed' : patched.added.length > 0 ? 'same-content' : 'identical';
      const summary = {
        started,
        filesSeen: plan.files.length,
        output,
        removed: gone.length,
        full: false,
      };
      const installed = clock.time('installMs', () =>
        this.commit(patched.files, patched.rejected, change, summary, {
          removed: patched.removed,
          added: patched.added,
        }),
      );
      return this.withPhases(installed, clock);
    } finally {
      this.progress = undefined;
    }
  }

  /** Installs the new file set as a snapshot, unless nothing moved at all. */
  private commit(
    files: readonly IndexedFile[],
    rejected: readonly RejectedFile[],
    change: SnapshotChange,
    summary: RunFigures,
    patch?: { removed: readonly IndexedFile[]; added: readonly IndexedFile[] },
  ): IndexRunSummary {
    if (change === 'identical' && this.current) {
      // Nothing moved: keep the installed snapshot and everything derived from it.
      return this.recordRun(this.current, summary);
    }
    // Same content under new sizes or mtimes keeps its generation number: answers cannot differ.
    if (change === 'changed') this.generation++;
    const previous = this.current;
    const lineage = patch && previous ? previous.lineageFor(patch) : undefined;
    previous?.releaseLineage();
    const snapshot = buildSnapshot({
      generation: this.generation,
      loaded: this.options.loaded,
      ...this.inputs.parts(),
      files,
      rejected,
      ...(lineage ? { lineage } : {}),
    });
    if (patch) {
      for (const file of patch.removed) this.byKey.delete(fileKey(file.root, file.path));
      for (const file of patch.added) this.byKey.set(fileKey(file.root, file.path), file);
    } else {
      this.byKey = new Map(files.map((file) => [fileKey(file.root, file.path), file]));
    }
    this.current = snapshot;
    this.fingerprint = undefined;
    for (const listener of this.installed) listener(snapshot);
    if (summary.output.parsed > 100) this.cache?.enforceQuota();
    return this.recordRun(snapshot, summary);
  }

  private recordRun(snapshot: SnapshotHolder, figures: RunFigures): IndexRunSummary {
    this.lastRun = runSummary(snapshot.generation, figures);
    return this.lastRun;
  }

  /** The run's summary with where its time went, once everything, installing included, is done. */
  private withPhases(summary: IndexRunSummary, clock: PhaseClock): IndexRunSummary {
    this.lastRun = { ...summary, phases: clock.phases() };
    this.options.logger.info({ run: this.lastRun }, 'index run finished');
    // A run no worker took part in (a warm start, a reload the cache answered) has no drain to release on.
    if (this.parseWorkers().alive === 0)
      releaseHeapWhenIdle(() => this.progress === undefined && this.parseWorkers().alive === 0);
    return this.lastRun;
  }

  /** Writes the size, mtime and hash of files that changed since the cache last saw them; forgets removed ones. */
  private rememberFileStates(
    indexed: readonly IndexedFile[],
    removed: readonly string[],
    previous: ReadonlyMap<string, IndexedFile>,
    known: ReadonlyMap<string, KnownFileState> | undefined,
  ): void {
    this.cache?.recordFileStates(changedFileStates(indexed, previous, known), removed);
  }

  snapshot(): SnapshotHolder | undefined {
    return this.current;
  }

  /** Calls `listener` with every snapshot installed from now on; returns what stops it. */
  onSnapshot(listener: (snapshot: SnapshotHolder) => void): () => void {
    this.installed.add(listener);
    return () => this.installed.delete(listener);
  }

  /** The content fingerprint of the installed snapshot and its contract graph (computed once per generation). */
  fingerprintOf(): string | undefined {
    const current = this.current;
    if (!current) return undefined;
    this.fingerprint ??= fingerprintOf(current, graphLines(current.contractGraph()));
    return this.fingerprint;
  }

  /** How far the running index run has come; undefined when none is running. */
  indexProgress(): { readonly done: number; readonly total: number } | undefined {
    return this.progress ? { ...this.progress } : undefined;
  }

  readiness(): string | undefined {
    if (this.current) return undefined;
    const progress = this.progress;
    if (!progress && this.failure !== undefined) {
      return `Indexing failed: ${this.failure}. Fix the cause, then call admin rescan (or restart meshlens).`;
    }
    return progress
      ? `Still indexing (${progress.done} of ${progress.total} files); no snapshot yet. Retry shortly, or call admin status.`
      : 'Still indexing (starting); retry shortly, or call admin status.';
  }

  stateNotes(): readonly string[] {
    return this.holdReason && this.current
      ? [`${this.holdReason} Answers come from snapshot generation ${this.current.generation}.`]
      : [];
  }

  setHold(reason: string | undefined): void {
    this.holdReason = reason;
  }

  status(): IndexStatus {
    const snapshot = this.current;
    const cacheStats = this.cache?.stats();
    return {
      workspace: this.options.loaded.workspaceName,
      roots: this.inputs.roots,
      phase: this.progress ? 'indexing' : snapshot ? 'ready' : 'not_started',
      generation: this.generation,
      ...(this.progress ? { progress: { ...this.progress } } : {}),
      ...countSnapshot(snapshot),
      ...(this.lastRun ? { lastRun: this.lastRun } : {}),
      ...(this.cache && cacheStats
        ? {
            cache: {
              path: this.cache.path,
              entries: cacheStats.entries,
              bytes: cacheStats.bytes,
              ...(this.cache.warning ? { warning: this.cache.warning } : {}),
            },
          }
        : {}),
      ...(this.holdReason ? { hold: this.holdReason } : {}),
      ...(this.failure !== undefined ? { failure: this.failure } : {}),
      // The fingerprint is computed on request (`meshlens index`, `graph --format fingerprint`): hashing
      // every fact on each status call would cost as much as a search on a large workspace.
      ...(snapshot && this.fingerprint ? { fingerprint: this.fingerprint } : {}),
    };
  }

  /**
   * Keeps the index current: changed files are reloaded as they change, held during git operations, and
   * a folder coming or going where a root pattern matches moves the roots. No reload runs before `after`
   * settles (the first index, when the watcher starts before it).
   */
  async watch(after?: Promise<unknown>): Promise<void> {
    if (this.watcher) return;
    const { Watcher } = await import('./watcher.js');
    this.watcher = new Watcher({
      roots: this.inputs.roots,
      patternBases: this.inputs.patternBases(),
      logger: this.options.logger,
      reloadPaths: (paths, rootsMayMove) =>
        this.serialize(async () => {
          if (rootsMayMove && (await this.refreshRoots())) return this.indexEverything({ verify: paths });
          // A folder beside the roots came or went without moving them: nothing to reload.
          return paths.length > 0 ? this.reloadChanged(paths, { verify: paths }) : undefined;
        }),
      reloadAll: (paths) => this.serialize(() => this.indexEverything({ verify: paths })),
      onHold: (reason) => this.setHold(reason),
      ...(after ? { after } : {}),
    });
    await this.watcher.start();
  }

  /** Waits for the watcher's pending reloads (tests, shutdown). */
  async settled(): Promise<void> {
    await this.catchingUp;
    await this.watcher?.idle();
    await this.queue.catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.catchingUp;
    await this.watcher?.close();
    this.watcher = undefined;
    await this.queue.catch(() => undefined);
    await this.pool?.close();
    this.cache?.close();
    this.pool = undefined;
    this.cache = undefined;
  }
}
