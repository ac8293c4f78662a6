import type { Derivation, IndexedFile, SnapshotReader, SymbolKind } from '../../index/reader.js';
import { TrigramTable } from './trigrams.js';

/** Kinds that are contracts come first among equally good matches, then interfaces, then the rest. */
const KIND_PRIORITY: Partial<Record<SymbolKind, number>> = {
  grpc_service: 0,
  grpc_method: 0,
  http_endpoint: 0,
  proto_message: 1,
  proto_enum: 1,
  interface: 1,
  topic: 2,
  saga: 2,
  trait: 2,
  class: 3,
  struct: 3,
  enum: 3,
};
export const kindPriority = (kind: SymbolKind): number => KIND_PRIORITY[kind] ?? 4;

/** One declaration: its file and its index among the file's symbols. */
export interface SymbolRef {
  readonly file: IndexedFile;
  readonly symbol: number;
}

export type MatchTier = 0 | 1 | 2; // exact, prefix, substring

/** Doc headings belong to docs search; every declaration, a Ruby or TS `module` included, is searchable. */
const searchable = (kind: SymbolKind): boolean => kind !== 'heading';

/**
 * Declared names of a snapshot, lower-cased and de-duplicated. A query of three characters or more checks
 * only the names holding its rarest three-character sequence (`TrigramTable`: 20× faster than scanning on a
 * realistic workspace); a shorter one scans all names laid out in one string, a handful of native `indexOf`
 * calls. An incremental reload patches it with the files that changed instead of rebuilding it.
 */
export class SymbolIndex {
  private readonly names: string[] = [];
  private readonly postings: SymbolRef[][] = [];
  private readonly slotOf = new Map<string, number>();
  /** Names whose postings emptied; compacted away once they are a large share. */
  private emptySlots = 0;
  private haystack = '';
  private starts = new Int32Array(0);
  private laidOut = false;
  /** Built on the first query of three or more characters; names added later are appended to it. */
  private trigrams: TrigramTable | undefined;

  constructor(files: readonly IndexedFile[]) {
    for (const file of files) this.add(file);
  }

  /** Takes the files that left and came since this index was built or last patched. */
  patch(removed: readonly IndexedFile[], added: readonly IndexedFile[]): void {
    for (const file of removed) this.remove(file);
    for (const file of added) this.add(file);
    if (this.emptySlots > 1024 && this.emptySlots * 4 > this.names.length) this.compact();
  }

  private add(file: IndexedFile): void {
    file.facts.symbols.forEach((symbol, index) => {
      if (!searchable(symbol.kind)) return;
      const key = symbol.name.toLowerCase();
      const slot = this.slotOf.get(key);
      if (slot === undefined) {
        this.trigrams?.append(this.names.length, key);
        this.slotOf.set(key, this.names.length);
        this.names.push(key);
        this.postings.push([{ file, symbol: index }]);
        this.laidOut = false;
        return;
      }
      const refs = this.postings[slot] as SymbolRef[];
      if (refs.length === 0) this.emptySlots--;
      refs.push({ file, symbol: index });
    });
  }

  private remove(file: IndexedFile): void {
    const seen = new Set<number>();
    for (const symbol of file.facts.symbols) {
      if (!searchable(symbol.kind)) continue;
      const slot = this.slotOf.get(symbol.name.toLowerCase());
      if (slot === undefined || seen.has(slot)) continue;
      seen.add(slot);
      const refs = this.postings[slot] as SymbolRef[];
      const kept = refs.filter((ref) => ref.file !== file);
      this.postings[slot] = kept;
      if (kept.length === 0 && refs.length > 0) this.emptySlots++;
    }
  }

  /** Drops names nobody declares any more (they still cost haystack scans). */
  private compact(): void {
    const names = [...this.names];
    const postings = [...this.postings];
    this.names.length = 0;
    this.postings.length = 0;
    this.slotOf.clear();
    names.forEach((name, i) => {
      const refs = postings[i] as SymbolRef[];
      if (refs.length === 0) return;
      this.slotOf.set(name, this.names.length);
      this.names.push(name);
      this.postings.push(refs);
    });
    this.emptySlots = 0;
    this.laidOut = false;
    this.trigrams = undefined;
  }

  private layOut(): void {
    this.starts = new Int32Array(this.names.length);
    let offset = 0;
    this.names.forEach((name, i) => {
      this.starts[i] = offset;
      offset += name.length + 1;
    });
    // Names never contain a newline, so it separates them and a match can never span two names.
    this.haystack = this.names.join('\n');
    this.laidOut = true;
  }

  /** Every declaration named exactly `name` (case-sensitive), in the order files were added. */
  named(name: string): readonly SymbolRef[] {
    const slot = this.slotOf.get(name.toLowerCase());
    if (slot === undefined) return [];
    return (this.postings[slot] ?? []).filter((ref) => ref.file.facts.symbols[ref.symbol]?.name === name);
  }

  /** Every declaration whose name contains `query` (case-insensitive), with how well it matches. */
  find(query: string): { ref: SymbolRef; tier: MatchTier }[] {
    const needle = query.toLowerCase();
    if (needle.length === 0 || needle.includes('\n')) return [];
    if (needle.length >= 3) return this.findByTrigrams(needle);
    if (!this.laidOut) this.layOut();
    const hits: { ref: SymbolRef; tier: MatchTier }[] = [];
    let lastName = -1;
    let at = this.haystack.indexOf(needle);
    while (at !== -1) {
      const nameIndex = this.nameAt(at);
      if (nameIndex !== lastName) {
        lastName = nameIndex;
        const start = this.starts[nameIndex] ?? 0;
        const name = this.names[nameIndex] ?? '';
        const tier: MatchTier = name === needle ? 0 : at === start ? 1 : 2;
        for (const ref of this.postings[nameIndex] ?? []) hits.push({ ref, tier });
        // Continue after this name: later occurrences inside it add nothing.
        at = this.haystack.indexOf(needle, start + name.length + 1);
      } else {
        at = this.haystack.indexOf(needle, at + 1);
      }
    }
    return hits;
  }

  /** The same answer as the scan, from the names that hold the query's rarest three-character sequence. */
  private findByTrigrams(needle: string): { ref: SymbolRef; tier: MatchTier }[] {
    if (!this.trigrams || this.trigrams.appended > Math.max(1024, this.names.length / 8))
      this.trigrams = new TrigramTable(this.names);
    const hits: { ref: SymbolRef; tier: MatchTier }[] = [];
    for (const slot of this.trigrams.candidates(needle)) {
      const refs = this.postings[slot];
      if (!refs || refs.length === 0) continue;
      const name = this.names[slot] ?? '';
      const at = name.indexOf(needle);
      if (at === -1) continue;
      const tier: MatchTier = name === needle ? 0 : at === 0 ? 1 : 2;
      for (const ref of refs) hits.push({ ref, tier });
    }
    return hits;
  }

  private nameAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

/**
 * Built once per snapshot, on first use. A snapshot patched from the previous one takes over that one's
 * index and patches it with the files that changed, so the edit → search loop never pays a full build.
 */
const SYMBOL_INDEX: Derivation<SymbolIndex> = {
  build: (snapshot) => new SymbolIndex(snapshot.files),
  patch(index, removed, added) {
    index.patch(removed, added);
    return index;
  },
};

export const symbolIndexOf = (snapshot: SnapshotReader): SymbolIndex => snapshot.derived(SYMBOL_INDEX);
