/**
 * What an outline shows of a declaration without its body: its place in the nesting, and its signature and
 * decorators, masked. A signature is source text (a constant's signature holds its value), so it goes
 * through the masker; the masker reads a signature that spans lines as lines, so a value that only reads as
 * a secret across them (a PEM body) is masked too. The outline never reads the file: it is built from the
 * facts alone, which keeps it in the low milliseconds on files of thousands of lines.
 */
import type { IndexedFile, SymbolFact } from '../../index/reader.js';
import { maskSecrets } from '../../trust/secret-mask.js';

export interface DeclarationRow {
  readonly symbol: SymbolFact;
  /** 0 for a top-level declaration, one more per enclosing declaration. */
  readonly depth: number;
  readonly parent: SymbolFact | undefined;
}

/**
 * Declarations in outline order: each one followed by the ones nested in it (a Go method under its
 * receiver's struct, wherever it is declared), siblings by line.
 */
export function outlineOrder(file: IndexedFile): DeclarationRow[] {
  const symbols = file.facts.symbols;
  const children = new Map<number | undefined, SymbolFact[]>();
  for (const symbol of symbols) {
    const parent = symbol.parent !== undefined && symbols[symbol.parent] ? symbol.parent : undefined;
    const list = children.get(parent) ?? [];
    list.push(symbol);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.startLine - b.startLine || a.id - b.id);
  const rows: DeclarationRow[] = [];
  const visited = new Set<number>();
  const visit = (parent: SymbolFact | undefined, depth: number): void => {
    for (const symbol of children.get(parent?.id) ?? []) {
      // Facts never nest a declaration in itself; the guard keeps a corrupt cache entry from looping.
      if (visited.has(symbol.id)) continue;
      visited.add(symbol.id);
      rows.push({ symbol, depth, parent });
      visit(symbol, depth + 1);
    }
  };
  visit(undefined, 0);
  return rows;
}

export interface MaskedHeader {
  readonly signature: string | undefined;
  readonly decorators: readonly string[];
  readonly redactions: number;
}

/** The declaration's signature and decorators as an answer may show them. */
export function maskedHeader(symbol: SymbolFact): MaskedHeader {
  const decorators = (symbol.decorators ?? []).map((d) => maskSecrets(d));
  const signature = symbol.signature === undefined ? undefined : maskSecrets(symbol.signature);
  return {
    signature: signature?.text,
    decorators: decorators.map((d) => d.text),
    redactions: (signature?.redactions ?? 0) + decorators.reduce((sum, d) => sum + d.redactions, 0),
  };
}
