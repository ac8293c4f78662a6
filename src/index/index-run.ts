import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CrawledFile } from './crawl.js';
import { emptyFacts, type FileFacts, type LanguageId } from './facts.js';
import type { StringPool } from './string-pool.js';
import { checkContent, checkSize } from './guard.js';
import { languageOf, languageSpec } from './languages/registry.js';
import { mapYielding } from './map-yielding.js';
import type { ParseJob, ParseOutcome } from './parse/parser.js';
import { workByLanguage } from './parse/lanes.js';
import type { ParsePool } from './parse/pool.js';
import type { RejectedFile } from './reader.js';
import type { PhaseClock } from './run-phases.js';
import { compareFiles, fileKey, type IndexedFile } from './snapshot.js';

/** What the run needs from the fact cache (the store implements it; a disabled cache misses). */
export interface FactStore {
  getMany(keys: readonly string[]): Map<string, { kind: 'parsed' | 'no-grammar'; facts: FileFacts }>;
  putMany(
    entries: readonly { key: string; outcome: { kind: 'parsed' | 'no-grammar'; facts: FileFacts } }[],
  ): void;
  /**
   * Told every key the run is about to look up, before `getMany`: a store with a slower second level (facts
   * shared by other replicas) brings in what it can, so that the lookup itself stays synchronous.
   */
  prefetch?(keys: readonly string[]): Promise<void>;
}

/** A file as a previous run saw it. */
export interface KnownFileState {
  readonly size: number;
  readonly mtimeMs: number;
  readonly hash: string;
}

/** The persistent cache as the engine uses it; built by the composition root (the index may not import the store). */
export interface PersistentFactStore extends FactStore {
  fileStates(): Map<string, KnownFileState>;
  recordFileStates(changed: ReadonlyMap<string, KnownFileState>, removed: Iterable<string>): void;
  readonly path: string;
  readonly warning: string | undefined;
  enforceQuota(): number;
  stats(): { entries: number; bytes: number; hits: number; misses: number; evicted: number; errors: number };
  close(): void;
}

/** Cache key of one file's facts; the composition root supplies it with the store. */
export type FactKeyOf = (parts: {
  extractionVersion: string;
  root: string;
  relPath: string;
  contentHash: string;
  configFingerprint: string;
}) => string;

export interface RunInput {
  readonly files: readonly CrawledFile[];
  /** Files of the previous snapshot: unchanged size+mtime reuse their hash without reading; a file whose parse fails keeps its last good facts. */
  readonly previous: ReadonlyMap<string, IndexedFile>;
  /** What the persistent cache remembers of files the previous snapshot does not hold (a restart). */
  readonly known?: ReadonlyMap<string, KnownFileState>;
  readonly pool: ParsePool;
  readonly store: FactStore;
  readonly keyOf: (root: string, path: string, hash: string) => string;
  /**
   * Absolute paths reported changed (by the watcher, or named to a rescan): their content is hashed even when
   * size and mtime look unchanged, since a same-size edit within the file system's timestamp granularity
   * (1-2 s on some, a few ms on others) leaves both as they were.
   */
  readonly verify?: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number) => void;
  /** Keeps one copy of each short string of the facts the snapshot will hold. */
  readonly strings?: StringPool;
  /** Told how long each phase takes. */
  readonly clock?: PhaseClock;
}

export interface RunOutput {
  readonly indexed: IndexedFile[];
  readonly rejected: RejectedFile[];
  readonly parsed: number;
  readonly cacheHits: number;
  readonly cacheMisses: number;
  /** Files whose content differs from the previous snapshot (or are new). */
  readonly changed: number;
  /** Files read from disk (a file whose size and mtime are unchanged is not). */
  readonly read: number;
}

interface Pending {
  readonly file: CrawledFile;
  readonly language: LanguageId;
  readonly hash: string;
  readonly key: string;
  /** The content as read, until a parse job takes it or the cache turns out to hold the file's facts. */
  source?: string | undefined;
}

