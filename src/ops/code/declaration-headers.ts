/**
 * What an outline shows of a declaration without its body: the signature and decorators, masked. A
 * signature is source text (a constant's signature holds its value), so it goes through the masker on its
 * own; and when masking the whole file found a secret on the declaration's header lines (a secret the
 * signature alone does not reveal as one, such as a YAML block), the masked header lines stand in for it.
 */
import type { IndexedFile, SymbolFact } from '../../index/reader.js';
import { maskSecrets } from '../../trust/secret-mask.js';
import type { IndexedText } from '../shared/indexed-text.js';

/** Header lines read back from the masked file at most, for a declaration whose header held a secret. */
const MAX_HEADER_LINES = 3;

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

/** The last line of a declaration's header: the line before its body, or its whole span without one. */
function headerEnd(symbol: SymbolFact): number {
  if (symbol.bodyStartLine !== undefined && symbol.bodyStartLine > symbol.startLine)
    return symbol.bodyStartLine - 1;
  return symbol.bodyStartLine !== undefined ? symbol.startLine : symbol.endLine;
}

export interface MaskedHeader {
  readonly signature: string | undefined;
  readonly decorators: readonly string[];
  readonly redactions: number;
}

/** The declaration's signature and decorators as an answer may show them. */
export function maskedHeader(symbol: SymbolFact, text: IndexedText | undefined): MaskedHeader {
  const decorators = (symbol.decorators ?? []).map((d) => maskSecrets(d));
  const decoratorRedactions = decorators.reduce((sum, d) => sum + d.redactions, 0);
  if (text && !text.stale) {
    const last = Math.min(headerEnd(symbol), symbol.startLine + MAX_HEADER_LINES - 1);
    const lines = Array.from({ length: last - symbol.startLine + 1 }, (_, i) => symbol.startLine - 1 + i);
    const found = text.masked.redactionsOn(lines);
    if (found > 0) {
      const header = lines.map((i) => (text.masked.lines[i] ?? '').trim()).join(' ');
      return {
        signature: header,
        decorators: decorators.map((d) => d.text),
        redactions: found + decoratorRedactions,
      };
    }
  }
  const signature = symbol.signature === undefined ? undefined : maskSecrets(symbol.signature);
  return {
    signature: signature?.text,
    decorators: decorators.map((d) => d.text),
    redactions: (signature?.redactions ?? 0) + decoratorRedactions,
  };
}
