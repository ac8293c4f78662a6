/**
 * What `code grep` keeps per snapshot so that a search reads only the files that can match: a trigram
 * filter of each file's text (trigram-bloom.ts, a few hundred bytes per file), and what masking did to each
 * file it has read. Masking a file costs about 40 times reading it, and almost no file holds a secret, so a
 * file found unchanged by masking is remembered as such and read as it is next time; the few masked texts
 * are kept. Nothing else of the text stays in memory: the operating system's page cache holds it.
 *
 * The filters are built from the raw text. A match in the masked text either lies in text masking left alone
 * (so the raw text holds it too) or overlaps a `[REDACTED_SECRET]` marker, which is why a search drops the
 * literals that could overlap a marker before testing filters (see grep-search.ts).
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import type { Derivation, IndexedFile, SnapshotReader } from '../../index/reader.js';
import { maskedLinesOf } from '../../trust/secret-search.js';
import { buildFilter } from './trigram-bloom.js';

/** A file's masking: it changes nothing, or the masked text and how many values it masked. */
type Masking = true | { readonly text: string; readonly redactions: number };

export interface MaskedFileText {
  readonly text: string;
  readonly redactions: number;
}

export interface CorpusStats {
  readonly files: number;
  readonly filterBytes: number;
  readonly maskedFiles: number;
  readonly maskedBytes: number;
}

/** Reads a file with the size and modification time it has now, or undefined when it cannot be read. */
function readWithStat(file: IndexedFile): { text: string; size: number; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file.absolutePath, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.toString('utf8', 0, read), size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export class GrepCorpus {
  private readonly filters = new Map<IndexedFile, Uint32Array>();
  private readonly maskings = new Map<IndexedFile, Masking>();
  /** The filters in the order of a snapshot's file list, for the last list asked about. */
  private aligned: { files: readonly IndexedFile[]; filters: (Uint32Array | undefined)[] } | undefined;

  constructor(files: readonly IndexedFile[]) {
    for (const file of files) this.add(file);
  }

  patch(removed: readonly IndexedFile[], added: readonly IndexedFile[]): void {
    this.aligned = undefined;
    for (const file of removed) {
      this.filters.delete(file);
      this.maskings.delete(file);
    }
    for (const file of added) this.add(file);
  }

  private add(file: IndexedFile): void {
    let text: string;
    try {
      text = readFileSync(file.absolutePath, 'utf8');
    } catch {
      // Unreadable now: no filter, so every search reads it (and skips it if it still cannot).
      return;
    }
    this.filters.set(file, buildFilter(text));
  }

  /**
   * Each file's filter, by its position in `files` (a snapshot's list): a search walks the list and tests
   * filters without a lookup per file. Undefined for a file that could not be read (it must be read).
   */
  filtersOf(files: readonly IndexedFile[]): readonly (Uint32Array | undefined)[] {
    if (this.aligned?.files !== files)
      this.aligned = { files, filters: files.map((file) => this.filters.get(file)) };
    return this.aligned.filters;
  }

  /**
   * The file's text as a search may match and show it, secrets masked, or undefined when it cannot be read.
   * What masking did is remembered only for the content that was indexed (same size and modification time);
   * a file edited since is masked again on every read until the reload.
   */
  maskedText(file: IndexedFile): MaskedFileText | undefined {
    const current = readWithStat(file);
    if (!current) return undefined;
    const indexed = current.size === file.size && current.mtimeMs === file.mtimeMs;
    const known = indexed ? this.maskings.get(file) : undefined;
    if (known === true) return { text: current.text, redactions: 0 };
    if (known !== undefined) return known;
    const masked = maskedLinesOf(current.text);
    const result: MaskedFileText =
      masked.redactions === 0
        ? { text: current.text, redactions: 0 }
        : { text: masked.lines.join('\n'), redactions: masked.redactions };
    if (indexed) this.maskings.set(file, masked.redactions === 0 ? true : result);
    return result;
  }

  stats(): CorpusStats {
    let filterBytes = 0;
    let maskedFiles = 0;
    let maskedBytes = 0;
    for (const filter of this.filters.values()) filterBytes += filter.byteLength;
    for (const masking of this.maskings.values()) {
      if (masking === true) continue;
      maskedFiles++;
      maskedBytes += masking.text.length * 2;
    }
    return { files: this.filters.size, filterBytes, maskedFiles, maskedBytes };
  }
}

/** Built on the first grep of a snapshot; a reload patches it with the files that changed. */
const GREP_CORPUS: Derivation<GrepCorpus> = {
  build: (snapshot) => new GrepCorpus(snapshot.files),
  patch(corpus, removed, added) {
    corpus.patch(removed, added);
    return corpus;
  },
};

export const grepCorpusOf = (snapshot: SnapshotReader): GrepCorpus => snapshot.derived(GREP_CORPUS);