/** Below this many files to read, warming the workers up front gains nothing worth a thread start. */
const WARM_MIN_FILES = 64;
/** Parsed files written to the fact cache per transaction while parsing goes on. */
const STORE_BATCH = 256;

/**
 * One index run over a list of crawled files: guard, read, hash, look up the fact cache, parse the misses in
 * the pool, store what was parsed. Pure with respect to the snapshot: the caller installs the result.
 */
export async function runIndex(input: RunInput): Promise<RunOutput> {
  const tally = new RunTally(input);
  // What the walk could not use is rejected as it stands: there is nothing to read.
  for (const file of input.files) if (file.unusable) tally.reject(file, 'unusable_path', file.unusable);
  const { reused, candidates } = splitUnchanged(input);
  // A loop, not a spread: a rescan of 130,000 unchanged files or more would overflow the stack.
  for (const file of reused) tally.indexed.push(file);
  tally.tick(input.files.length - candidates.length);
  // Workers start and compile their grammars while the files are read (a cold start's first ~0.3 s), for the
  // files no earlier run saw as they are now: a restart whose files the cache holds starts no thread at all.
  const unseen = candidates.filter((file) => unchangedState(input, file) === undefined);
  if (unseen.length >= WARM_MIN_FILES && input.pool.warm) {
    input.pool.warm(
      workByLanguage(
        unseen.map((file) => ({ language: languageOf(file.path) as LanguageId, bytes: file.size })),
      ),
    );
  }
  const clock = input.clock;
  const readStarted = performance.now();
  const pending = (await mapYielding(candidates, (file) => readCandidate(input, tally, file))).filter(
    (p): p is Pending => p !== undefined,
  );
  clock?.add('readMs', performance.now() - readStarted);
  const lookupStarted = performance.now();
  await input.store.prefetch?.(pending.map((p) => p.key));
  const misses = takeCacheHits(input, tally, pending);
  clock?.add('cacheLookupMs', performance.now() - lookupStarted);
  const { jobs, owners } = timed(clock, 'readMs', () => parseJobs(tally, misses));
  clock?.parseTotals('before', input.pool.timings?.());
  const parseStarted = performance.now();
  await parseAndStore(input, tally, jobs, owners);
  clock?.add('parseWallMs', performance.now() - parseStarted);
  clock?.parseTotals('after', input.pool.timings?.());

  tally.indexed.sort(compareFiles);
  tally.rejected.sort(compareFiles);
  return {
    indexed: tally.indexed,
    rejected: tally.rejected,
    parsed: jobs.length,
    cacheHits: reused.length + pending.length - misses.length,
    cacheMisses: misses.length,
    changed: tally.changed,
    read: tally.reads,
  };
}

type CachedOutcome = { kind: 'parsed' | 'no-grammar'; facts: FileFacts };

function timed<T>(clock: PhaseClock | undefined, phase: Parameters<PhaseClock['add']>[0], work: () => T): T {
  return clock ? clock.time(phase, work) : work();
}

/** What one run gathers as its stages hand files on: the results, the counters and the progress. */
class RunTally {
  readonly indexed: IndexedFile[] = [];
  readonly rejected: RejectedFile[] = [];
  /** Files whose content differs from what the previous run saw (or are new). */
  changed = 0;
  reads = 0;
  done = 0;

  constructor(private readonly input: RunInput) {}

  tick(count = 1): void {
    this.progressTo(this.done + count);
  }

  progressTo(done: number): void {
    this.done = done;
    this.input.onProgress?.(done, this.input.files.length);
  }

  reject(file: CrawledFile, reason: RejectedFile['reason'], detail: string): void {
    this.rejected.push({ root: file.root, path: file.path, reason, size: file.size, detail });
  }

