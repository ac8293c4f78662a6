import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CrawledFile } from './crawl.js';
import { emptyFacts, type FileFacts, type LanguageId } from './facts.js';
import { checkContent, checkSize } from './guard.js';
import { languageOf, languageSpec } from './languages/registry.js';
import type { ParseJob, ParseOutcome } from './parse/parser.js';
import type { ParsePool } from './parse/pool.js';
import type { RejectedFile } from './reader.js';
import { compareFiles, fileKey, type IndexedFile } from './snapshot.js';

/** What the run needs from the fact cache (the store implements it; a disabled cache misses). */
export interface FactStore {
  getMany(keys: readonly string[]): Map<string, { kind: 'parsed' | 'no-grammar'; facts: FileFacts }>;
  putMany(
    entries: readonly { key: string; outcome: { kind: 'parsed' | 'no-grammar'; facts: FileFacts } }[],
  ): void;
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
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number) => void;
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
  readonly source?: string;
}

/**
 * Files are read synchronously, giving the event loop a turn this often: one `readFileSync` of a source file
 * costs a few tens of microseconds, while `fs.promises.readFile` takes four thread-pool round trips (open,
 * stat, read, close) and cost a cold index of 6,000 small files ~0.4 s of main-thread time.
 */
const READ_YIELD_MS = 10;
/** Below this many files to read, warming the workers up front gains nothing worth a thread start. */
const WARM_MIN_FILES = 64;
/** Parsed files written to the fact cache per transaction while parsing goes on. */
const STORE_BATCH = 256;

