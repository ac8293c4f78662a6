/**
 * The cold index of a replica on the team store. The first replica to take the workspace's index job
 * builds the index, sharing its facts as it parses; the others wait. When the builder finishes, each of
 * them indexes from the shared facts (parsing only what differs in its own checkout). When the builder dies
 * instead, its lock goes with its connection: the next replica takes the job and parses only what the dead
 * one had not shared yet.
 */
import { createHash } from 'node:crypto';
import type { SharedIndexStatus } from '../../index/reader.js';
import type { IndexJobs, IndexRun, JobLock } from './index-jobs.js';
import type { SharedFactStore } from './shared-fact-store.js';

type Warn = { warn(obj: object, msg: string): void };

/** What the engine reports of a finished cold index. */
export interface ColdIndexFigures {
  /** Files in the installed snapshot. */
  readonly files: number;
  readonly parsed: number;
}

export interface SharedIndexOptions {
  readonly jobs: IndexJobs;
  readonly replica: string;
  readonly logger: Warn;
  /** The fact store the engine opened (it opens it on its first run). */
  readonly facts: () => SharedFactStore | undefined;
  /** How often a waiting replica asks for the job. */
  readonly pollMs?: number;
  /** A holder silent for this long is taken for hung: the waiter indexes on its own. */
  readonly staleMs?: number;
}

export class ShutDownError extends Error {
  override readonly name = 'ShutDownError';
}

const DEFAULT_POLL_MS = 1000;
const DEFAULT_STALE_MS = 120_000;

/** A hash of every fact key the run looked up: same files, contents, extractors and settings. */
export function inputsFingerprint(keys: readonly string[]): string {
  return createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 32);
}

