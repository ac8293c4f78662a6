/**
 * Every declaration of a snapshot under one dense number (`DeclId`: the file's first number plus the symbol's
 * local id), and the lookups call resolution needs: declarations by name, a type's members, types by simple
 * name, each file's top-level names and each type's supertypes. Built once per call graph, in one pass.
 */
import type { SymbolFact, SymbolKind } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';

export type DeclId = number;

/** Declarations a call can land on: what is called, or constructed. */
const CALLABLE: ReadonlySet<SymbolKind> = new Set([
  'function',
  'method',
  'class',
  'struct',
  'const',
  'variable',
  'property',
  'field',
]);

/** Declarations that own methods and have supertypes. */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set([
  'class',
  'interface',
  'struct',
  'trait',
  'enum',
  'type',
  'impl',
  'module',
  'namespace',
]);

/** Last segment of a dotted, `::` or `\` qualified name: `pb.Client` → `Client`, `a::B` → `B`. */
export const simpleName = (name: string): string => {
  const parts = name.split(/::|[.\\/#]/);
  return parts[parts.length - 1] ?? name;
};

/**
 * A map from a name to its declarations. Most names have one declaration, so a lone id is kept as a number
 * and becomes a list only when a second one comes: an array per name cost about 100 bytes each, a third of
 * the call graph's memory on a workspace of 62,000 files.
 */
type IdsByKey = Map<string, DeclId | DeclId[]>;

const push = (map: IdsByKey, key: string, value: DeclId): void => {
  const known = map.get(key);
  if (known === undefined) map.set(key, value);
  else if (typeof known === 'number') map.set(key, [known, value]);
  else known.push(value);
};

const idsOf = (map: IdsByKey, key: string): readonly DeclId[] => {
  const known = map.get(key);
  return known === undefined ? [] : typeof known === 'number' ? [known] : known;
};

export class DeclarationTable {
  /** `starts[i]`: the first DeclId of `files[i]`; `starts[files.length]`: the total. */
  readonly starts: Int32Array;
  /** Callable declarations by name. */
  private readonly byName: IdsByKey = new Map();
  /** Methods and nested declarations by `owner simple name \0 name`. */
  private readonly members: IdsByKey = new Map();
  /** Type declarations by simple name. */
  private readonly types: IdsByKey = new Map();
  /** DeclId → index of its file in `files`, for the declarations the tables hold. */
  private readonly fileIndex = new Map<IndexedFile, number>();

  constructor(readonly files: readonly IndexedFile[]) {
    this.starts = new Int32Array(files.length + 1);
    let next = 0;
    files.forEach((file, index) => {
      this.starts[index] = next;
      this.fileIndex.set(file, index);
      next += file.facts.symbols.length;
    });
    this.starts[files.length] = next;
    files.forEach((file, index) => this.indexFile(file, index));
  }

  private indexFile(file: IndexedFile, index: number): void {
    const symbols = file.facts.symbols;
    const base = this.starts[index] as number;
    for (const symbol of symbols) {
      const id = base + symbol.id;
      if (CALLABLE.has(symbol.kind)) push(this.byName, symbol.name, id);
      if (TYPE_KINDS.has(symbol.kind)) push(this.types, symbol.name, id);
      const owner = ownerName(symbols, symbol);
      if (owner !== undefined) push(this.members, `${owner}\u0000${symbol.name}`, id);
    }
  }

  get size(): number {
    return this.starts[this.files.length] as number;
  }

  idOf(file: IndexedFile, symbol: number): DeclId | undefined {
    const index = this.fileIndex.get(file);
    return index === undefined ? undefined : (this.starts[index] as number) + symbol;
  }

  indexOfFile(file: IndexedFile): number | undefined {
    return this.fileIndex.get(file);
  }

  /** The file index holding a declaration (binary search over `starts`). */
  fileIndexOf(id: DeclId): number {
    let low = 0;
    let high = this.files.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] as number) <= id) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  fileOf(id: DeclId): IndexedFile {
    return this.files[this.fileIndexOf(id)] as IndexedFile;
  }

  symbolOf(id: DeclId): SymbolFact {
    const index = this.fileIndexOf(id);
    const file = this.files[index] as IndexedFile;
    return file.facts.symbols[id - (this.starts[index] as number)] as SymbolFact;
  }

  named(name: string): readonly DeclId[] {
    return idsOf(this.byName, name);
  }

  /**
   * Callable declarations named `name` in `files` (`holds` tells whether a file is one of them), in DeclId
   * order. Looked up by name or through the files' own symbols, whichever list is shorter: a name declared
   * thousands of times (`Shared`, `String`) must not be scanned for every call site naming one module.
   */
  namedIn(name: string, files: readonly IndexedFile[], holds: (file: IndexedFile) => boolean): DeclId[] {
    const named = this.named(name);
    if (named.length <= files.length) return named.filter((id) => holds(this.fileOf(id)));
    const found = new Set<DeclId>();
    for (const file of files) {
      const index = this.fileIndex.get(file);
      if (index === undefined) continue;
      const base = this.starts[index] as number;
      for (const symbol of file.facts.symbols)
        if (symbol.name === name && CALLABLE.has(symbol.kind)) found.add(base + symbol.id);
    }
    return [...found].sort((a, b) => a - b);
  }

  membersOf(owner: string, name: string): readonly DeclId[] {
    return idsOf(this.members, `${owner}\u0000${name}`);
  }

  typesNamed(name: string): readonly DeclId[] {
    return idsOf(this.types, name);
  }

  /** The owning type's simple name of a member declaration, if it has one. */
  ownerOf(id: DeclId): string | undefined {
    return ownerName(this.fileOf(id).facts.symbols, this.symbolOf(id));
  }

  /** The same, for a symbol addressed by its file and local id. */
  ownerOfSymbol(file: IndexedFile, symbol: number): string | undefined {
    const fact = file.facts.symbols[symbol];
    return fact === undefined ? undefined : ownerName(file.facts.symbols, fact);
  }

  /** A member whose parent is a value (`const api = { get() {…} }`), not a type. */
  ownedByValue(id: DeclId): boolean {
    const symbols = this.fileOf(id).facts.symbols;
    const parent = this.symbolOf(id).parent;
    const kind = parent === undefined ? undefined : symbols[parent]?.kind;
    return kind === 'const' || kind === 'variable';
  }

  /** The enclosing type declaration of a symbol (its nearest type ancestor), if any. */
  enclosingType(file: IndexedFile, symbol: number): DeclId | undefined {
    const symbols = file.facts.symbols;
    for (let s = symbols[symbol]?.parent; s !== undefined; s = symbols[s]?.parent) {
      const parent = symbols[s];
      if (parent && TYPE_KINDS.has(parent.kind)) return this.idOf(file, s);
    }
    return undefined;
  }
}

/**
 * The simple name of the type a declaration belongs to: its parent's name when it has one, else the segment
 * before its own name in the qualified name (a Go method in another file than its struct: `Server.Get`).
 */
function ownerName(symbols: readonly SymbolFact[], symbol: SymbolFact): string | undefined {
  if (symbol.parent !== undefined) {
    const parent = symbols[symbol.parent];
    if (parent && TYPE_KINDS.has(parent.kind)) return parent.name;
  }
  if (symbol.kind !== 'method') return undefined;
  const parts = symbol.qualifiedName.split(/::|[.#]/);
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}
