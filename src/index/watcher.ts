import { statSync } from 'node:fs';
import path from 'node:path';
import type * as ParcelWatcher from '@parcel/watcher';
import type { AsyncSubscription, Event } from '@parcel/watcher';
import type { Logger } from '../core/logger.js';
import { findGitDir, gitActivity, gitProcessRunning, isInside, isRefChange } from './git-gate.js';

/**
 * Quiet time before changed paths are reloaded. Short on purpose: @parcel/watcher already batches what the
 * kernel reports over ~50 ms, so this only joins batches that arrive back to back.
 */
export const DEBOUNCE_MS = 10;
/** HEAD and refs move in several steps: reloads wait until the git folder has been quiet this long. */
export const GIT_QUIET_MS = 120;
/** A git operation holds reloads at most this long; then they run anyway, with a warning. */
export const HOLD_CAP_MS = 60_000;
/**
 * After a git operation's lock is gone, reloads wait this long: the watcher delivers the operation's last
 * file events some time after git wrote them, and a reload started before they arrive would see half of it.
 */
export const GIT_SETTLE_MS = 500;
/** An `index.lock` older than this with no git process is treated as abandoned. */
export const ORPHAN_LOCK_MS = 30_000;

export interface WatchedRoot {
  readonly name: string;
  readonly path: string;
}

export interface WatcherOptions {
  readonly roots: readonly WatchedRoot[];
  /**
   * Folders where a new root may appear (where a root pattern such as `services/*` matches): watched with
   * the roots; outside the roots only folders coming and going count.
   */
  readonly patternBases?: readonly string[];
  readonly logger: Logger;
  /**
   * Re-index these absolute paths (files or folders); with `rootsMayMove`, a folder came or went where a
   * root may be, so the root patterns are expanded again first.
   */
  readonly reloadPaths: (paths: readonly string[], rootsMayMove: boolean) => Promise<unknown>;
  /**
   * Re-crawl everything (ignore files changed, a folder moved, HEAD or refs moved). `paths` were reported
   * changed: their content is checked even where size and mtime look the same.
   */
  readonly reloadAll: (paths: readonly string[]) => Promise<unknown>;
  /** Reloads are held (reason) or released (undefined). */
  readonly onHold: (reason: string | undefined) => void;
  readonly debounceMs?: number;
  /**
   * No reload runs before this settles (the first index): the watcher subscribes before that index crawls,
   * and what changes meanwhile is kept and reloaded on top of its snapshot instead of being lost.
   */
  readonly after?: Promise<unknown>;
}

const IGNORE_FILES = new Set(['.gitignore', '.ignore']);
const SKIPPED_DIRS = ['node_modules', '.git', 'dist', 'build', 'target', '.venv', 'vendor'];

/**
 * Watches the roots and their git folders. Changes are debounced and reloaded together; while a git
 * operation runs (a lock file, a rebase folder, HEAD or refs moving) nothing is reloaded, and everything
 * that changed is reloaded once, as one generation, after the tree settles.
 */
export class Watcher {
  private readonly options: WatcherOptions;
  private api: typeof ParcelWatcher | undefined;
  /** Watched folders (roots, pattern bases) and git folders, each with its subscription. */
  private readonly folders = new Map<string, AsyncSubscription>();
  private readonly gitFolders = new Map<string, AsyncSubscription>();
  private roots: readonly WatchedRoot[];
  private patternBases: readonly string[];
  private gitDirs: string[] = [];
  private syncing: Promise<void> = Promise.resolve();
  private readonly pending = new Set<string>();
  private fullReload = false;
  private rootsMayMove = false;
  private timer: NodeJS.Timeout | undefined;
  /** Changes waiting out the debounce: resolved when their flush is chained. */
  private debouncing: { readonly chained: Promise<void>; readonly resolve: () => void } | undefined;
  private holdSince: number | undefined;
  private lastGitEvent = 0;
  private lockSeenAt = 0;
  private orphanWarned = false;
  private flushing: Promise<void>;
  private closed = false;