  /** A file with facts, counted as changed when its hash differs from the one the previous run saw. */
  record(p: Pending, outcome: CachedOutcome): void {
    const key = fileKey(p.file.root, p.file.path);
    const before = this.input.previous.get(key) ?? this.input.known?.get(key);
    if (!before || before.hash !== p.hash) this.changed++;
    this.indexed.push({
      root: p.file.root,
      path: p.file.path,
      absolutePath: p.file.absolutePath,
      language: p.language,
      size: p.file.size,
      mtimeMs: p.file.mtimeMs,
      hash: p.hash,
      outcome: outcome.kind,
      facts: this.input.strings ? this.input.strings.internDeep(outcome.facts) : outcome.facts,
    });
  }
}

/**
 * A file the previous snapshot holds with the same size and mtime keeps its facts as they are: no read, no
 * cache lookup. This is what keeps an incremental reload proportional to what changed. Files of no known
 * language are neither.
 */
function splitUnchanged(input: RunInput): { reused: IndexedFile[]; candidates: CrawledFile[] } {
  const reused: IndexedFile[] = [];
  const candidates = input.files.filter((file) => {
    if (file.unusable || languageOf(file.path) === undefined) return false;
    const before = input.previous.get(fileKey(file.root, file.path));
    if (before && looksUnchanged(input, before, file) && before.absolutePath === file.absolutePath) {
      reused.push(before);
      return false;
    }
    return true;
  });
  return { reused, candidates };
}

/** Same size and mtime as a previous run saw, and not reported changed: its hash still holds. */
function looksUnchanged(
  input: RunInput,
  before: { readonly size: number; readonly mtimeMs: number },
  file: CrawledFile,
): boolean {
  return (
    before.size === file.size && before.mtimeMs === file.mtimeMs && !input.verify?.has(file.absolutePath)
  );
}

/** What the previous snapshot or, after a restart, the fact cache saw of a file still the same size and mtime. */
function unchangedState(input: RunInput, file: CrawledFile): KnownFileState | undefined {
  const key = fileKey(file.root, file.path);
  const before = input.previous.get(key) ?? input.known?.get(key);
  return before && looksUnchanged(input, before, file) ? before : undefined;
}

/**
 * A candidate through the size guard, then, unless a previous run's hash still holds for its size and mtime,
 * read, through the content guard and hashed; undefined when a guard or the read rejects it.
 */
function readCandidate(input: RunInput, tally: RunTally, file: CrawledFile): Pending | undefined {
  if (input.signal?.aborted) throw input.signal.reason ?? new Error('aborted');
  const language = languageOf(file.path) as LanguageId;
  const sized = checkSize(file.path, file.size);
  if (!sized.ok) {
    tally.reject(file, sized.reason, sized.detail);
    tally.tick();
    return undefined;
  }
  const before = unchangedState(input, file);
  if (before)
    return { file, language, hash: before.hash, key: input.keyOf(file.root, file.path, before.hash) };
  let content: Buffer;
  try {
    content = readFileSync(file.absolutePath);
    tally.reads++;
  } catch (error) {
    tally.reject(file, 'unreadable', (error as NodeJS.ErrnoException).code ?? 'read failed');
    tally.tick();
    return undefined;
  }
  const spec = languageSpec(language);
  const verdict = checkContent(file.path, content, {
    hashComments: spec?.hashComments === true,
    checkNesting: spec?.prose !== true,
    checkLineLength: spec?.prose !== true,
  });
  if (!verdict.ok) {
    tally.reject(file, verdict.reason, verdict.detail);
    tally.tick();
    return undefined;
  }
  const hash = createHash('sha256').update(content).digest('hex');
  return {
    file,
    language,
    hash,
    key: input.keyOf(file.root, file.path, hash),
    source: content.toString('utf8'),
  };
}

/**
 * Records the files whose facts are known and returns the misses, in order. Known: the previous snapshot's
 * file read again with the same content (touched, or checked because it was reported changed), or a file
 * the fact cache holds.
 */
