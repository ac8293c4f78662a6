/**
 * Language-affine scheduling of parse batches over worker lanes (one worker thread each). A worker compiles
 * a grammar the first time it meets that language and keeps it while it lives, so sending every language to
 * every worker makes each of them hold every grammar. Here each language has an owning lane, chosen so that
 * the lanes get about the same number of bytes; batches hold files of one language; a lane works through its
 * own languages first and only takes a batch from a busy lane's queue when it has nothing left, preferring
 * a grammar it already holds, and leaves a small tail of another grammar to its owner. Which lane parses a
 * file never changes its outcome.
 */
import type { LanguageId } from '../facts.js';
import { grammarOf } from '../languages/registry.js';
import type { ParseJob } from './parser.js';

/** Consecutive jobs of one language, sent to a worker as one task. */
export interface Batch {
  readonly language: LanguageId;
  /** Job indexes, in job order. */
  readonly indexes: readonly number[];
  readonly bytes: number;
}

// Enough tasks per thread to even out files of different sizes, few enough that messaging stays cheap.
const MIN_BATCH = 16;
const MAX_BATCH = 64;
const MAX_BATCH_BYTES = 1 << 20;
const TASKS_PER_THREAD = 4;
/**
 * An idle lane takes a batch whose grammar it does not hold only while the busy lane still has this many
 * bytes of that language queued. Compiling a grammar in a second worker costs up to 15 MB of its memory
 * and a few hundred milliseconds of CPU (C#: 5 MB of parse tables, held twice); parsing a few dozen
 * kilobytes costs less, so the owner keeps such a tail of work.
 */
export const MIN_STEAL_BYTES = 256 * 1024;

/**
 * Splits the jobs by language (in the order languages first appear), then each language's jobs into
 * batches: about {@link TASKS_PER_THREAD} tasks per thread, each within the count and byte bounds.
 */
export function makeBatches(jobs: readonly ParseJob[], threads: number): Batch[] {
  const size = Math.min(
    MAX_BATCH,
    Math.max(MIN_BATCH, Math.ceil(jobs.length / (Math.max(1, threads) * TASKS_PER_THREAD))),
  );
  const byLanguage = new Map<LanguageId, number[]>();
  for (const [index, job] of jobs.entries()) {
    const indexes = byLanguage.get(job.language);
    if (indexes === undefined) byLanguage.set(job.language, [index]);
    else indexes.push(index);
  }
  const batches: Batch[] = [];
  for (const [language, indexes] of byLanguage) {
    let current: number[] = [];
    let bytes = 0;
    for (const index of indexes) {
      const length = (jobs[index] as ParseJob).source.length;
      if (current.length > 0 && (current.length >= size || bytes + length > MAX_BATCH_BYTES)) {
        batches.push({ language, indexes: current, bytes });
        current = [];
        bytes = 0;
      }
      current.push(index);
      bytes += length;
    }
    if (current.length > 0) batches.push({ language, indexes: current, bytes });
  }
  return batches;
}

/** Bytes to parse per language: what the owners are balanced on. */
export function workByLanguage(
  jobs: readonly { language: LanguageId; bytes: number }[],
): Map<LanguageId, number> {
  const work = new Map<LanguageId, number>();
  for (const { language, bytes } of jobs) work.set(language, (work.get(language) ?? 0) + bytes);
  return work;
}

/**
 * Which lane owns which language, for the pool's lifetime: a reload's files go to the lane that parsed their
 * language before. A language seen for the first time goes to the lane with the least work so far.
 */
export class LaneOwners {
  private readonly owner = new Map<LanguageId, number>();
  private readonly work: number[];

  constructor(readonly lanes: number) {
    this.work = new Array<number>(lanes).fill(0);
  }

  /** Gives each language without an owner to the least loaded lane, heaviest language first. */
  assign(work: ReadonlyMap<LanguageId, number>): void {
    const fresh = [...work]
      .filter(([language]) => !this.owner.has(language))
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
    for (const [language, bytes] of fresh) {
      let lane = 0;
      for (let candidate = 1; candidate < this.lanes; candidate += 1)
        if ((this.work[candidate] as number) < (this.work[lane] as number)) lane = candidate;
      this.owner.set(language, lane);
      this.work[lane] = (this.work[lane] as number) + Math.max(1, bytes);
    }
  }

  ownerOf(language: LanguageId): number {
    const lane = this.owner.get(language);
    if (lane === undefined) throw new Error(`no lane owns ${language}: assign it first`);
    return lane;
  }

  languagesOf(lane: number): LanguageId[] {
    return [...this.owner].filter(([, owner]) => owner === lane).map(([language]) => language);
  }
}

/** The batches still to send, queued by owning lane. */
export class LaneQueues {
  private readonly queues: Batch[][];

  constructor(batches: readonly Batch[], owners: LaneOwners) {
    this.queues = Array.from({ length: owners.lanes }, () => []);
    for (const batch of batches) this.queues[owners.ownerOf(batch.language)]?.push(batch);
  }

  get empty(): boolean {
    return this.queues.every((queue) => queue.length === 0);
  }

  /** How many batches the lane still has queued. */
  queued(lane: number): number {
    return this.queues[lane]?.length ?? 0;
  }

  /** The lane's own next batch. */
  takeOwn(lane: number): Batch | undefined {
    return this.queues[lane]?.shift();
  }

  /**
   * A batch for an idle lane with nothing of its own: from the busy lane with the most bytes queued, taken
   * from the end of its queue (its owner keeps the head). First a batch whose grammar the thief already
   * holds (or that needs none), else one of a language with at least {@link MIN_STEAL_BYTES} still queued.
   * Nothing is taken from an idle lane: it takes its own work itself, and one batch never starts two workers.
   */
  steal(busy: ReadonlySet<number>, holds: ReadonlySet<LanguageId>): Batch | undefined {
    let victim: Batch[] | undefined;
    let most = 0;
    for (const lane of busy) {
      const queue = this.queues[lane] as Batch[];
      const bytes = queue.reduce((sum, batch) => sum + Math.max(1, batch.bytes), 0);
      if (bytes > most) [victim, most] = [queue, bytes];
    }
    if (victim === undefined) return undefined;
    const held = new Set([...holds].map(grammarOf));
    const free = (batch: Batch) => {
      const grammar = grammarOf(batch.language);
      return grammar === undefined || held.has(grammar);
    };
    for (let at = victim.length - 1; at >= 0; at -= 1)
      if (free(victim[at] as Batch)) return victim.splice(at, 1)[0];
    const queued = new Map<LanguageId, number>();
    for (const batch of victim) queued.set(batch.language, (queued.get(batch.language) ?? 0) + batch.bytes);
    for (let at = victim.length - 1; at >= 0; at -= 1)
      if ((queued.get((victim[at] as Batch).language) as number) >= MIN_STEAL_BYTES)
        return victim.splice(at, 1)[0];
    return undefined;
  }
}
