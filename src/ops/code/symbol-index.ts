import type { SymbolKind } from '../../index/facts.js';
import type { IndexedFile, Snapshot } from '../../index/snapshot.js';

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

/** One declaration, addressed by its file's index in the snapshot and its local id. */
export interface SymbolRef {
  readonly file: number;
  readonly symbol: number;
}

export type MatchTier = 0 | 1 | 2; // exact, prefix, substring

/**
 * Declared names of a snapshot, lower-cased and de-duplicated, laid out in one string so that a
 * case-insensitive substring query is a handful of native `indexOf` calls instead of a loop over every name.
 */
export class SymbolIndex {
  private readonly haystack: string;
  private readonly starts: Int32Array;
  private readonly postings: SymbolRef[][];
  private readonly names: string[];

  constructor(files: readonly IndexedFile[]) {
    const byName = new Map<string, SymbolRef[]>();
    files.forEach((file, fileIndex) => {
      file.facts.symbols.forEach((symbol, symbolIndex) => {
        // Doc headings belong to docs search; every declaration, a Ruby or TS `module` included, is searchable.
        if (symbol.kind === 'heading') return;
        const key = symbol.name.toLowerCase();
        const refs = byName.get(key) ?? byName.set(key, []).get(key);
        refs?.push({ file: fileIndex, symbol: symbolIndex });
      });
    });
    this.names = [...byName.keys()];
    this.postings = this.names.map((name) => byName.get(name) as SymbolRef[]);
    this.starts = new Int32Array(this.names.length);
    let offset = 0;
    this.names.forEach((name, i) => {
      this.starts[i] = offset;
      offset += name.length + 1;
    });
    // Names never contain a newline, so it separates them and a match can never span two names.
    this.haystack = this.names.join('\n');
  }

  /** Every declaration whose name contains `query` (case-insensitive), with how well it matches. */
  find(query: string): { ref: SymbolRef; tier: MatchTier }[] {
    const needle = query.toLowerCase();
    if (needle.length === 0 || needle.includes('\n')) return [];
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

const indexes = new WeakMap<Snapshot, SymbolIndex>();

/** Built once per snapshot, on first use. */
export function symbolIndexOf(snapshot: Snapshot): SymbolIndex {
  let index = indexes.get(snapshot);
  if (!index) {
    index = new SymbolIndex(snapshot.files);
    indexes.set(snapshot, index);
  }
  return index;
}
