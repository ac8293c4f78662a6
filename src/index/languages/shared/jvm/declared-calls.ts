/**
 * The call sites of a Java, Kotlin, Scala or C# file, read after its declarations from one search of the
 * tree. Searching the tree costs about as much as reading what it finds, so the declaration nodes (which
 * type the receivers) and the call nodes are found together; the declarations are all read first, since a
 * call may use a field declared below it, then the calls go through the shared collector.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../../facts.js';
import { type CallSyntax, callsOfNodes } from '../call-sites.js';
import { searchTree, type TreeSearch } from '../tree-search.js';

/** How a language reads its declaration nodes into its typed names. */
export interface DeclarationReader {
  readonly nodeTypes: readonly string[];
  read(node: Node): void;
  /** Completes what needs every declaration read (a local typed by a class declared further down). */
  finish?(): void;
}

export function callsAfterDeclarations(
  root: Node | TreeSearch,
  declarations: DeclarationReader,
  syntax: CallSyntax,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const declared = new Set(declarations.nodeTypes);
  const callTypes = Object.keys(syntax);
  const calls: Node[] = [];
  const types: string[] = [];
  const found = searchTree(root, [...new Set([...declarations.nodeTypes, ...callTypes])]);
  found.nodes.forEach((node, index) => {
    const type = found.types[index] as string;
    if (declared.has(type)) declarations.read(node);
    if (syntax[type] !== undefined) {
      calls.push(node);
      types.push(type);
    }
  });
  declarations.finish?.();
  return callsOfNodes(calls, types, syntax, symbols);
}
