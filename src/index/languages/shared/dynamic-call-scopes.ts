/**
 * Where a call sits, told from the file's symbols by line: the innermost function or method around it and
 * the innermost type or module around it. Languages whose bare calls depend on that (a bare call in a Ruby
 * method is on `self`, one in a class body is a macro of the framework) ask this instead of walking the
 * parents of every call node.
 */
import type { SymbolFact, SymbolKind } from '../../facts.js';

export class LineScopes {
  private readonly callers: (line: number) => SymbolFact | undefined;
  private readonly containers: (line: number) => SymbolFact | undefined;

  constructor(
    private readonly symbols: readonly SymbolFact[],
    callerKinds: ReadonlySet<SymbolKind>,
    containerKinds: ReadonlySet<SymbolKind>,
  ) {
    this.callers = innermostTable(symbols, callerKinds);
    this.containers = innermostTable(symbols, containerKinds);
  }

  /** The innermost function or method whose lines hold `line`. */
  callerAt(line: number): SymbolFact | undefined {
    return this.callers(line);
  }

  /** The innermost type or module whose lines hold `line`. */
  containerAt(line: number): SymbolFact | undefined {
    return this.containers(line);
  }

  /** The symbol a caller is declared in (a method's class), if any. */
  parentOf(symbol: SymbolFact): SymbolFact | undefined {
    return symbol.parent === undefined ? undefined : this.symbols[symbol.parent];
  }
}

/** Line → the innermost symbol of `kinds` spanning it: wider symbols are painted first, nested ones win. */
function innermostTable(
  symbols: readonly SymbolFact[],
  kinds: ReadonlySet<SymbolKind>,
): (line: number) => SymbolFact | undefined {
  const spans = symbols
    .filter((s) => kinds.has(s.kind))
    .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine) || a.id - b.id);
  if (spans.length === 0) return () => undefined;
  const table = new Int32Array(Math.max(...spans.map((s) => s.endLine)) + 1).fill(-1);
  for (const symbol of spans) table.fill(symbol.id, symbol.startLine, symbol.endLine + 1);
  return (line) => {
    const id = line < table.length ? (table[line] ?? -1) : -1;
    return id === -1 ? undefined : symbols[id];
  };
}