  constructor(options: WatcherOptions) {
    this.options = options;
    this.roots = options.roots;
    this.patternBases = options.patternBases ?? [];
    // Every flush is chained after this: none runs before the first index is installed.
    this.flushing = (options.after ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  async start(): Promise<void> {
    this.api = await import('@parcel/watcher');
    await this.sync();
  }

  /** The roots changed (a folder matching a root pattern came or went): watch what the new set needs. */
  setRoots(roots: readonly WatchedRoot[], patternBases: readonly string[]): Promise<void> {
    this.roots = roots;
    this.patternBases = patternBases;
    return this.sync();
  }

  /** Subscribes to what the roots need and is not watched yet; drops what nothing needs any more. */
  private sync(): Promise<void> {
    this.syncing = this.syncing.then(async () => {
      const api = this.api;
      if (!api || this.closed) return;
      const ignore = SKIPPED_DIRS.map((dir) => `**/${dir}/**`);
      const warn = (folder: string, error: unknown) =>
        this.options.logger.warn({ err: error, folder }, 'cannot watch a folder; its changes need a rescan');
      await resubscribe(
        this.folders,
        watchedFolders(this.roots, this.patternBases),
        (folder) => api.subscribe(folder, (error, events) => this.onEvents(error, events), { ignore }),
        warn,
      );
      this.gitDirs = [...new Set(this.roots.map((root) => findGitDir(root.path)))].filter(
        (gitDir): gitDir is string => gitDir !== undefined,
      );
      await resubscribe(
        this.gitFolders,
        this.gitDirs,
        (gitDir) =>
          api.subscribe(gitDir, (error, events) => this.onGitEvents(gitDir, error, events), {
            ignore: ['objects/**', 'logs/**', 'hooks/**', 'lfs/**'],
          }),
        warn,
      );
    });
    return this.syncing;
  }

  private onEvents(error: Error | null, events: Event[]): void {
    if (error) {
      this.options.logger.warn({ err: error }, 'file watcher error; a full reload will follow');
      this.fullReload = true;
    }
    for (const event of events) {
      if (this.gitDirs.some((gitDir) => isInside(gitDir, event.path))) continue;
      // Ignore files above a root count too: the crawl reads them.
      if (IGNORE_FILES.has(path.basename(event.path))) this.fullReload = true;
      const isFolder =
        event.type !== 'delete' && statSync(event.path, { throwIfNoEntry: false })?.isDirectory() === true;
      const inRoot = this.roots.some((root) => root.path !== event.path && isInside(root.path, event.path));
      if (!inRoot) {
        // A root itself, or a folder beside the roots where a root pattern may match: the roots may move.
        if (isFolder || event.type === 'delete') this.rootsMayMove = true;
        continue;
      }
      // A folder created or renamed brings files no event names one by one.
      if (isFolder) this.fullReload = true;
      this.pending.add(event.path);
    }
    this.schedule();
  }

  private onGitEvents(gitDir: string, error: Error | null, events: Event[]): void {
    if (error) this.options.logger.warn({ err: error }, 'git folder watcher error');
    this.lastGitEvent = Date.now();
    if (events.some((event) => isRefChange(gitDir, event.path))) this.fullReload = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.debouncing ??= debounceWindow();
    const window = this.debouncing;
    this.timer = setTimeout(() => {
      this.flushing = this.flushing.then(() => this.flush());
      this.debouncing = undefined;
      window.resolve();
    }, this.options.debounceMs ?? DEBOUNCE_MS);
  }

  /** Why reloads must wait now, if they must. */
  private async holdReason(): Promise<string | undefined> {
    const activity = gitActivity(this.gitDirs);
    if (activity) {
      if (
        activity.marker === 'index.lock' &&
        activity.ageMs > ORPHAN_LOCK_MS &&
        !(await gitProcessRunning())
      ) {
        if (!this.orphanWarned) {
          this.options.logger.warn(
            { gitDir: activity.gitDir },
            'index.lock is older than 30 s and no git process runs; treating it as abandoned',
          );
          this.orphanWarned = true;
        }
        return undefined;
      }
      this.lockSeenAt = Date.now();
      return `A git operation is in progress (${activity.marker}); reloads are held until it finishes.`;
    }
    if (Date.now() - this.lockSeenAt < GIT_SETTLE_MS) {
      return 'A git operation just finished; reloads are held until the tree settles.';
    }
    if (Date.now() - this.lastGitEvent < GIT_QUIET_MS) {
      return 'A git operation just changed HEAD or refs; reloads are held until the tree settles.';
    }
    return undefined;
  }

  private async flush(): Promise<void> {
    if (this.closed || (this.pending.size === 0 && !this.fullReload && !this.rootsMayMove)) return;
    const reason = await this.holdReason();
    if (reason) {
      this.holdSince ??= Date.now();
      if (Date.now() - this.holdSince < HOLD_CAP_MS) {
        this.options.onHold(reason);
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.flushing = this.flushing.then(() => this.flush());
        }, 250);
        return;
      }
      this.options.logger.warn({ reason }, 'git hold exceeded 60 s; reloading anyway');
    }
    this.holdSince = undefined;
    const paths = [...this.pending].sort();
    const full = this.fullReload;
    const rootsMayMove = this.rootsMayMove;
    this.pending.clear();
    this.fullReload = false;
    this.rootsMayMove = false;
    try {
      if (full) await this.options.reloadAll(paths);
      else await this.options.reloadPaths(paths, rootsMayMove);
    } catch (error) {
      this.options.logger.error({ err: error }, 'reload failed');
    } finally {
      this.options.onHold(undefined);
    }
  }

