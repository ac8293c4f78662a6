import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { classifyPath, crawl, type CrawlOptions, type CrawledFile } from './crawl.js';
import { fingerprintOf } from './fingerprint.js';
import {
  runIndex,
  type FactKeyOf,
  type FactStore,
  type KnownFileState,
  type PersistentFactStore,
  type RunOutput,
} from './index-run.js';
import type { ExtractOptions } from './languages/extractor.js';
import { createParsePool, type ParsePool } from './parse/pool.js';
import type { IndexReader, IndexRunSummary, IndexStatus, RescanRequest } from './reader.js';
import { fileKey, type IndexedFile, type Snapshot } from './snapshot.js';
import { compareWithSnapshot } from './snapshot-diff.js';
import { statSync } from 'node:fs';
import type { Watcher } from './watcher.js';
import type { ContractGraph } from './graph/model.js';
import { graphLines, reconcile } from './graph/reconcile.js';
import { serviceNameOf } from './manifests.js';
import { readImportSettings } from './import-config.js';

function servicesOf(roots: readonly { name: string; path: string }[]): ReadonlyMap<string, string> {
  return new Map(roots.map((root) => [root.name, serviceNameOf(root.path)]));
}

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
  /** Opens the persistent fact cache (absent: every run parses everything). */
  readonly openStore?: () => PersistentFactStore;
  /** Cache key of one file's facts; required with `openStore`. */
  readonly factKey?: FactKeyOf;
}

const plainKey: FactKeyOf = (parts) => JSON.stringify(parts);
const noStore: FactStore = { getMany: () => new Map(), putMany: () => undefined };

/**
 * Owns the index of one workspace: runs full and incremental index runs one at a time, installs each result
 * as a new immutable snapshot, and answers status questions while a run is under way.
 */
export class IndexEngine implements IndexReader {
  private current: Snapshot | undefined;
  private generation = 0;
  private progress: { done: number; total: number } | undefined;
  private lastRun: IndexRunSummary | undefined;
  private fingerprint: string | undefined;
  /** The import settings the installed snapshot's graph was built with (a changed tsconfig is a change). */
  private importKey: string | undefined;
  private pool: ParsePool | undefined;
  private cache: PersistentFactStore | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private holdReason: string | undefined;
  private services: ReadonlyMap<string, string> | undefined;
  private watcher: Watcher | undefined;
  private readonly options: EngineOptions;
  private readonly configFingerprint: string;

