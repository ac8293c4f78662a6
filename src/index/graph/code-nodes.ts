import type { Confidence } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import type { GraphBuilder } from './node-table.js';

/** Where an edge was found: the call site, the handler, the statement, and how it was recognised. */
export interface Evidence {
  readonly root: string;
  readonly file: string;
  readonly line: number;
  readonly via: string;
}

export const evidenceOf = (file: IndexedFile, fact: { line: number; via: string }): Evidence => ({
  root: file.root,
  file: file.path,
  line: fact.line,
  via: fact.via,
});

/** The weaker of two readings: an edge is never surer than what it was derived from. */
export const weaker = (a: Confidence, b: Confidence): Confidence =>
  a === 'ambiguous' || b === 'ambiguous'
    ? 'ambiguous'
    : a === 'heuristic' || b === 'heuristic'
      ? 'heuristic'
      : 'exact';

/** The node standing for a root as a whole (the service it holds). */
export const serviceNode = (builder: GraphBuilder, root: string): string =>
  builder.node({ kind: 'service', name: root, root, file: undefined, line: undefined });

/** A topic: workspace-wide, located nowhere in particular. */
export const topicNode = (builder: GraphBuilder, key: string): string =>
  builder.node({ kind: 'topic', name: key, root: undefined, file: undefined, line: undefined });

/** The node standing for the code holding a fact: its enclosing declaration, else its file. */
export function codeNode(builder: GraphBuilder, file: IndexedFile, symbolId: number | undefined): string {
  const symbol = symbolId !== undefined ? file.facts.symbols[symbolId] : undefined;
  if (symbol) {
    return builder.node({
      kind: 'symbol',
      symbolKind: symbol.kind,
      name: symbol.qualifiedName,
      root: file.root,
      file: file.path,
      line: symbol.startLine,
    });
  }
  return builder.node({ kind: 'module', name: file.path, root: file.root, file: file.path, line: 1 });
}