  /**
   * Resolves once the changes reported so far have been reloaded, those still in their debounce included
   * (a CLI command answered by a daemon waits for them; tests). Not through a git hold: a flush held by one
   * waits again later, and the index answers meanwhile with a note that says so.
   */
  async idle(): Promise<void> {
    await this.debouncing?.chained;
    await this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.debouncing?.resolve();
    await this.syncing.catch(() => undefined);
    const subscriptions = [...this.folders.values(), ...this.gitFolders.values()];
    this.folders.clear();
    this.gitFolders.clear();
    await Promise.all(subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
    await this.flushing.catch(() => undefined);
  }
}

/**
 * The folders to subscribe to: the roots and the pattern bases, less any inside another (a subscription
 * covers everything below its folder).
 */
export function watchedFolders(roots: readonly WatchedRoot[], patternBases: readonly string[]): string[] {
  const candidates = [...new Set([...roots.map((root) => root.path), ...patternBases])].sort(
    (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
  );
  const kept: string[] = [];
  for (const folder of candidates) if (!kept.some((outer) => isInside(outer, folder))) kept.push(folder);
  return kept.sort();
}

/**
 * Brings `subscriptions` to `wanted`: new folders subscribed, folders no longer wanted dropped. A folder that
 * cannot be watched (gone again already, no permission) is reported and left out; the others still are.
 */
async function resubscribe(
  subscriptions: Map<string, AsyncSubscription>,
  wanted: readonly string[],
  subscribe: (folder: string) => Promise<AsyncSubscription>,
  onError: (folder: string, error: unknown) => void,
): Promise<void> {
  for (const [folder, subscription] of subscriptions) {
    if (wanted.includes(folder)) continue;
    subscriptions.delete(folder);
    await subscription.unsubscribe().catch(() => undefined);
  }
  for (const folder of wanted) {
    if (subscriptions.has(folder)) continue;
    try {
      subscriptions.set(folder, await subscribe(folder));
    } catch (error) {
      onError(folder, error);
    }
  }
}

function debounceWindow(): { chained: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const chained = new Promise<void>((done) => (resolve = done));
  return { chained, resolve };
}
