/**
 * Declarations a change touches in one file: those whose lines a hunk covers (changed), and those present on
 * one side only (added, removed), comparing the base version's facts with the indexed working-tree file.
 * Only code declarations count: fields, enum members, headings and schema elements are covered by the
 * declaration holding them or by the contract comparison.
 */
import type { IndexedFile, SymbolFact, SymbolKind } from '../../../index/reader.js';
import { touches, type ChangedRange } from './unified-diff.js';

export type DeclarationChangeKind = 'changed' | 'added' | 'removed';

export interface DeclarationChange {
  readonly change: DeclarationChangeKind;
  readonly name: string;
  /** The short name, as call sites spell it. */
  readonly shortName: string;
  readonly kind: SymbolKind;
  /** In the working tree; in the base version for a removed declaration. */
  readonly line: number;
  /** The indexed declaration (absent for a removed one). */
  readonly symbol?: number;
}

const CODE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  'function',
  'method',
  'class',
  'interface',
  'struct',
  'enum',
  'type',
  'const',
  'variable',
  'module',
  'namespace',
  'trait',
  'impl',
]);

/** `kind qualifiedName #n`: overloads and redeclarations are told apart by their order in the file. */
function keyed(symbols: readonly SymbolFact[]): Map<string, SymbolFact> {
  const seen = new Map<string, number>();
  const out = new Map<string, SymbolFact>();
  for (const symbol of symbols) {
    if (!CODE_KINDS.has(symbol.kind)) continue;
    const base = `${symbol.kind} ${symbol.qualifiedName}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(`${base} #${n}`, symbol);
  }
  return out;
}

/** Declarations a range touches, without those holding another touched one (a class around its method). */
function innermostTouched(symbols: readonly SymbolFact[], range: ChangedRange): SymbolFact[] {
  const hit = symbols.filter((s) => CODE_KINDS.has(s.kind) && touches(range, s.startLine, s.endLine));
  const holders = new Set<number>();
  for (const symbol of hit) {
    for (let p = symbol.parent; p !== undefined; p = symbols[p]?.parent) holders.add(p);
  }
  return hit.filter((s) => !holders.has(s.id));
}

/**
 * The declaration changes of one file. `base` is undefined for a new file; `current` undefined for a file
 * deleted (or not indexed) in the working tree.
 */
export function declarationChanges(
  base: readonly SymbolFact[] | undefined,
  current: IndexedFile | undefined,
  ranges: readonly ChangedRange[],
): DeclarationChange[] {
  const before = keyed(base ?? []);
  const nowSymbols = current?.facts.symbols ?? [];
  const now = keyed(nowSymbols);
  const changes: DeclarationChange[] = [];
  const of = (change: DeclarationChangeKind, s: SymbolFact, symbol?: number): DeclarationChange => ({
    change,
    name: s.qualifiedName,
    shortName: s.name,
    kind: s.kind,
    line: s.startLine,
    ...(symbol === undefined ? {} : { symbol }),
  });
  for (const [key, symbol] of before) if (!now.has(key)) changes.push(of('removed', symbol));
  const touched = new Set<number>();
  for (const range of ranges) for (const s of innermostTouched(nowSymbols, range)) touched.add(s.id);
  for (const [key, symbol] of now) {
    if (base !== undefined && !before.has(key)) changes.push(of('added', symbol, symbol.id));
    else if (base === undefined) changes.push(of('added', symbol, symbol.id));
    else if (touched.has(symbol.id)) changes.push(of('changed', symbol, symbol.id));
  }
  const order = { removed: 0, changed: 1, added: 2 } as const;
  return changes.sort(
    (a, b) => a.line - b.line || order[a.change] - order[b.change] || (a.name < b.name ? -1 : 1),
  );
}
