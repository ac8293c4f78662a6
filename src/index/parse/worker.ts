/**
 * Piscina worker entry (bundled to `dist/parse-worker.js`). Piscina calls the named export `parseBatch`
 * (see its `name` option), so this file needs no default export. A task is a batch of files: one message
 * per file would cost more than parsing a small file.
 */
import { performance } from 'node:perf_hooks';
import type { LanguageId } from '../facts.js';
import type { ExtractOptions } from '../languages/extractor.js';
import {
  emptyParseTimings,
  loadLanguage,
  parseFile,
  type ParseJob,
  type ParseOutcome,
  type ParseTimings,
} from './parser.js';

export interface ParseBatchTask {
  readonly jobs: readonly ParseJob[];
  /** Resolved by the pool so that workers and the in-process retry load the very same grammars. */
  readonly grammarsDir: string;
  readonly timeoutMs: number;
  /** The same settings the in-process path passes, so both modes extract the same facts. */
  readonly extractOptions?: ExtractOptions;
  /** Load these grammars before the jobs (a warm-up task has no jobs). */
  readonly warmLanguages?: readonly LanguageId[];
}

/** What a worker sends back for one batch. */
export interface ParseBatchResult {
  /** In job order. */
  readonly outcomes: ParseOutcome[];
  /** Where the worker's time went, so that an index run can say where its time goes. */
  readonly timings: BatchTimings;
}

export interface BatchTimings extends ParseTimings {
  /** From receiving the task to returning its result. */
  readonly busyMs: number;
  /** When the result was returned, in ms since the epoch: the main thread reads the hand-off delay from it. */
  readonly endedAt: number;
}

/** Outcomes in job order. Workers always use the built-in extractor list: functions cannot cross threads. */
export async function parseBatch(task: ParseBatchTask): Promise<ParseBatchResult> {
  const started = performance.now();
  const timings = emptyParseTimings();
  // A grammar that fails to load fails here quietly; parsing a file of it reports the failure.
  for (const language of task.warmLanguages ?? [])
    await loadLanguage(language, task.grammarsDir).catch(() => undefined);
  timings.grammarMs += performance.now() - started;
  const outcomes: ParseOutcome[] = [];
  for (const job of task.jobs) {
    outcomes.push(
      await parseFile(job, {
        grammarsDir: task.grammarsDir,
        timeoutMs: task.timeoutMs,
        timings,
        ...(task.extractOptions !== undefined ? { options: task.extractOptions } : {}),
      }),
    );
  }
  const ended = performance.now();
  return {
    outcomes,
    timings: { ...timings, busyMs: ended - started, endedAt: performance.timeOrigin + ended },
  };
}
