/**
 * Parses many files, on worker threads when the built worker is available, in-process otherwise. Both
 * modes run the same `parseFile`, every file that fails is retried once in-process, sequentially, away from
 * the contention of the pool, and results are placed by job index: the outcomes depend neither on the thread
 * count nor on which worker parsed which batch. Workers leave when idle (see `worker-lane.ts`) and get files
 * of the languages they already hold where possible (see `lanes.ts`).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { LanguageId } from '../facts.js';
import type { ExtractOptions, ExtractorMap } from '../languages/extractor.js';
import {
  PARSE_TIMEOUT_MS,
  parseFile,
  resolveGrammarsDir,
  type ParseJob,
  type ParseOutcome,
} from './parser.js';
import { PoolTimings } from './pool-timings.js';
import { runLanes } from './lane-dispatch.js';
import { LaneOwners, LaneQueues, makeBatches, workByLanguage } from './lanes.js';
import { WorkerLane } from './worker-lane.js';

export interface ParsePoolOptions {
  /** Worker threads; 0 parses in-process. Default: the available parallelism. */
  readonly threads?: number;
  readonly grammarsDir?: string;
  /** Per-file parse deadline; default {@link PARSE_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** The built worker script; default: `parse-worker.js` found by {@link findWorkerFile}. */
  readonly workerPath?: string;
  /** How long a worker thread waits for work before it leaves; default {@link PARSE_WORKER_IDLE_MS}. */
  readonly idleTimeoutMs?: number;
  /**
   * While no worker is alive, a run of at most this many files (and {@link IN_PROCESS_MAX_BYTES}) is parsed
   * in this thread; default {@link IN_PROCESS_MAX_FILES}, 0 to always start a worker.
   */
  readonly inProcessMaxFiles?: number;
  /**
   * Replaces the built-in extractor list. Functions cannot be sent to a worker, so a pool given extractors
   * always parses in-process.
   */
  readonly extractors?: ExtractorMap;
  /** Workspace settings for every extractor (custom patterns, docs sanitising); plain data, sent to workers. */
  readonly extractOptions?: ExtractOptions;
  /**
   * Called when the last live worker has left (not when the pool closes). `isIdle` tells later whether
   * the pool is still without workers.
   */
  readonly onDrained?: (isIdle: () => boolean) => void;
}

export interface ParseAllOptions {
  readonly signal?: AbortSignal;
  /** Called as files get their final outcome (a file that is retried counts once, after its retry). */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Called with each job's final outcome as soon as it is known (batches finish out of order), so that the
   * caller can store results while the workers parse the rest.
   */
  readonly onOutcome?: (index: number, outcome: ParseOutcome) => void;
}

/**
 * Starting a worker for an edit or two costs more than parsing them: a thread, its modules and its grammars
 * took 220–800 ms on the small 5k benchmark workspace before the edited file was searchable, against 45–50 ms
 * parsed in this thread once its grammar is loaded. Such a run is parsed here while no worker is alive (the
 * grammars it needs stay loaded, a few MB each; its size bounds how long the thread is busy).
 */
export const IN_PROCESS_MAX_FILES = 8;
export const IN_PROCESS_MAX_BYTES = 256 * 1024;

export interface ParsePool {
  /** `workers` when a worker script was found and threads > 0. */
  readonly mode: 'workers' | 'in-process';
  readonly threads: number;
  /** Outcomes in job order. Rejects with the signal's reason when aborted. */
  parseAll(jobs: readonly ParseJob[], options?: ParseAllOptions): Promise<ParseOutcome[]>;
  /**
   * Given the bytes to parse per language, gives each language a worker and starts each worker with the
   * grammars of its languages, without waiting: a cold index calls it as soon as it knows the languages, so
   * thread start-up and grammar compilation overlap with reading the files.
   */
  warm?(work: ReadonlyMap<LanguageId, number>): void;
  /** The worker threads: how many are alive now, how many were started, how many batches were lost. */
  workerStats(): ParseWorkerStats;
  /** Where parsing time went since the pool was created, summed over its threads (see `pool-timings.ts`). */
  timings?(): ParseTimeTotals;
  close(): Promise<void>;
}

export interface ParseWorkerStats {
  /** Alive now: 0 in-process, before the first parse, and once idle workers have left. */
  readonly alive: number;
  /** Started since the pool was created: a worker that left and came back counts twice. */
  readonly started: number;
  /** Batches whose worker failed (died, threw, was terminated): their files were parsed in-process. */
  readonly lostBatches: number;
}

export type { ParseTimeTotals } from './pool-timings.js';
import type { ParseTimeTotals } from './pool-timings.js';

export const WORKER_FILE = 'parse-worker.js';

