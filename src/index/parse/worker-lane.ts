/**
 * One lane of the parse pool: a piscina of at most one worker thread. The thread starts on the lane's first
 * task and leaves after `idleTimeoutMs` without one, taking its V8 isolate, web-tree-sitter and grammars
 * (40–80 MB) with it; the next task starts a new thread. Piscina removes an idle worker only when it has no
 * task, and a task submitted after that goes to a new worker, so a parse requested while the old one shuts
 * down is still served.
 */
import { pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';
import type { LanguageId } from '../facts.js';
import type { ParseBatchResult, ParseBatchTask } from './worker.js';

/**
 * A parse allocates a great deal that dies with its file (web-tree-sitter's node objects), so V8 grows a
 * worker's young generation to its 16 MB default and keeps it committed while the worker lives, for each
 * worker. A few megabytes hold what survives a scavenge just as well: on the OpenTelemetry demo the cold
 * index's peak RSS fell by about 30 MB for the same CPU time.
 */
export const PARSE_WORKER_YOUNG_GENERATION_MB = 4;

export class WorkerLane {
  private piscina: Piscina | undefined;
  private starting: Promise<Piscina> | undefined;
  /** Languages whose grammars this lane's worker has met, while that worker lives. */
  private readonly met = new Set<LanguageId>();
  /** Worker threads this lane has started in all. */
  started = 0;

  constructor(
    private readonly workerPath: string,
    private readonly idleTimeoutMs: number,
    /** Told when this lane's worker has left (idle, or the pool closing). */
    private readonly onWorkerLeft: () => void = () => undefined,
  ) {}

  /** Created on first use: a process that never indexes never starts a thread. */
  private pool(): Promise<Piscina> {
    this.starting ??= import('piscina').then(({ Piscina }) => {
      this.piscina = new Piscina({
        filename: pathToFileURL(this.workerPath).href,
        name: 'parseBatch',
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: this.idleTimeoutMs,
        resourceLimits: { maxYoungGenerationSizeMb: PARSE_WORKER_YOUNG_GENERATION_MB },
      });
      this.piscina.on('workerCreate', () => (this.started += 1));
      this.piscina.on('workerDestroy', () => this.onWorkerLeft());
      return this.piscina;
    });
    return this.starting;
  }

  /** Worker threads alive in this lane now: 0 or 1. */
  get threads(): number {
    return this.piscina?.threads.length ?? 0;
  }

  /** The languages the live worker has loaded grammars for; empty once it has left. */
  holds(): ReadonlySet<LanguageId> {
    if (this.threads === 0) this.met.clear();
    return this.met;
  }

  async run(task: ParseBatchTask, signal: AbortSignal | undefined): Promise<ParseBatchResult> {
    const pool = await this.pool();
    // A task sent now runs in the live worker or, once it has left, in a new one that holds nothing yet.
    if (pool.threads.length === 0) this.met.clear();
    for (const job of task.jobs) this.met.add(job.language);
    for (const language of task.warmLanguages ?? []) this.met.add(language);
    return (await pool.run(task, { signal: signal ?? null })) as ParseBatchResult;
  }

  async close(): Promise<void> {
    if (this.starting !== undefined) await (await this.starting).destroy();
  }
}