function takeCacheHits(input: RunInput, tally: RunTally, pending: readonly Pending[]): Pending[] {
  const cached = input.store.getMany(pending.map((p) => p.key));
  const misses: Pending[] = [];
  for (const p of pending) {
    const before = input.previous.get(fileKey(p.file.root, p.file.path));
    const same = before?.hash === p.hash && before.absolutePath === p.file.absolutePath;
    if (same && before.size === p.file.size && before.mtimeMs === p.file.mtimeMs) {
      // Checked and found as it was: the same object, so that a reload that changed nothing moves nothing.
      tally.indexed.push(before);
      tally.tick();
      continue;
    }
    const hit = same ? { kind: before.outcome, facts: before.facts } : cached.get(p.key);
    if (hit) {
      p.source = undefined;
      tally.record(p, hit);
      tally.tick();
    } else misses.push(p);
  }
  return misses;
}

/**
 * One parse job per miss, which takes the miss's source over; a miss whose hash came from the previous snapshot
 * was never read, so it is read now.
 */
function parseJobs(tally: RunTally, misses: readonly Pending[]): { jobs: ParseJob[]; owners: Pending[] } {
  const jobs: ParseJob[] = [];
  const owners: Pending[] = [];
  for (const p of misses) {
    let source = p.source;
    p.source = undefined;
    if (source === undefined) {
      try {
        source = readFileSync(p.file.absolutePath, 'utf8');
        tally.reads++;
      } catch (error) {
        tally.reject(p.file, 'unreadable', (error as NodeJS.ErrnoException).code ?? 'read failed');
        tally.tick();
        continue;
      }
    }
    jobs.push({ path: p.file.path, language: p.language, source });
    owners.push(p);
  }
  return { jobs, owners };
}

/**
 * Parses the jobs in the pool. Each file is recorded as its outcome arrives, and its source let go: a cold
 * index holds the sources and the not yet pooled facts of the files in flight, not of the whole workspace
 * (on the realistic 5k workspace the main thread's heap peaked at 157 MB instead of 183 MB). Parsed facts are
 * stored a few hundred per transaction while the workers parse the rest.
 */
async function parseAndStore(
  input: RunInput,
  tally: RunTally,
  jobs: ParseJob[],
  owners: readonly Pending[],
): Promise<void> {
  const base = tally.done;
  let toStore: { key: string; outcome: CachedOutcome }[] = [];
  const settled = new Uint8Array(jobs.length);
  const settle = (i: number, outcome: ParseOutcome) => {
    if (settled[i]) return;
    settled[i] = 1;
    const job = jobs[i] as ParseJob;
    // A final outcome: the pool reads a job's source again only to retry a failure, which comes before it.
    jobs[i] = { ...job, source: '' };
    const p = owners[i] as Pending;
    timed(input.clock, 'recordMs', () => recordOutcome(input, tally, outcome, p));
    if (outcome.kind !== 'failed') {
      toStore.push({
        key: p.key,
        outcome: { kind: outcome.kind, facts: outcome.facts ?? emptyFacts(p.language) },
      });
    }
  };
  const store = () => {
    timed(input.clock, 'cacheWriteMs', () => input.store.putMany(toStore));
    toStore = [];
  };
  const outcomes: ParseOutcome[] = await input.pool.parseAll(jobs, {
    ...(input.signal ? { signal: input.signal } : {}),
    onProgress: (parsedCount) => tally.progressTo(base + parsedCount),
    onOutcome: (i, outcome) => {
      settle(i, outcome);
      if (toStore.length >= STORE_BATCH) store();
    },
  });
  // Whatever a pool did not report one by one is recorded and stored now.
  outcomes.forEach((outcome, i) => settle(i, outcome));
  store();
}

/** Records a parsed file; a failing one is rejected and, on reload, keeps its last good facts. */
function recordOutcome(input: RunInput, tally: RunTally, outcome: ParseOutcome, p: Pending): void {
  if (outcome.kind === 'failed') {
    tally.reject(p.file, outcome.timedOut ? 'parse_timeout' : 'parse_failed', outcome.reason);
    // Still reported as failing, but the last good facts stay in the snapshot.
    const before = input.previous.get(fileKey(p.file.root, p.file.path));
    if (before) tally.indexed.push(before);
    return;
  }
  tally.record(p, { kind: outcome.kind, facts: outcome.facts ?? emptyFacts(p.language) });
}