/**
 * A worker leaves after this long without work: long enough to stay through a burst of reloads, short
 * enough that an idle server does not hold a worker's isolate and grammars.
 */
export const PARSE_WORKER_IDLE_MS = 5_000;

/**
 * Walks up from `startDir` to the package root looking for the built worker: next to the bundle
 * (`dist/meshlens.js`), one level up from a chunk (`dist/chunks/*.js`), or in `dist/` when running the
 * TypeScript sources.
 */
export function findWorkerFile(startDir: string): string | undefined {
  let dir = path.resolve(startDir);
  for (;;) {
    const beside = path.join(dir, WORKER_FILE);
    if (existsSync(beside)) return beside;
    const parent = path.dirname(dir);
    if (existsSync(path.join(dir, 'package.json'))) {
      const built = path.join(dir, 'dist', WORKER_FILE);
      return existsSync(built) ? built : undefined;
    }
    if (parent === dir) return undefined;
    dir = parent;
  }
}

// In-process parsing runs on the main thread: give the event loop a turn this often so that a server
// keeps answering while it indexes.
const YIELD_EVERY_MS = 20;

/** What every parse needs, whichever thread runs it: the same grammars, deadline and extractors. */
interface ParseSettings {
  readonly grammarsDir: string;
  readonly timeoutMs: number;
  readonly extractors: ExtractorMap | undefined;
  readonly extractOptions: ExtractOptions | undefined;
}

/** Workers when the caller wants threads, gave no extractors, and the built worker script exists. */
function chooseMode(options: ParsePoolOptions): {
  workerPath: string | undefined;
  mode: ParsePool['mode'];
  threads: number;
} {
  const requested = options.threads ?? Math.max(1, os.availableParallelism());
  const workerPath =
    requested > 0 && options.extractors === undefined
      ? (options.workerPath ?? findWorkerFile(path.dirname(fileURLToPath(import.meta.url))))
      : undefined;
  const mode = workerPath === undefined ? 'in-process' : 'workers';
  return { workerPath, mode, threads: mode === 'workers' ? requested : 0 };
}

/** The pool's worker lanes; `onDrained` hears when the last live worker has left an open pool. */
function createLanes(
  workerPath: string,
  threads: number,
  { idleTimeoutMs = PARSE_WORKER_IDLE_MS, onDrained }: ParsePoolOptions,
  isOpen: () => boolean,
): WorkerLane[] {
  const lanes: WorkerLane[] = [];
  const isIdle = (): boolean => isOpen() && lanes.every((lane) => lane.threads === 0);
  // Piscina tells of a leaving worker before it drops it from its list: look once that is done.
  const workerLeft = (): void =>
    void setImmediate(() => {
      if (isIdle()) onDrained?.(isIdle);
    });
  for (let lane = 0; lane < threads; lane++)
    lanes.push(new WorkerLane(workerPath, idleTimeoutMs, workerLeft));
  return lanes;
}

export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const settings: ParseSettings = {
    grammarsDir: resolveGrammarsDir(options.grammarsDir),
    timeoutMs: options.timeoutMs ?? PARSE_TIMEOUT_MS,
    extractors: options.extractors,
    extractOptions: options.extractOptions,
  };
  const { workerPath, mode, threads } = chooseMode(options);

  let closed = false;
  const inProcessMaxFiles = options.inProcessMaxFiles ?? IN_PROCESS_MAX_FILES;
  const small = (jobs: readonly ParseJob[]): boolean =>
    jobs.length <= inProcessMaxFiles &&
    jobs.reduce((bytes, job) => bytes + job.source.length, 0) <= IN_PROCESS_MAX_BYTES;
  const lanes = workerPath === undefined ? [] : createLanes(workerPath, threads, options, () => !closed);
  const owners = new LaneOwners(lanes.length);
  const timings = new PoolTimings();
  let lostBatches = 0;

  const parseAll = async (jobs: readonly ParseJob[], opts: ParseAllOptions = {}): Promise<ParseOutcome[]> => {
    if (closed) throw new Error('parse pool is closed');
    const { signal } = opts;
    signal?.throwIfAborted();
    const collector = new OutcomeCollector(jobs.length, opts);
    const clock = new YieldClock();

    if (workerPath === undefined || (lanes.every((lane) => lane.threads === 0) && small(jobs))) {
      for (const [index, job] of jobs.entries())
        collector.settle(index, await parseInProcess(job, settings, signal, clock, timings));
    } else {
      lostBatches += await parseInWorkers(lanes, owners, jobs, settings, signal, collector, timings);
      signal?.throwIfAborted();
    }

    // Sequential and in job order, so that the retry itself is deterministic.
    for (const index of collector.failedInJobOrder())
      collector.record(
        index,
        await parseInProcess(jobs[index] as ParseJob, settings, signal, clock, timings),
      );
    return collector.outcomes();
  };

  const warm = (work: ReadonlyMap<LanguageId, number>): void => {
    if (closed || lanes.length === 0 || work.size === 0) return;
    owners.assign(work);
    const { grammarsDir, timeoutMs } = settings;
    for (const [index, lane] of lanes.entries()) {
      const warmLanguages = owners.languagesOf(index).filter((language) => work.has(language));
      // A lane that owns none of these languages stays without a thread until it is given work.
      if (warmLanguages.length === 0) continue;
      lane
        .run({ jobs: [], grammarsDir, timeoutMs, warmLanguages }, undefined)
        .then((result) => timings.addBatch(result.timings))
        .catch(() => undefined);
    }
  };

  return {
    mode,
    threads,
    parseAll,
    warm,
    workerStats: () => ({
      alive: lanes.reduce((sum, lane) => sum + lane.threads, 0),
      started: lanes.reduce((sum, lane) => sum + lane.started, 0),
      lostBatches,
    }),
    timings: () => timings.totals(),
    close: async () => {
      closed = true;
      await Promise.all(lanes.map((lane) => lane.close()));
    },
  };
}

