/**
 * The fact store of a replica on the team store: its own SQLite cache first, the facts other replicas
 * shared second. Before each lookup the index run names its keys (`prefetch`): what the local cache lacks is
 * pulled from PostgreSQL in one query and copied into it, what the local cache holds and the shared store
 * lacks is offered for upload. The lookup itself stays synchronous. PostgreSQL is an optimisation here: when
 * it fails or is slow, the run goes on with the local cache and parses the rest.
 */
import type { KnownFileState, PersistentFactStore } from '../../index/index-run.js';
import type { CachedOutcome, FactCache } from '../fact-cache.js';
import { decodeFacts, OUTCOME_KINDS, type RawFact } from '../fact-cache-encoding.js';
import { FactUploader, type UploadStats } from './fact-uploader.js';
import { isUnavailable, StoreUnavailableError } from './pool.js';
import type { SharedFacts } from './shared-facts.js';

type Warn = { warn(obj: object, msg: string): void };

/** How long a run waits for the shared store before going on without what it has not answered yet. */
const DEFAULT_PREFETCH_BUDGET_MS = 20_000;
/** After the store could not be reached, runs do not ask it again for this long. */
const RETRY_AFTER_MS = 30_000;

export interface SharedFactStoreOptions {
  readonly local: FactCache;
  readonly shared: SharedFacts;
  readonly logger: Warn;
  readonly prefetchBudgetMs?: number;
}

/** What the last prefetch found, for the status of a run. */
export interface PrefetchFigures {
  readonly requested: number;
  /** Keys the local cache held. */
  readonly local: number;
  /** Facts copied from the shared store into the local cache. */
  readonly pulled: number;
}

export class SharedFactStore implements PersistentFactStore {
  private readonly local: FactCache;
  private readonly shared: SharedFacts;
  private readonly logger: Warn;
  private readonly budgetMs: number;
  private readonly uploader: FactUploader;
  /** What the last prefetch found, consumed by the `getMany` that follows it. */
  private ready: Map<string, CachedOutcome> | undefined;
  private prefetchCount = 0;
  private unavailableUntil = 0;
  private pulledTotal = 0;
  private last: PrefetchFigures = { requested: 0, local: 0, pulled: 0 };
  /** Every key the first run looked up (what the inputs fingerprint hashes), until `takeKeys`. */
  private seen: Set<string> | undefined = new Set<string>();

  constructor(options: SharedFactStoreOptions) {
    this.local = options.local;
    this.shared = options.shared;
    this.logger = options.logger;
    this.budgetMs = options.prefetchBudgetMs ?? DEFAULT_PREFETCH_BUDGET_MS;
    this.uploader = new FactUploader(options.shared, options.logger);
  }

  get path(): string {
    return this.local.path;
  }

  get warning(): string | undefined {
    return this.local.warning;
  }

  async prefetch(keys: readonly string[]): Promise<void> {
    const token = ++this.prefetchCount;
    for (const key of keys) this.seen?.add(key);
    const held = this.local.getMany(keys);
    this.ready = held;
    this.last = { requested: keys.length, local: held.size, pulled: 0 };
    if (keys.length === 0 || Date.now() < this.unavailableUntil) return;
    const missing = keys.filter((key) => !held.has(key));
    const work = Promise.all([this.pull(missing, token), this.offerHeld(held)]);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.budgetMs)));
    try {
      if ((await Promise.race([work, late])) === 'late') {
        this.logger.warn(
          { ms: this.budgetMs },
          'the shared facts did not arrive in time; this run parses what the local cache lacks',
        );
      }
    } catch (error) {
      this.failed(error);
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
  }

  /** Copies the shared rows for `keys` into the local cache; this run uses them unless it stopped waiting. */
  private async pull(keys: readonly string[], token: number): Promise<void> {
    if (keys.length === 0) return;
    const rows = await this.shared.fetch(keys);
    const sound: RawFact[] = [];
    const outcomes = new Map<string, CachedOutcome>();
    for (const row of rows) {
      const outcome = decoded(row);
      if (!outcome) continue;
      sound.push(row);
      outcomes.set(row.key, outcome);
    }
    // Kept even when this run stopped waiting: the next run, or a restart, finds them locally.
    this.local.putRaw(sound);
    this.pulledTotal += sound.length;
    if (token !== this.prefetchCount || !this.ready) return;
    for (const [key, outcome] of outcomes) this.ready.set(key, outcome);
    this.last = { ...this.last, pulled: outcomes.size };
  }

  /** Facts this replica holds that the shared store lacks (cached before it joined a team) are shared too. */
  private async offerHeld(held: ReadonlyMap<string, CachedOutcome>): Promise<void> {
    if (held.size === 0) return;
    const present = await this.shared.present([...held.keys()]);
    this.uploader.add(
      [...held].filter(([key]) => !present.has(key)).map(([key, outcome]) => ({ key, outcome })),
    );
  }

  private failed(error: unknown): void {
    const unavailable = error instanceof StoreUnavailableError || isUnavailable(error);
    if (unavailable) this.unavailableUntil = Date.now() + RETRY_AFTER_MS;
    this.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'reading the shared facts failed; this run parses what the local cache lacks',
    );
  }

  getMany(keys: readonly string[]): Map<string, CachedOutcome> {
    const ready = this.ready;
    this.ready = undefined;
    if (!ready) {
      for (const key of keys) this.seen?.add(key);
      return this.local.getMany(keys);
    }
    // The prefetch just asked the local cache for these very keys: what it lacked is a miss.
    const found = new Map<string, CachedOutcome>();
    for (const key of keys) {
      const outcome = ready.get(key);
      if (outcome) found.set(key, outcome);
    }
    return found;
  }

  putMany(entries: readonly { key: string; outcome: CachedOutcome }[]): void {
    this.local.putMany(entries);
    if (Date.now() >= this.unavailableUntil) this.uploader.add(entries);
  }

  /** What the last prefetch found. */
  lastPrefetch(): PrefetchFigures {
    return this.last;
  }

  /** Facts pulled since this store opened. */
  pulled(): number {
    return this.pulledTotal;
  }

  uploads(): UploadStats {
    return this.uploader.stats();
  }

  /** Waits until every fact queued for upload has been sent. */
  drainUploads(): Promise<void> {
    return this.uploader.drain();
  }

  /** The keys the runs so far looked up, sorted; later runs are not recorded. */
  takeKeys(): string[] {
    const keys = [...(this.seen ?? [])].sort();
    this.seen = undefined;
    return keys;
  }

  fileStates(): Map<string, KnownFileState> {
    return this.local.fileStates();
  }

  recordFileStates(changed: ReadonlyMap<string, KnownFileState>, removed: Iterable<string>): void {
    this.local.recordFileStates(changed, removed);
  }

  enforceQuota(): number {
    return this.local.enforceQuota();
  }

  stats(): ReturnType<FactCache['stats']> {
    return this.local.stats();
  }

  close(): void {
    this.local.close();
  }
}

function decoded(row: RawFact): CachedOutcome | undefined {
  const kind = OUTCOME_KINDS[row.kind];
  if (!kind) return undefined;
  try {
    return { kind, facts: decodeFacts(row.enc, row.value) };
  } catch {
    // A damaged shared row is a miss: the file is parsed.
    return undefined;
  }
}
