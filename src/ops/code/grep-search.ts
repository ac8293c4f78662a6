/**
 * One `code grep` search over a snapshot: the files in scope, narrowed by the trigram filters to those that
 * may hold the expression's required literals, read (masked) and matched line by line, in snapshot order.
 * The scan stops early once it has counted `countAtLeast` matching lines and listed one line beyond the page
 * asked for: a pattern that matches everywhere answers its first pages without reading every file, and says
 * its totals are lower bounds.
 */
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import { couldOverlapMarker } from '../../trust/secret-search.js';
import { displayOf } from '../shared/workspace-paths.js';
import { grepCorpusOf } from './grep-corpus.js';
import { matchingLines, type LineHit } from './grep-lines.js';
import { withoutLiterals, type LiteralQuery } from './regex-literals.js';
import { literalProbe, mayHoldAll } from './trigram-bloom.js';

/** Files between two looks at the cancellation signal. */
const CANCEL_CHECK_EVERY = 256;

export interface GrepRequest {
  readonly snapshot: SnapshotReader;
  /** Compiled with the `g` and `m` flags. */
  readonly regex: RegExp;
  readonly literals: LiteralQuery;
  readonly inScope: (file: IndexedFile) => boolean;
  readonly maxPerFile: number;
  /** Matching lines to count before the scan may stop early. */
  readonly countAtLeast: number;
  /** Listed lines (at most `maxPerFile` per file) the page needs: one beyond it tells there are more. */
  readonly listAtLeast: number;
  readonly signal: AbortSignal;
}

export interface FileMatches {
  readonly file: IndexedFile;
  readonly path: string;
  /** The first `maxPerFile` matching lines. */
  readonly hits: readonly LineHit[];
  /** All matching lines of the file (up to what the total cap left). */
  readonly count: number;
}

export interface GrepOutcome {
  readonly files: readonly FileMatches[];
  readonly totalLines: number;
  /** The scan stopped before reading every candidate (or was cancelled): totals are lower bounds. */
  readonly partial: boolean;
  readonly inScope: number;
  /** Files the trigram filters let through, which were read. */
  readonly read: number;
}

/** A test of a file's trigram filter from a literal tree: whether the file may hold what the tree requires. */
function candidateTest(query: LiteralQuery): (filter: Uint32Array) => boolean {
  switch (query.kind) {
    case 'any':
      return () => true;
    case 'literal': {
      const probe = literalProbe(query.text);
      return (filter) => mayHoldAll(filter, probe);
    }
    case 'and': {
      const parts = query.parts.map(candidateTest);
      return (filter) => parts.every((test) => test(filter));
    }
    case 'or': {
      const parts = query.parts.map(candidateTest);
      return (filter) => parts.some((test) => test(filter));
    }
  }
}

export function runGrep(request: GrepRequest): GrepOutcome {
  const { snapshot, regex } = request;
  const corpus = grepCorpusOf(snapshot);
  // A literal that could overlap a masked value's marker may be in the masked text and not in the raw text
  // the filters were built from: it cannot rule a file out.
  const test = candidateTest(withoutLiterals(request.literals, couldOverlapMarker));
  const filters = corpus.filtersOf(snapshot.files);
  // A file without a filter (unreadable when the filters were built) is always read.
  const mayMatch = (index: number): boolean => {
    const filter = filters[index];
    return filter === undefined || test(filter);
  };
  const files: FileMatches[] = [];
  let totalLines = 0;
  let listedLines = 0;
  let inScope = 0;
  let read = 0;
  let stopped = false;
  /** Candidates left unread once the scan stopped: only then are the totals lower bounds. */
  let skipped = false;
  let countCut = false;
  const all = snapshot.files;
  for (let index = 0; index < all.length; index++) {
    const file = all[index] as IndexedFile;
    if (!request.inScope(file)) continue;
    inScope++;
    // Checked now and then: reading the signal costs more than testing a filter.
    if (index % CANCEL_CHECK_EVERY === 0 && request.signal.aborted) stopped = true;
    if (stopped) {
      skipped ||= mayMatch(index);
      continue;
    }
    if (!mayMatch(index)) continue;
    const text = corpus.maskedText(file);
    if (!text) continue;
    read++;
    // One file is counted up to what is still to count (at least what it may list): a file holding a
    // match on every line does not make the count read all of it.
    const stopAt = Math.max(request.countAtLeast - totalLines, request.maxPerFile);
    const found = matchingLines(text.text, regex, request.maxPerFile, stopAt);
    if (found.count === 0) continue;
    files.push({ file, path: displayOf(snapshot, file), hits: found.lines, count: found.count });
    totalLines += found.count;
    listedLines += found.lines.length;
    // A file counted up to its stop may hold more: the totals become lower bounds, the scan goes on.
    if (found.count >= stopAt) countCut = true;
    if (totalLines >= request.countAtLeast && listedLines >= request.listAtLeast) stopped = true;
  }
  return { files, totalLines, partial: skipped || countCut, inScope, read };
}