/**
 * Outcomes placed by job index as they arrive. A failure is held back for the in-process retry, so that
 * progress and `onOutcome` see each file once, with its final outcome.
 */
class OutcomeCollector {
  private readonly placed: (ParseOutcome | undefined)[];
  private readonly failed: number[] = [];
  private readonly onProgress: ParseAllOptions['onProgress'];
  private readonly onOutcome: ParseAllOptions['onOutcome'];
  private done = 0;

  constructor(
    private readonly total: number,
    { onProgress, onOutcome }: ParseAllOptions,
  ) {
    this.placed = new Array<ParseOutcome | undefined>(total).fill(undefined);
    this.onProgress = onProgress;
    this.onOutcome = onOutcome;
  }

  /** A first attempt: kept when it succeeded, queued for the retry when it failed. */
  settle(index: number, outcome: ParseOutcome): void {
    if (outcome.kind === 'failed') {
      this.failed.push(index);
      return;
    }
    this.record(index, outcome);
  }

  /** A final outcome, failed or not. */
  record(index: number, outcome: ParseOutcome): void {
    this.placed[index] = outcome;
    this.done += 1;
    this.onOutcome?.(index, outcome);
    this.onProgress?.(this.done, this.total);
  }

  failedInJobOrder(): readonly number[] {
    return [...this.failed].sort((a, b) => a - b);
  }

  outcomes(): ParseOutcome[] {
    return this.placed as ParseOutcome[];
  }
}

async function parseInProcess(
  job: ParseJob,
  settings: ParseSettings,
  signal: AbortSignal | undefined,
  clock: YieldClock,
  timings: PoolTimings,
): Promise<ParseOutcome> {
  await clock.maybeYield();
  signal?.throwIfAborted();
  const { grammarsDir, timeoutMs, extractors, extractOptions } = settings;
  const started = performance.now();
  try {
    return await parseFile(job, {
      grammarsDir,
      timeoutMs,
      timings: timings.inProcess,
      ...(extractors !== undefined ? { extractors } : {}),
      ...(extractOptions !== undefined ? { options: extractOptions } : {}),
    });
  } finally {
    timings.addInProcess(performance.now() - started);
  }
}

/**
 * Sends the jobs to the worker lanes in batches of one language and settles every job, including those of a
 * batch that was lost (for the in-process retry). Returns how many batches were lost.
 */
function parseInWorkers(
  lanes: readonly WorkerLane[],
  owners: LaneOwners,
  jobs: readonly ParseJob[],
  settings: ParseSettings,
  signal: AbortSignal | undefined,
  collector: OutcomeCollector,
  timings: PoolTimings,
): Promise<number> {
  owners.assign(workByLanguage(jobs.map((job) => ({ language: job.language, bytes: job.source.length }))));
  const { grammarsDir, timeoutMs, extractOptions } = settings;
  return runLanes({
    lanes,
    queues: new LaneQueues(makeBatches(jobs, lanes.length), owners),
    taskOf: (batch) => ({
      jobs: batch.indexes.map((i) => jobs[i] as ParseJob),
      grammarsDir,
      timeoutMs,
      ...(extractOptions !== undefined ? { extractOptions } : {}),
    }),
    signal,
    settle: (batch, result) => {
      if (result !== undefined) timings.addBatch(result.timings);
      batch.indexes.forEach((index, position) => {
        collector.settle(
          index,
          result?.outcomes[position] ?? { kind: 'failed', reason: 'worker failed', timedOut: false },
        );
      });
    },
  });
}

class YieldClock {
  private last = performance.now();

  async maybeYield(): Promise<void> {
    if (performance.now() - this.last < YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}
