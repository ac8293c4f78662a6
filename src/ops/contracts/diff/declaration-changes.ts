/**
 * Declarations a change touches in one file, compared as `git diff_outline` compares them (kind and
 * qualified name pair the versions, a body edited beyond whitespace is a change): added, removed, changed.
 * Only code declarations count: fields, enum members, headings and schema elements are covered by the
 * declaration holding them or by the contract comparison; and a type is left out when a member of it
 * changed, so the member's callers are walked rather than every user of the type.
 */
import type { IndexedFile, SymbolFact, SymbolKind } from '../../../index/reader.js';
import { compare } from '../../git/diff-outline.js';
import { versionedDeclarations, type VersionedDeclaration } from '../../git/declaration-versions.js';
import { touches, type ChangedRange } from './unified-diff.js';

export type DeclarationChangeKind = 'changed' | 'added' | 'removed';

export interface DeclarationChange {
  readonly change: DeclarationChangeKind;
  readonly name: string;
  /** The short name, as call sites spell it. */
  readonly shortName: string;
  readonly kind: string;
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

const codeOnly = (symbols: readonly SymbolFact[]) => symbols.filter((s) => CODE_KINDS.has(s.kind));

/** One side of the comparison: a version's text and the declarations extracted from it. */
export interface DeclarationSide {
  readonly text: string;
  readonly symbols: readonly SymbolFact[];
}

/** Changed declarations without those holding another changed one (a class around its method). */
function innermost(symbols: readonly SymbolFact[], changed: readonly SymbolFact[]): SymbolFact[] {
  const holders = new Set<number>();
  for (const symbol of changed)
    for (let p = symbol.parent; p !== undefined; p = symbols[p]?.parent) holders.add(p);
  return changed.filter((s) => !holders.has(s.id));
}

const change = (
  kind: DeclarationChangeKind,
  d: VersionedDeclaration,
  symbol?: number,
): DeclarationChange => ({
  change: kind,
  name: d.qualifiedName,
  shortName: d.name,
  kind: d.kind,
  line: d.startLine,
  ...(symbol === undefined ? {} : { symbol }),
});

const order = { removed: 0, changed: 1, added: 2 } as const;
const sorted = (changes: DeclarationChange[]): DeclarationChange[] =>
  changes.sort((a, b) => a.line - b.line || order[a.change] - order[b.change] || (a.name < b.name ? -1 : 1));

/**
 * The declaration changes of one file. `base` is undefined for a new file; `current` undefined for a file
 * deleted (or not indexed) in the working tree, whose text is then empty.
 */
export function declarationChanges(
  base: DeclarationSide | undefined,
  current: { readonly text: string; readonly file: IndexedFile } | undefined,
): DeclarationChange[] {
  const nowSymbols = current?.file.facts.symbols ?? [];
  const old = base ? versionedDeclarations(base.text, codeOnly(base.symbols)) : [];
  const now = current ? versionedDeclarations(current.text, codeOnly(nowSymbols)) : [];
  const { added, removed, changed } = compare(old, now);
  // Versioned declarations are the symbols in order, so the n-th code symbol is the n-th declaration.
  const code = codeOnly(nowSymbols);
  const symbolOf = (d: VersionedDeclaration) => code[now.indexOf(d)];
  const changedSymbols = innermost(
    nowSymbols,
    changed.flatMap((c) => symbolOf(c.now) ?? []),
  );
  const kept = new Set(changedSymbols.map((s) => s.id));
  return sorted([
    ...removed.map((d) => change('removed', d)),
    ...changed.flatMap((c) => {
      const symbol = symbolOf(c.now);
      return symbol && kept.has(symbol.id) ? [change('changed', c.now, symbol.id)] : [];
    }),
    ...added.map((d) => change('added', d, symbolOf(d)?.id)),
  ]);
}

/** Without the base version, the hunks alone say what changed: the innermost declarations they touch. */
export function touchedDeclarations(file: IndexedFile, ranges: readonly ChangedRange[]): DeclarationChange[] {
  const symbols = file.facts.symbols;
  const touched = new Map<number, SymbolFact>();
  for (const range of ranges) {
    const hit = codeOnly(symbols).filter((s) => touches(range, s.startLine, s.endLine));
    for (const s of innermost(symbols, hit)) touched.set(s.id, s);
  }
  return sorted(
    [...touched.values()].map((s) => ({
      change: 'changed',
      name: s.qualifiedName,
      shortName: s.name,
      kind: s.kind,
      line: s.startLine,
      symbol: s.id,
    })),
  );
}
