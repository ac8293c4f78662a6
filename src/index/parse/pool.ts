/**
 * Parses many files, on a piscina worker pool when the built worker is available, in-process otherwise.
 * Both modes run the same `parseFile`, every file that fails is retried once in-process, sequentially,
 * away from the contention of the pool, and results are placed by job index: the outcomes depend neither
 * on the thread count nor on the order in which batches finish.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';
import type { LanguageId } from '../facts.js';
import type { ExtractOptions, ExtractorMap } from '../languages/extractor.js';
import {
  PARSE_TIMEOUT_MS,
  parseFile,
  resolveGrammarsDir,
  type ParseJob,
  type ParseOutcome,
} from './parser.js';
import type { ParseBatchTask } from './worker.js';

export interface ParsePoolOptions {
  /** Worker threads; 0 parses in-process. Default: the available parallelism. */
  readonly threads?: number;
  readonly grammarsDir?: string;
  /** Per-file parse deadline; default {@link PARSE_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** The built worker script; default: `parse-worker.js` found by {@link findWorkerFile}. */
  readonly workerPath?: string;
  /**
   * Replaces the built-in extractor list. Functions cannot be sent to a worker, so a pool given extractors
   * always parses in-process.
   */
  readonly extractors?: ExtractorMap;
  /** Workspace settings for every extractor (custom patterns, docs sanitising); plain data, sent to workers. */
  readonly extractOptions?: ExtractOptions;
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

export interface ParsePool {
  /** `workers` when a worker script was found and threads > 0. */
  readonly mode: 'workers' | 'in-process';
  readonly threads: number;
  /** Outcomes in job order. Rejects with the signal's reason when aborted. */
  parseAll(jobs: readonly ParseJob[], options?: ParseAllOptions): Promise<ParseOutcome[]>;
  /**
   * Starts the workers and loads these grammars in each, without waiting: a cold index calls it as soon as
   * it knows the languages, so thread start-up and grammar compilation overlap with reading the files.
   */
  warm?(languages: readonly LanguageId[]): void;
  close(): Promise<void>;
}

export const WORKER_FILE = 'parse-worker.js';

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

// Enough tasks per thread to even out files of different sizes, few enough that messaging stays cheap.
const MIN_BATCH = 16;
const MAX_BATCH = 64;
const MAX_BATCH_BYTES = 1 << 20;
const TASKS_PER_THREAD = 4;
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

export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const settings: ParseSettings = {
    grammarsDir: resolveGrammarsDir(options.grammarsDir),
    timeoutMs: options.timeoutMs ?? PARSE_TIMEOUT_MS,
    extractors: options.extractors,
    extractOptions: options.extractOptions,
  };
  const { workerPath, mode, threads } = chooseMode(options);

  let piscina: Promise<Piscina> | undefined;
  let closed = false;

  // Created on first use: a process that never indexes never starts a thread.
  const getPiscina = (filename: string): Promise<Piscina> => {
    piscina ??= import('piscina').then(
      ({ Piscina }) =>
        new Piscina({
          filename: pathToFileURL(filename).href,
          name: 'parseBatch',
          minThreads: 0,
          maxThreads: threads,
          // Keep threads (and their loaded grammars) warm across a watcher's bursts of changes.
          idleTimeout: 30_000,
        }),
    );
    return piscina;
  };

  const parseAll = async (jobs: readonly ParseJob[], opts: ParseAllOptions = {}): Promise<ParseOutcome[]> => {
    if (closed) throw new Error('parse pool is closed');
    const { signal } = opts;
    signal?.throwIfAborted();
    const collector = new OutcomeCollector(jobs.length, opts);
    const clock = new YieldClock();

    if (workerPath === undefined) {
      for (const [index, job] of jobs.entries())
        collector.settle(index, await parseInProcess(job, settings, signal, clock));
    } else {
      await parseInWorkers(await getPiscina(workerPath), jobs, threads, settings, signal, collector);
      signal?.throwIfAborted();
    }

    // Sequential and in job order, so that the retry itself is deterministic.
    for (const index of collector.failedInJobOrder())
      collector.record(index, await parseInProcess(jobs[index] as ParseJob, settings, signal, clock));
    return collector.outcomes();
  };

  const warm = (languages: readonly LanguageId[]): void => {
    if (workerPath === undefined || closed || languages.length === 0) return;
    const { grammarsDir, timeoutMs } = settings;
    const task: ParseBatchTask = { jobs: [], grammarsDir, timeoutMs, warmLanguages: languages };
    // One task per thread, submitted together, so that each thread starts and loads them.
    void getPiscina(workerPath)
      .then((pool) => Promise.all(Array.from({ length: threads }, () => pool.run(task))))
      .catch(() => undefined);
  };

  return {
    mode,
    threads,
    parseAll,
    warm,
    close: async () => {
      closed = true;
      if (piscina !== undefined) await (await piscina).destroy();
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
): Promise<ParseOutcome> {
  await clock.maybeYield();
  signal?.throwIfAborted();
  const { grammarsDir, timeoutMs, extractors, extractOptions } = settings;
  return parseFile(job, {
    grammarsDir,
    timeoutMs,
    ...(extractors !== undefined ? { extractors } : {}),
    ...(extractOptions !== undefined ? { options: extractOptions } : {}),
  });
}

/** Sends the jobs to the workers in batches and settles every job, including those of a batch that was lost. */
async function parseInWorkers(
  pool: Piscina,
  jobs: readonly ParseJob[],
  threads: number,
  settings: ParseSettings,
  signal: AbortSignal | undefined,
  collector: OutcomeCollector,
): Promise<void> {
  const { grammarsDir, timeoutMs, extractOptions } = settings;
  await Promise.all(
    makeBatches(jobs, threads).map(async (indexes) => {
      const task: ParseBatchTask = {
        jobs: indexes.map((i) => jobs[i] as ParseJob),
        grammarsDir,
        timeoutMs,
        ...(extractOptions !== undefined ? { extractOptions } : {}),
      };
      let results: ParseOutcome[] | undefined;
      try {
        results = (await pool.run(task, { signal: signal ?? null })) as ParseOutcome[];
      } catch {
        // A worker that died or threw loses its whole batch; the in-process retry recovers it.
        if (signal?.aborted) return;
      }
      indexes.forEach((index, position) => {
        collector.settle(
          index,
          results?.[position] ?? { kind: 'failed', reason: 'worker failed', timedOut: false },
        );
      });
    }),
  );
}

/**
 * Splits job indexes into consecutive batches: about {@link TASKS_PER_THREAD} tasks per thread, each within
 * the count and byte bounds.
 */
function makeBatches(jobs: readonly ParseJob[], threads: number): number[][] {
  const size = Math.min(
    MAX_BATCH,
    Math.max(MIN_BATCH, Math.ceil(jobs.length / (threads * TASKS_PER_THREAD))),
  );
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const [index, job] of jobs.entries()) {
    if (current.length > 0 && (current.length >= size || bytes + job.source.length > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += job.source.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

class YieldClock {
  private last = performance.now();

  async maybeYield(): Promise<void> {
    if (performance.now() - this.last < YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}
