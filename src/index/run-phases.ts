/**
 * Where one index run's time goes, phase by phase, so that a slow run says what made it slow (`admin status`
 * in JSON, `meshlens index --json`, and an `info` log line per run). Main-thread phases are wall time on the
 * main thread; the parse figures are summed over the parse threads, so on two threads they can add up to
 * twice the run's wall time.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { ParseTimeTotals } from './parse/pool-timings.js';

/** Milliseconds, rounded. */
export interface IndexRunPhases {
  /** Listing the roots' files (full runs only). */
  readonly crawlMs: number;
  /** Reading, guarding and hashing the files that may have changed, on the main thread. */
  readonly readMs: number;
  /** Looking the files up in the fact cache. */
  readonly cacheLookupMs: number;
  /** From handing the first file to the parser to the last result. */
  readonly parseWallMs: number;
  /** Writing parsed facts to the fact cache (encoding, compressing, SQLite), on the main thread. */
  readonly cacheWriteMs: number;
  /** Taking the parse results into the snapshot's file list (one copy of each short string). */
  readonly recordMs: number;
  /** Remembering each file's size, mtime and hash for the next start. */
  readonly fileStatesMs: number;
  /** Comparing with the installed snapshot, building and installing the new one. */
  readonly installMs: number;
  /** Compiling grammars, summed over the parse threads. */
  readonly grammarMs: number;
  /** Inside tree-sitter's parser, summed over the parse threads. */
  readonly treeSitterMs: number;
  /** Walking trees into facts, summed over the parse threads. */
  readonly extractMs: number;
  /** Parse threads busy with tasks, in all (grammars, parsing, extraction and what lies between). */
  readonly parseBusyMs: number;
  /** From a thread returning a batch to the main thread taking it (messaging, copying, waiting). */
  readonly handoffMs: number;
  /** Garbage collection pauses of the main thread. */
  readonly mainGcMs: number;
  /** CPU time of the whole process during the run, every thread. */
  readonly cpuMs: number;
}

type MainPhase =
  | 'crawlMs'
  | 'readMs'
  | 'cacheLookupMs'
  | 'parseWallMs'
  | 'cacheWriteMs'
  | 'recordMs'
  | 'fileStatesMs'
  | 'installMs';

const NO_PARSE: ParseTimeTotals = {
  grammarMs: 0,
  parseMs: 0,
  extractMs: 0,
  busyMs: 0,
  handoffMs: 0,
  batches: 0,
};

/** Collects one run's phase times; `phases()` reads them out. */
export class PhaseClock {
  private readonly main = new Map<MainPhase, number>();
  private readonly cpuAtStart = process.cpuUsage();
  private parseBefore: ParseTimeTotals | undefined;
  private parseAfter: ParseTimeTotals | undefined;
  private gcMs = 0;
  private readonly gc: PerformanceObserver | undefined;

  constructor() {
    try {
      this.gc = new PerformanceObserver((list) => this.countGc(list.getEntries()));
      this.gc.observe({ entryTypes: ['gc'] });
    } catch {
      // Without the observer the run reports no GC time: nothing else depends on it.
      this.gc = undefined;
    }
  }

  add(phase: MainPhase, ms: number): void {
    this.main.set(phase, (this.main.get(phase) ?? 0) + ms);
  }

  time<T>(phase: MainPhase, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }

  async timeAsync<T>(phase: MainPhase, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }

  /** The parse pool's totals around the run's parsing: the run reports the difference. */
  parseTotals(when: 'before' | 'after', totals: ParseTimeTotals | undefined): void {
    if (when === 'before') this.parseBefore = totals;
    else this.parseAfter = totals;
  }

  /** The phases so far; stops counting garbage collection. */
  phases(): IndexRunPhases {
    if (this.gc) {
      this.countGc(this.gc.takeRecords());
      this.gc.disconnect();
    }
    const ms = (value: number): number => Math.round(value);
    const main = (phase: MainPhase): number => ms(this.main.get(phase) ?? 0);
    const before = this.parseBefore ?? NO_PARSE;
    const after = this.parseAfter ?? before;
    const parse = (key: keyof ParseTimeTotals): number => ms(after[key] - before[key]);
    const cpu = process.cpuUsage(this.cpuAtStart);
    return {
      crawlMs: main('crawlMs'),
      readMs: main('readMs'),
      cacheLookupMs: main('cacheLookupMs'),
      parseWallMs: main('parseWallMs'),
      cacheWriteMs: main('cacheWriteMs'),
      recordMs: main('recordMs'),
      fileStatesMs: main('fileStatesMs'),
      installMs: main('installMs'),
      grammarMs: parse('grammarMs'),
      treeSitterMs: parse('parseMs'),
      extractMs: parse('extractMs'),
      parseBusyMs: parse('busyMs'),
      handoffMs: parse('handoffMs'),
      mainGcMs: ms(this.gcMs),
      cpuMs: ms((cpu.user + cpu.system) / 1000),
    };
  }

  private countGc(entries: readonly { duration: number }[]): void {
    for (const entry of entries) this.gcMs += entry.duration;
  }
}