/** Maps `items` in order, yielding to the event loop every `READ_YIELD_MS` so that a server stays responsive. */
async function mapYielding<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  const results = new Array<R>(items.length);
  let since = performance.now();
  for (let index = 0; index < items.length; index++) {
    results[index] = fn(items[index] as T);
    if (performance.now() - since >= READ_YIELD_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return results;
}

/**
 * One index run over a list of crawled files: guard, read, hash, look up the fact cache, parse the misses in
 * the pool, store what was parsed. Pure with respect to the snapshot: the caller installs the result.
 */
export async function runIndex(input: RunInput): Promise<RunOutput> {
  const rejected: RejectedFile[] = [];
  const reject = (file: CrawledFile, reason: RejectedFile['reason'], detail: string) =>
    rejected.push({ root: file.root, path: file.path, reason, size: file.size, detail });
  const total = input.files.length;
  let done = 0;
  let reads = 0;
  const tick = (count = 1) => {
    done += count;
    input.onProgress?.(done, total);
  };

  // A file the previous snapshot holds with the same size and mtime keeps its facts as they are: no read,
  // no cache lookup. This is what keeps an incremental reload proportional to what changed.
  const reused: IndexedFile[] = [];
  const candidates = input.files.filter((file) => {
    if (languageOf(file.path) === undefined) return false;
    const before = input.previous.get(fileKey(file.root, file.path));
    if (
      before &&
      before.size === file.size &&
      before.mtimeMs === file.mtimeMs &&
      before.absolutePath === file.absolutePath
    ) {
      reused.push(before);
      return false;
    }
    return true;
  });
  tick(total - candidates.length);
  // Workers start and compile their grammars while the files are read (a cold start's first ~0.3 s).
  if (candidates.length >= WARM_MIN_FILES && input.pool.warm) {
    input.pool.warm([...new Set(candidates.map((file) => languageOf(file.path) as LanguageId))].sort());
  }
  const pending = (
    await mapYielding(candidates, (file): Pending | undefined => {
      if (input.signal?.aborted) throw input.signal.reason ?? new Error('aborted');
      const language = languageOf(file.path) as LanguageId;
      const sized = checkSize(file.path, file.size);
      if (!sized.ok) {
        reject(file, sized.reason, sized.detail);
        tick();
        return undefined;
      }
      const key = fileKey(file.root, file.path);
      const before = input.previous.get(key) ?? input.known?.get(key);
      if (before && before.size === file.size && before.mtimeMs === file.mtimeMs) {
        return { file, language, hash: before.hash, key: input.keyOf(file.root, file.path, before.hash) };
      }
      let content: Buffer;
      try {
        content = readFileSync(file.absolutePath);
        reads++;
      } catch (error) {
        reject(file, 'unreadable', (error as NodeJS.ErrnoException).code ?? 'read failed');
        tick();
        return undefined;
      }
      const spec = languageSpec(language);
      const verdict = checkContent(file.path, content, {
        hashComments: spec?.hashComments === true,
        checkNesting: spec?.prose !== true,
        checkLineLength: spec?.prose !== true,
      });
      if (!verdict.ok) {
        reject(file, verdict.reason, verdict.detail);
        tick();
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
    })
  ).filter((p): p is Pending => p !== undefined);

  const cached = input.store.getMany(pending.map((p) => p.key));
  const indexed: IndexedFile[] = [...reused];
  const misses: Pending[] = [];
  let changed = 0;
  const record = (p: Pending, outcome: { kind: 'parsed' | 'no-grammar'; facts: FileFacts }) => {
    const key = fileKey(p.file.root, p.file.path);
    const before = input.previous.get(key) ?? input.known?.get(key);
    if (!before || before.hash !== p.hash) changed++;
    indexed.push({
      root: p.file.root,
      path: p.file.path,
      absolutePath: p.file.absolutePath,
      language: p.language,
      size: p.file.size,
      mtimeMs: p.file.mtimeMs,
      hash: p.hash,
      outcome: outcome.kind,
      facts: outcome.facts,
    });
  };
  for (const p of pending) {
    const hit = cached.get(p.key);
    if (hit) {
      record(p, hit);
      tick();
    } else misses.push(p);
  }

  // A miss whose hash came from the previous snapshot was never read: read it now.
  const jobs: ParseJob[] = [];
  const jobOwners: Pending[] = [];
  for (const p of misses) {
    let source = p.source;
    if (source === undefined) {
      try {
        source = readFileSync(p.file.absolutePath, 'utf8');
        reads++;
      } catch (error) {
        reject(p.file, 'unreadable', (error as NodeJS.ErrnoException).code ?? 'read failed');
        tick();
        continue;
      }
    }
    jobs.push({ path: p.file.path, language: p.language, source });
    jobOwners.push(p);
  }
  const base = done;
  // Parsed facts are stored as they arrive, a few hundred per transaction: the main thread encodes and
  // writes while the workers parse, instead of doing it all after the last file.
  let toStore: { key: string; outcome: { kind: 'parsed' | 'no-grammar'; facts: FileFacts } }[] = [];
  const queued = new Uint8Array(jobs.length);
  const queue = (i: number, outcome: ParseOutcome) => {
    if (outcome.kind === 'failed' || queued[i]) return;
    queued[i] = 1;
    const p = jobOwners[i] as Pending;
    const facts = outcome.facts ?? emptyFacts(p.language);
    toStore.push({ key: p.key, outcome: { kind: outcome.kind, facts } });
  };
  const store = () => {
    input.store.putMany(toStore);
    toStore = [];
  };
  const outcomes: ParseOutcome[] = await input.pool.parseAll(jobs, {
    ...(input.signal ? { signal: input.signal } : {}),
    onProgress: (parsedCount) => {
      done = base + parsedCount;
      input.onProgress?.(done, total);
    },
    onOutcome: (i, outcome) => {
      queue(i, outcome);
      if (toStore.length >= STORE_BATCH) store();
    },
  });
  // Whatever a pool did not report one by one is stored now.
  outcomes.forEach((outcome, i) => queue(i, outcome));
  store();
  outcomes.forEach((outcome, i) => {
    const p = jobOwners[i] as Pending;
    if (outcome.kind === 'failed') {
      reject(p.file, outcome.timedOut ? 'parse_timeout' : 'parse_failed', outcome.reason);
      // On reload a failing file keeps its last good facts (still reported as failing).
      const before = input.previous.get(fileKey(p.file.root, p.file.path));
      if (before) indexed.push(before);
      return;
    }
    record(p, { kind: outcome.kind, facts: outcome.facts ?? emptyFacts(p.language) });
  });

  indexed.sort(compareFiles);
  rejected.sort(compareFiles);
  return {
    indexed,
    rejected,
    parsed: jobs.length,
    cacheHits: reused.length + pending.length - misses.length,
    cacheMisses: misses.length,
    changed,
    read: reads,
  };
}