  constructor(options: EngineOptions) {
    this.options = options;
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
      const { contracts, docs } = this.options.loaded.config;
      // Custom conventions and the docs filter run inside extraction, so every worker gets them.
      const extractOptions: ExtractOptions = {
        patterns: contracts.patterns.map((p) => ({
          name: p.name,
          kind: p.kind,
          regex: p.regex,
          targetGroup: p.target_group,
          ...(p.file_pattern !== undefined ? { filePattern: p.file_pattern } : {}),
          ...(p.consumer_group !== undefined ? { consumerGroup: p.consumer_group } : {}),
        })),
        sanitizeDocs: docs.sanitize_prompt_injections,
      };
      this.pool = createParsePool({
        extractOptions,
        ...(this.options.threads !== undefined ? { threads: this.options.threads } : {}),
      });
    }
    if (!this.cache && this.options.openStore && this.options.loaded.config.cache.enabled) {
      this.cache = this.options.openStore();
    }
    return { pool: this.pool, store: this.cache ?? noStore };
  }

  /** Runs `task` after every run queued before it: reloads never interleave or install out of order. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  indexAll(signal?: AbortSignal): Promise<IndexRunSummary> {
    return this.serialize(async () => {
      const files = await crawl(this.options.loaded.roots, {
        ...this.crawlOptions(),
        ...(signal ? { signal } : {}),
      });
      return this.install(files, true, 0, signal);
    });
  }

  /** Re-indexes the given absolute paths (files or folders), or everything. */
  rescan(request: RescanRequest): Promise<IndexRunSummary> {
    if (!request.paths || request.paths.length === 0) {
      return this.serialize(async () => {
        const files = await crawl(this.options.loaded.roots, {
          ...this.crawlOptions(),
          ...(request.signal ? { signal: request.signal } : {}),
        });
        return this.install(files, true, 0, request.signal, request.onProgress);
      });
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
    return this.serialize(async () => {
      const roots = this.options.loaded.roots;
      const previous = this.current?.files ?? [];
      const folders = paths.filter((p) => existsSync(p) && statSync(p).isDirectory());
      const byKey = new Map<string, CrawledFile>();
      for (const file of previous) {
        const inFolder = folders.some((folder) => file.absolutePath.startsWith(`${folder}/`));
        if (!inFolder) {
          byKey.set(fileKey(file.root, file.path), {
            root: file.root,
            path: file.path,
            absolutePath: file.absolutePath,
            size: file.size,
            mtimeMs: file.mtimeMs,
          });
        }
      }
      for (const rejected of this.current?.rejected ?? []) {
        const root = roots.find((r) => r.name === rejected.root);
        if (!root) continue;
        const absolutePath = `${root.path}/${rejected.path}`;
        if (folders.some((folder) => absolutePath.startsWith(`${folder}/`))) continue;
        byKey.set(fileKey(rejected.root, rejected.path), {
          root: rejected.root,
          path: rejected.path,
          absolutePath,
          size: -1,
          mtimeMs: -1,
        });
      }
      if (folders.length > 0) {
        const all = await crawl(roots, this.crawlOptions());
        for (const file of all) {
          if (folders.some((folder) => file.absolutePath.startsWith(`${folder}/`)))
            byKey.set(fileKey(file.root, file.path), file);
        }
      }
      let removed = 0;
      for (const path of paths) {
        if (folders.includes(path)) continue;
        const identity = classifyPath(roots, path, this.crawlOptions());
        const known = [...byKey.values()].find((f) => f.absolutePath === path);
        if (!identity || !existsSync(path)) {
          if (known && byKey.delete(fileKey(known.root, known.path))) removed++;
          // A folder deleted or renamed away is reported once, as the folder: everything under it is gone.
          if (!existsSync(path)) {
            for (const [key, file] of byKey) {
              if (file.absolutePath.startsWith(`${path}/`) && byKey.delete(key)) removed++;
            }
          }
          continue;
        }
        const stats = statSync(path);
        byKey.set(fileKey(identity.root, identity.path), {
          root: identity.root,
          path: identity.path,
          absolutePath: path,
          size: stats.size,
          mtimeMs: stats.mtimeMs,
        });
      }
      // Entries carried over without a fresh stat (rejected files) must be re-statted to be guarded again.
      const files = [...byKey.values()].flatMap((file): CrawledFile[] => {
        if (file.size >= 0) return [file];
        try {
          const stats = statSync(file.absolutePath);
          return [{ ...file, size: stats.size, mtimeMs: stats.mtimeMs }];
        } catch {
          return [];
        }
      });
      const order = (a: CrawledFile, b: CrawledFile) =>
        a.root < b.root ? -1 : a.root > b.root ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
      files.sort(order);
      return this.install(files, false, removed, signal, onProgress);
    });
  }

  private async install(
    files: readonly CrawledFile[],
    full: boolean,
    removedHint: number,
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<IndexRunSummary> {
    const started = performance.now();
    const { pool, store } = this.ensureResources();
    const previous = new Map<string, IndexedFile>();
    for (const file of this.current?.files ?? []) previous.set(fileKey(file.root, file.path), file);
    // After a restart the cache remembers each file's size, mtime and hash: unchanged files are not re-read.
    const known = this.current ? undefined : this.cache?.fileStates();
    this.progress = { done: 0, total: files.length };
    try {
      const output = await runIndex({
        files,
        previous,
        ...(known ? { known } : {}),
        pool,
        store,
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
      const keys = new Set(output.indexed.map((f) => fileKey(f.root, f.path)));
      this.rememberFileStates(output.indexed, keys, previous, known);
      const removed = full ? [...previous.keys()].filter((k) => !keys.has(k)).length : removedHint;
      // Re-read on every run: a manifest edited between full runs renames its service (a few small reads per root).
      this.services = servicesOf(this.options.loaded.roots);
      const importSettings = readImportSettings(this.options.loaded.roots, this.options.loaded.baseDir);
      const services = this.services;
      const importKey = JSON.stringify(importSettings);
      const change = compareWithSnapshot(
        this.current,
        { files: output.indexed, rejected: output.rejected, services },
        importKey !== this.importKey,
      );
      this.importKey = importKey;
      if (change === 'identical' && this.current) {
        // Nothing moved: keep the installed snapshot and everything derived from it.
        return this.recordRun(this.current, started, files.length, output, removed, full);
      }
      const protoDirs = this.options.loaded.config.contracts.proto_dirs;
      // The graph is reconciled on first use: a reload that only feeds declaration search (the common
      // edit → search loop) never pays for it, and the first graph query pays once per generation.
      let graph: ContractGraph | undefined;
      const graphOf = (): ContractGraph =>
        (graph ??= reconcile({ files: output.indexed, services, protoDirs, imports: importSettings }));
      // Same content under new sizes or mtimes keeps its generation number: answers cannot differ.
      if (change === 'changed') this.generation++;
      const snapshot: Snapshot = {
        generation: this.generation,
        createdAt: new Date().toISOString(),
        workspace: this.options.loaded.workspaceName,
        roots: this.options.loaded.roots,
        files: output.indexed,
        rejected: output.rejected,
        services,
        get graph() {
          return graphOf();
        },
        extraLines: () => graphLines(graphOf()),
      };
      this.current = snapshot;
      this.fingerprint = undefined;
      if (output.parsed > 100) this.cache?.enforceQuota();
      return this.recordRun(snapshot, started, files.length, output, removed, full);
    } finally {
      this.progress = undefined;
    }
  }

  private recordRun(
    snapshot: Snapshot,
    started: number,
    filesSeen: number,
    output: RunOutput,
    removed: number,
    full: boolean,
  ): IndexRunSummary {
    this.lastRun = {
      generation: snapshot.generation,
      at: new Date().toISOString(),
      wallMs: Math.round(performance.now() - started),
      filesSeen,
      parsed: output.parsed,
      cacheHits: output.cacheHits,
      cacheMisses: output.cacheMisses,
      changed: output.changed,
      read: output.read,
      removed,
      full,
    };
    return this.lastRun;
  }

  /** Writes the size, mtime and hash of files that changed since the cache last saw them; forgets removed ones. */
  private rememberFileStates(
    indexed: readonly IndexedFile[],
    keys: ReadonlySet<string>,
    previous: ReadonlyMap<string, IndexedFile>,
    known: ReadonlyMap<string, KnownFileState> | undefined,
  ): void {
    if (!this.cache) return;
    const changed = new Map<string, KnownFileState>();
    for (const file of indexed) {
      const key = fileKey(file.root, file.path);
      const before = previous.get(key) ?? known?.get(key);
      if (
        !before ||
        before.size !== file.size ||
        before.mtimeMs !== file.mtimeMs ||
        before.hash !== file.hash
      ) {
        changed.set(key, { size: file.size, mtimeMs: file.mtimeMs, hash: file.hash });
      }
    }
    const removed = [...(known?.keys() ?? previous.keys())].filter((key) => !keys.has(key));
    this.cache.recordFileStates(changed, removed);
  }

  snapshot(): Snapshot | undefined {
    return this.current;
  }

  /** The content fingerprint of the installed snapshot (computed once per generation). */
  fingerprintOf(): string | undefined {
    if (!this.current) return undefined;
    this.fingerprint ??= fingerprintOf(this.current);
    return this.fingerprint;
  }

  readiness(): string | undefined {
    if (this.current) return undefined;
    const progress = this.progress;
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
    const byLanguage: Record<string, number> = {};
    let symbols = 0;
    let contracts = 0;
    let sections = 0;
    let noGrammar = 0;
    for (const file of snapshot?.files ?? []) {
      const language = file.language ?? 'other';
      byLanguage[language] = (byLanguage[language] ?? 0) + 1;
      symbols += file.facts.symbols.length;
      contracts += file.facts.contracts.length + (file.facts.protoServices?.length ?? 0);
      sections += file.facts.sections?.length ?? 0;
      if (file.outcome === 'no-grammar') noGrammar++;
    }
    const cacheStats = this.cache?.stats();
    return {
      workspace: this.options.loaded.workspaceName,
      roots: this.options.loaded.roots,
      phase: this.progress ? 'indexing' : snapshot ? 'ready' : 'not_started',
      generation: this.generation,
      ...(this.progress ? { progress: { ...this.progress } } : {}),
      files: snapshot?.files.length ?? 0,
      byLanguage,
      noGrammar,
      rejected: snapshot?.rejected ?? [],
      symbols,
      contracts,
      edges: snapshot?.graph.edges.length ?? 0,
      docSections: sections,
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
      // The fingerprint is computed on request (`meshlens index`, `graph --format fingerprint`): hashing
      // every fact on each status call would cost as much as a search on a large workspace.
      ...(snapshot && this.fingerprint ? { fingerprint: this.fingerprint } : {}),
    };
  }

  /** Keeps the index current: changed files are reloaded as they change, held during git operations. */
  async watch(): Promise<void> {
    if (this.watcher) return;
    const { Watcher } = await import('./watcher.js');
    this.watcher = new Watcher({
      roots: this.options.loaded.roots,
      logger: this.options.logger,
      reloadPaths: (paths) => this.reloadPaths(paths),
      reloadAll: () => this.indexAll(),
      onHold: (reason) => this.setHold(reason),
    });
    await this.watcher.start();
  }

  /** Waits for the watcher's pending reloads (tests, shutdown). */
  async settled(): Promise<void> {
    await this.watcher?.idle();
    await this.queue.catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = undefined;
    await this.queue.catch(() => undefined);
    await this.pool?.close();
    this.cache?.close();
    this.pool = undefined;
    this.cache = undefined;
  }
}
