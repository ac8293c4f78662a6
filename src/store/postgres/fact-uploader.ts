/**
 * Uploads the facts a replica parsed (or held when the shared store lacked them) to the shared store, in
 * the background. Parsing never waits for it: `add` only queues references to facts the index run keeps
 * anyway, and one batch at a time is encoded and sent between turns of the event loop.
 */
import type { CachedOutcome } from '../fact-cache.js';
import { encodeFacts, OUTCOME_KINDS, type RawFact } from '../fact-cache-encoding.js';
import { isUnavailable, StoreUnavailableError } from './pool.js';
import type { SharedFacts } from './shared-facts.js';

type Warn = { warn(obj: object, msg: string): void };

/** Facts per INSERT: a few hundred KB per statement. */
const UPLOAD_BATCH = 256;

export interface UploadStats {
  /** Facts this replica added to the shared store. */
  readonly uploaded: number;
  /** Facts queued but not sent, because the store failed (the next replica parses those files). */
  readonly dropped: number;
  readonly queued: number;
}

export class FactUploader {
  private queue: { key: string; outcome: CachedOutcome }[] = [];
  /** Keys sent or queued by this process: each is offered once. */
  private readonly offered = new Set<string>();
  private running: Promise<void> | undefined;
  private uploaded = 0;
  private dropped = 0;
  private warned = false;

  constructor(
    private readonly shared: SharedFacts,
    private readonly logger: Warn,
  ) {}

  add(entries: readonly { key: string; outcome: CachedOutcome }[]): void {
    for (const entry of entries) {
      if (this.offered.has(entry.key)) continue;
      this.offered.add(entry.key);
      this.queue.push(entry);
    }
    if (this.queue.length > 0) this.running ??= this.pump().finally(() => (this.running = undefined));
  }

  /** Resolves when everything queued so far has been sent (or dropped after a failure). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  stats(): UploadStats {
    return { uploaded: this.uploaded, dropped: this.dropped, queued: this.queue.length };
  }

  private async pump(): Promise<void> {
    while (this.queue.length > 0) {
      // A turn of the event loop first: the run that queued these goes on with its own work.
      await new Promise((resolve) => setImmediate(resolve));
      const batch = this.queue.splice(0, UPLOAD_BATCH);
      try {
        this.uploaded += await this.shared.upload(batch.map(encoded));
      } catch (error) {
        this.fail(error, batch);
      }
    }
  }

  /**
   * A batch that failed is dropped, not retried: facts are an optimisation, and another replica parses what
   * is missing. While the store is unreachable the rest of the queue goes too, instead of failing one by one.
   */
  private fail(error: unknown, batch: readonly { key: string }[]): void {
    const lost = [...batch];
    if (error instanceof StoreUnavailableError || isUnavailable(error)) lost.push(...this.queue.splice(0));
    // Offered again by a later run, once the store may be back.
    for (const entry of lost) this.offered.delete(entry.key);
    this.dropped += lost.length;
    if (this.warned) return;
    this.warned = true;
    this.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'sharing parsed facts with the other replicas failed; they parse those files themselves',
    );
  }
}

function encoded(entry: { key: string; outcome: CachedOutcome }): RawFact {
  const [enc, value] = encodeFacts(entry.outcome.facts);
  return { key: entry.key, kind: OUTCOME_KINDS.indexOf(entry.outcome.kind), enc, value };
}