export class SharedIndex {
  private current: SharedIndexStatus;
  private closed = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: SharedIndexOptions) {
    this.current = { replica: options.replica, state: 'claiming' };
  }

  status(): SharedIndexStatus {
    return this.current;
  }

  /** Whether the cold index is still to come: this replica claims, waits, or builds. */
  pending(): boolean {
    const { state } = this.current;
    return state === 'claiming' || state === 'waiting';
  }

  /**
   * Runs `index` as this replica's cold index, after taking the job or waiting for whoever holds it. A server
   * that shuts down while waiting does not index at all.
   */
  async coldIndex(
    index: () => Promise<ColdIndexFigures>,
    progress: () => { done: number; total: number } | undefined,
  ): Promise<void> {
    let lock: JobLock | undefined;
    try {
      lock = await this.acquire();
    } catch (error) {
      if (error instanceof ShutDownError) return;
      this.unshared(
        `the index job could not be taken (${messageOf(error)}); this replica indexed on its own`,
      );
    }
    if (lock) await this.build(lock, index, progress);
    else await this.follow(index);
  }

  /** What a call that needs the index is told while this replica waits for another one's cold index. */
  readiness(): string | undefined {
    if (this.current.state !== 'waiting') return undefined;
    const holder = this.current.holder;
    const progress = holder && holder.total > 0 ? ` (${holder.done} of ${holder.total} files)` : '';
    const who = holder ? `replica ${holder.replica}` : 'another replica';
    return `Still indexing: ${who} is indexing this workspace for every replica${progress}; this one uses its result when it finishes. Retry shortly, or call admin status.`;
  }

  /** Stops waiting (server shutdown). */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** The job's lock to build with, or undefined when another replica built the snapshot meanwhile. */
  private async acquire(): Promise<JobLock | undefined> {
    const { jobs } = this.options;
    const first = await jobs.tryLock();
    if (first) return first;
    const seen = await jobs.state();
    const before = seen.snapshot?.id ?? null;
    this.waitingOn(seen.running);
    for (;;) {
      await this.pause();
      const lock = await jobs.tryLock();
      if (lock && lock.snapshotRun === before) return lock;
      if (lock) {
        // Another replica finished a snapshot while this one waited: index from its facts, holding nothing.
        await lock.release();
        this.set({ state: 'following', ...snapshotOf((await jobs.state()).snapshot) });
        return undefined;
      }
      const now = await jobs.state();
      this.waitingOn(now.running);
      const holder = now.running;
      if (holder && holder.heartbeatAgeMs > (this.options.staleMs ?? DEFAULT_STALE_MS)) {
        this.unshared(
          `replica ${holder.replica} holds the index job but has not reported for ${Math.round(holder.heartbeatAgeMs / 1000)} s; this replica indexed on its own`,
        );
        return undefined;
      }
    }
  }

  private async build(
    lock: JobLock,
    index: () => Promise<ColdIndexFigures>,
    progress: () => { done: number; total: number } | undefined,
  ): Promise<void> {
    let run: number;
    try {
      run = await lock.begin(this.options.replica, progress);
    } catch (error) {
      await lock.release();
      this.unshared(
        `the index run could not be recorded (${messageOf(error)}); this replica indexed on its own`,
      );
      await this.follow(index);
      return;
    }
    this.set({ state: 'building' });
    let figures: ColdIndexFigures;
    try {
      figures = await index();
    } catch (error) {
      await lock.release(messageOf(error));
      throw error;
    }
    const mine = await this.ownFigures();
    try {
      // Every fact is shared before the job is marked done: whoever waits pulls them all.
      await lock.finish({ ...mine, files: figures.files, parsed: figures.parsed });
    } catch (error) {
      this.options.logger.warn(
        { err: messageOf(error) },
        'the shared snapshot could not be recorded; the next replica to start indexes again',
      );
    }
    this.set({
      state: 'built',
      snapshot: {
        run,
        replica: this.options.replica,
        finishedAt: new Date().toISOString(),
        files: figures.files,
        parsed: figures.parsed,
        inputsFingerprint: mine.inputsFingerprint,
      },
      thisRun: {
        parsed: figures.parsed,
        pulled: mine.pulled,
        uploaded: mine.uploaded,
        matchesSnapshot: true,
      },
    });
  }

  /** Indexes without the job: after another replica built the snapshot, or when the store cannot be used. */
  private async follow(index: () => Promise<ColdIndexFigures>): Promise<void> {
    const figures = await index();
    const mine = await this.ownFigures();
    const snapshot = this.current.snapshot;
    const { note } = this.current;
    this.set({
      state: this.current.state === 'unshared' ? 'unshared' : 'followed',
      ...(note ? { note } : {}),
      thisRun: {
        parsed: figures.parsed,
        pulled: mine.pulled,
        uploaded: mine.uploaded,
        matchesSnapshot: snapshot?.inputsFingerprint === mine.inputsFingerprint,
      },
    });
  }

  /** What the fact store saw of this replica's cold index; uploads are waited for first. */
  private async ownFigures(): Promise<{ inputsFingerprint: string; pulled: number; uploaded: number }> {
    const facts = this.options.facts();
    // Taken before anything else can run: a reload queued behind the cold index must not count.
    const keys = facts?.takeKeys() ?? [];
    await facts?.drainUploads();
    return {
      inputsFingerprint: inputsFingerprint(keys),
      pulled: facts?.lastPrefetch().pulled ?? 0,
      uploaded: facts?.uploads().uploaded ?? 0,
    };
  }

  private waitingOn(holder: IndexRun | undefined): void {
    this.set({
      state: 'waiting',
      ...(holder
        ? {
            holder: {
              replica: holder.replica,
              since: holder.startedAt,
              done: holder.progress.done,
              total: holder.progress.total,
            },
          }
        : {}),
    });
  }

  private unshared(note: string): void {
    this.options.logger.warn({}, note);
    this.set({ state: 'unshared', note });
  }

  /** Replaces the state, keeping the snapshot seen so far unless `next` names one. */
  private set(next: Omit<SharedIndexStatus, 'replica'>): void {
    const snapshot = next.snapshot ?? this.current.snapshot;
    this.current = { replica: this.options.replica, ...next, ...(snapshot ? { snapshot } : {}) };
  }

  private async pause(): Promise<void> {
    if (this.closed) throw new ShutDownError('the server is shutting down');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.pollMs ?? DEFAULT_POLL_MS);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
    if (this.closed) throw new ShutDownError('the server is shutting down');
  }
}

function snapshotOf(run: IndexRun | undefined): Pick<SharedIndexStatus, 'snapshot'> {
  if (!run || run.finishedAt === null) return {};
  return {
    snapshot: {
      run: run.id,
      replica: run.replica,
      finishedAt: run.finishedAt,
      files: run.files ?? 0,
      parsed: run.parsed ?? 0,
      inputsFingerprint: run.inputsFingerprint ?? '',
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
