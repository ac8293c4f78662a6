/**
 * Where a parse pool's time went, summed since the pool was created: each worker reports its batch's
 * grammar, parse and extraction times, and the main thread adds how long the result took to reach it. An
 * index run reads the totals before and after and reports the difference (`run-phases.ts`).
 */
import { performance } from 'node:perf_hooks';
import { emptyParseTimings, type ParseTimings } from './parser.js';
import type { BatchTimings } from './worker.js';

export interface ParseTimeTotals extends ParseTimings {
  /** Time the threads spent on tasks (parsing threads, or the main thread when parsing in-process). */
  readonly busyMs: number;
  /**
   * From a worker returning a batch to the main thread handling it: piscina's message, the structured
   * clone of the facts on both sides, and the wait while the main thread was busy with something else.
   */
  readonly handoffMs: number;
  readonly batches: number;
}

export class PoolTimings {
  /** The in-process parses add to this one directly. */
  readonly inProcess: ParseTimings = emptyParseTimings();
  private readonly workers: ParseTimings = emptyParseTimings();
  private busyMs = 0;
  private handoffMs = 0;
  private batches = 0;

  addBatch(timings: BatchTimings): void {
    this.workers.grammarMs += timings.grammarMs;
    this.workers.parseMs += timings.parseMs;
    this.workers.extractMs += timings.extractMs;
    this.busyMs += timings.busyMs;
    // Both clocks count from the epoch; a worker's clock may be a fraction of a millisecond ahead.
    this.handoffMs += Math.max(0, performance.timeOrigin + performance.now() - timings.endedAt);
    this.batches += 1;
  }

  addInProcess(busyMs: number): void {
    this.busyMs += busyMs;
  }

  totals(): ParseTimeTotals {
    return {
      grammarMs: this.workers.grammarMs + this.inProcess.grammarMs,
      parseMs: this.workers.parseMs + this.inProcess.parseMs,
      extractMs: this.workers.extractMs + this.inProcess.extractMs,
      busyMs: this.busyMs,
      handoffMs: this.handoffMs,
      batches: this.batches,
    };
  }
}
