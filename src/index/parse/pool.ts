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

export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const requested = options.threads ?? Math.max(1, os.availableParallelism());
  const grammarsDir = resolveGrammarsDir(options.grammarsDir);
  const timeoutMs = options.timeoutMs ?? PARSE_TIMEOUT_MS;
  const extractors = options.extractors;
  const extractOptions = options.extractOptions;
  const workerPath =
    requested > 0 && extractors === undefined
      ? (options.workerPath ?? findWorkerFile(path.dirname(fileURLToPath(import.meta.url))))
      : undefined;
  const mode = workerPath === undefined ? 'in-process' : 'workers';
  const threads = mode === 'workers' ? requested : 0;

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

  const inProcess = async (job: ParseJob, signal: AbortSignal | undefined, clock: YieldClock) => {
    await clock.maybeYield();
    signal?.throwIfAborted();
    return parseFile(job, {
      grammarsDir,
      timeoutMs,
      ...(extractors !== undefined ? { extractors } : {}),
      ...(extractOptions !== undefined ? { options: extractOptions } : {}),
    });
  };

  const parseAll = async (jobs: readonly ParseJob[], opts: ParseAllOptions = {}): Promise<ParseOutcome[]> => {
    if (closed) throw new Error('parse pool is closed');
    const { signal, onProgress, onOutcome } = opts;
    signal?.throwIfAborted();
    const total = jobs.length;
    const outcomes: (ParseOutcome | undefined)[] = new Array<ParseOutcome | undefined>(total).fill(undefined);
    const retry: number[] = [];
    let done = 0;
    const settle = (index: number, outcome: ParseOutcome): void => {
      if (outcome.kind === 'failed') {
        retry.push(index);
        return;
      }
      outcomes[index] = outcome;
      done += 1;
      onOutcome?.(index, outcome);
      onProgress?.(done, total);
    };
    const clock = new YieldClock();

    if (workerPath === undefined) {
      for (const [index, job] of jobs.entries()) settle(index, await inProcess(job, signal, clock));
    } else {
      const pool = await getPiscina(workerPath);
      const batches = makeBatches(jobs, threads);
      await Promise.all(
        batches.map(async (indexes) => {
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
            // A worker that died or threw loses its whole batch; the in-process retry below recovers it.
            if (signal?.aborted) return;
          }
          indexes.forEach((index, position) => {
            settle(
              index,
              results?.[position] ?? { kind: 'failed', reason: 'worker failed', timedOut: false },
            );
          });
        }),
      );
      signal?.throwIfAborted();
    }

    // Sequential and in job order, so that the retry itself is deterministic.
    retry.sort((a, b) => a - b);
    for (const index of retry) {
      const outcome = await inProcess(jobs[index] as ParseJob, signal, clock);
      outcomes[index] = outcome;
      done += 1;
      onOutcome?.(index, outcome);
      onProgress?.(done, total);
    }
    return outcomes as ParseOutcome[];
  };

  const warm = (languages: readonly LanguageId[]): void => {
    if (workerPath === undefined || closed || languages.length === 0) return;
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
