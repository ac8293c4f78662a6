import { statSync } from 'node:fs';
import path from 'node:path';
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

export interface WatcherOptions {
  readonly roots: readonly { readonly name: string; readonly path: string }[];
  readonly logger: Logger;
  /** Re-index these absolute paths (files or folders). */
  readonly reloadPaths: (paths: readonly string[]) => Promise<unknown>;
  /** Re-crawl everything (ignore files changed, a folder moved, HEAD or refs moved). */
  readonly reloadAll: () => Promise<unknown>;
  /** Reloads are held (reason) or released (undefined). */
  readonly onHold: (reason: string | undefined) => void;
  readonly debounceMs?: number;
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
  private subscriptions: AsyncSubscription[] = [];
  private readonly gitDirs: string[] = [];
  private readonly pending = new Set<string>();
  private fullReload = false;
  private timer: NodeJS.Timeout | undefined;
  private holdSince: number | undefined;
  private lastGitEvent = 0;
  private lockSeenAt = 0;
  private orphanWarned = false;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: WatcherOptions) {
    this.options = options;
  }

  async start(): Promise<void> {
    const watcher = await import('@parcel/watcher');
    const ignore = SKIPPED_DIRS.map((dir) => `**/${dir}/**`);
    for (const root of this.options.roots) {
      this.subscriptions.push(
        await watcher.subscribe(root.path, (error, events) => this.onEvents(error, events), { ignore }),
      );
      const gitDir = findGitDir(root.path);
      if (gitDir && !this.gitDirs.includes(gitDir)) this.gitDirs.push(gitDir);
    }
    for (const gitDir of this.gitDirs) {
      this.subscriptions.push(
        await watcher.subscribe(gitDir, (error, events) => this.onGitEvents(gitDir, error, events), {
          ignore: ['objects/**', 'logs/**', 'hooks/**', 'lfs/**'],
        }),
      );
    }
  }

  private onEvents(error: Error | null, events: Event[]): void {
    if (error) {
      this.options.logger.warn({ err: error }, 'file watcher error; a full reload will follow');
      this.fullReload = true;
    }
    for (const event of events) {
      if (this.gitDirs.some((gitDir) => isInside(gitDir, event.path))) continue;
      if (IGNORE_FILES.has(path.basename(event.path))) this.fullReload = true;
      // A folder created or renamed brings files no event names one by one.
      if (event.type !== 'delete' && statSync(event.path, { throwIfNoEntry: false })?.isDirectory())
        this.fullReload = true;
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
    this.timer = setTimeout(() => {
      this.flushing = this.flushing.then(() => this.flush());
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
    if (this.closed || (this.pending.size === 0 && !this.fullReload)) return;
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
    this.pending.clear();
    this.fullReload = false;
    try {
      if (full) await this.options.reloadAll();
      else await this.options.reloadPaths(paths);
    } catch (error) {
      this.options.logger.error({ err: error }, 'reload failed');
    } finally {
      this.options.onHold(undefined);
    }
  }

  /** Resolves once pending changes have been reloaded (for tests and orderly shutdown). */
  async idle(): Promise<void> {
    await this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
    this.subscriptions = [];
    await this.flushing.catch(() => undefined);
  }
}
