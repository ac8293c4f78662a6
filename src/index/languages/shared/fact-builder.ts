/**
 * The one way an extractor assembles a file's facts. Every language adds its symbols, imports and contracts
 * here, so that ids, field shapes and the order of the facts follow the same rules everywhere:
 *
 * - a symbol's id is its index in `FileFacts.symbols`, given in the order symbols are added (an extractor
 *   adds a parent before its children);
 * - imports keep the order they are added in;
 * - contracts are ordered by line, then by the evidence's source offset when the extractor knows it (a fact
 *   that knows only its line sits at the line's start), then in the order they were found;
 * - absent optional fields stay absent, never `undefined`, so that golden files and the fact cache see one
 *   shape; the remaining fields keep the order they were written in, which is the order they serialise in.
 */
import type { CallFact, ContractFact, FileFacts, ImportFact, LanguageId, SymbolFact } from '../../facts.js';
import type { Mutable } from './tree-utils.js';

/** A symbol as stored while its file is extracted: fields may be completed after it was added. */
export type MutableSymbol = Mutable<SymbolFact>;

/** A symbol before the builder gives it its id. */
export type SymbolDraft = Omit<MutableSymbol, 'id'>;

/** Where a contract's evidence is. */
export interface ContractPlace {
  /** The symbol whose declaration encloses the evidence (the innermost one); becomes the fact's `symbol`. */
  readonly owner?: number;
  /** Source offset of the evidence: in `a.newStub(c).call()` the construction comes before the call. */
  readonly at?: number;
}

/** What a file declares besides its symbols, imports and contracts; absent keys stay out of the facts. */
export interface FileExtras {
  readonly package?: string;
  readonly protoServices?: FileFacts['protoServices'];
  readonly sections?: FileFacts['sections'];
  readonly properties?: FileFacts['properties'];
  /** Call sites (shared/call-sites.ts `collectCalls`); an empty list stays out of the facts. */
  readonly calls?: readonly CallFact[];
}

/** The offset a contract without one sorts at: before every fact on its line that knows its offset. */
const LINE_START = -1;

interface PlacedContract {
  readonly fact: ContractFact;
  readonly at: number;
  readonly index: number;
}

export class FactBuilder {
  private readonly symbolList: MutableSymbol[] = [];
  private readonly importList: ImportFact[] = [];
  private readonly contractList: PlacedContract[] = [];

  constructor(readonly language: LanguageId) {}

  /** The symbols added so far, by id. */
  get symbols(): readonly MutableSymbol[] {
    return this.symbolList;
  }

  /** The imports added so far, in order. */
  get imports(): readonly ImportFact[] {
    return this.importList;
  }

  /** Adds a symbol and returns its id. */
  addSymbol(draft: SymbolDraft): number {
    const id = this.symbolList.length;
    this.symbolList.push(definedFields({ id, ...draft }));
    return id;
  }

  /** The symbol with this id, to complete it (body lines, parent, exported); undefined for an unknown id. */
  symbol(id: number): MutableSymbol | undefined {
    return this.symbolList[id];
  }

  addImport(fact: ImportFact): void {
    this.importList.push(definedFields(fact));
  }

  /** Adds a contract; `place.owner`, when given, is written as the fact's `symbol`. */
  addContract(fact: ContractFact, place: ContractPlace = {}): void {
    const owned = place.owner === undefined ? fact : { ...fact, symbol: place.owner };
    this.contractList.push({
      fact: definedFields(owned),
      at: place.at ?? LINE_START,
      index: this.contractList.length,
    });
  }

  /** The file's facts. */
  build(extras: FileExtras = {}): FileFacts {
    return {
      language: this.language,
      ...(extras.package === undefined ? {} : { package: extras.package }),
      symbols: this.symbolList,
      imports: this.importList,
      contracts: [...this.contractList].sort(contractOrder).map((entry) => entry.fact),
      ...(extras.calls === undefined || extras.calls.length === 0 ? {} : { calls: extras.calls }),
      ...(extras.protoServices === undefined ? {} : { protoServices: extras.protoServices }),
      ...(extras.sections === undefined ? {} : { sections: extras.sections }),
      ...(extras.properties === undefined ? {} : { properties: extras.properties }),
    };
  }
}

function contractOrder(a: PlacedContract, b: PlacedContract): number {
  return a.fact.line - b.fact.line || a.at - b.at || a.index - b.index;
}

/** Copies the defined fields only (deleting keys instead would push objects into slow dictionary mode). */
function definedFields<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

/**
 * The innermost symbol whose lines contain `line`: the smallest line span, the later one on a tie. This
 * attributes evidence that only knows its line (a custom pattern's match) to a declaration.
 */
export function innermostSymbolAt(symbols: readonly SymbolFact[], line: number): number | undefined {
  let best: SymbolFact | undefined;
  for (const symbol of symbols) {
    if (symbol.startLine > line || symbol.endLine < line) continue;
    const span = symbol.endLine - symbol.startLine;
    const bestSpan = best === undefined ? Infinity : best.endLine - best.startLine;
    if (best === undefined || span < bestSpan || (span === bestSpan && symbol.startLine >= best.startLine))
      best = symbol;
  }
  return best?.id;
}
