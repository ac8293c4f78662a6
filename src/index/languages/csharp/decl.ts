/**
 * C# declaration helpers: a declaration's symbol (signature, `///` docs, attributes), body lines,
 * collection initialisers, the namespace of a `using` directive.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import { kids } from './values.js';
import type { SymbolDraft } from '../shared/fact-builder.js';
import { endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

/** Where a declaration's text starts once its attributes (and comments among them) are skipped. */
export function signatureStart(node: Node): number {
  const first = node.children.find(
    (child) => child !== null && child.type !== 'attribute_list' && child.type !== 'comment',
  );
  return first?.startIndex ?? node.startIndex;
}

/** The elements of `new[] { … }`, `new string[] { … }`, `new List<string> { … }`, or the node itself. */
export function listItems(node: Node | undefined): Node[] {
  if (node === undefined) return [];
  if (
    node.type === 'implicit_array_creation_expression' ||
    node.type === 'array_creation_expression' ||
    node.type === 'object_creation_expression'
  ) {
    const initializer =
      node.childForFieldName('initializer') ??
      kids(node).find((child) => child.type === 'initializer_expression');
    return initializer === undefined || initializer === null ? [] : kids(initializer);
  }
  if (node.type === 'collection_expression') return kids(node);
  return [node];
}

/** Lines strictly inside a block's braces, so the signature and the closing brace stay visible. */
export function innerLines(body: Node): { bodyStartLine?: number; bodyEndLine?: number } {
  const first = startLineOf(body) + 1;
  const last = endLineOf(body) - 1;
  return last >= first ? { bodyStartLine: first, bodyEndLine: last } : {};
}

/** The `///` comment lines right above a declaration, XML tags removed. */
export function docComment(node: Node): string | undefined {
  const lines: string[] = [];
  let expected = startLineOf(node) - 1;
  for (
    let sibling = node.previousSibling;
    sibling?.type === 'comment' && sibling.text.startsWith('///');
    sibling = sibling.previousSibling
  ) {
    if (endLineOf(sibling) !== expected) break;
    lines.unshift(sibling.text.slice(3));
    expected = startLineOf(sibling) - 1;
  }
  if (lines.length === 0) return undefined;
  const text = lines
    .map((line) => line.replace(/<[^>]+>/g, '').trim())
    .filter((line) => line !== '')
    .join('\n');
  return text === '' ? undefined : text;
}

/** The common fields of a declaration symbol: signature up to `stop`, attributes, `///` docs. */
export function declarationSymbol(
  source: string,
  node: Node,
  kind: SymbolKind,
  name: string,
  qualifiedName: string,
  stop: Node | null,
  owner: number | undefined,
): SymbolDraft {
  const start = signatureStart(node);
  const end = stop?.startIndex ?? node.endIndex;
  const symbol: SymbolDraft = {
    kind,
    name,
    qualifiedName,
    signature: oneLine(source.slice(Math.min(start, end), end)).replace(/\s*[{;]$/, ''),
    startLine: startLineOf(node),
    endLine: endLineOf(node),
    exported: kids(node).some((child) => child.type === 'modifier' && child.text === 'public'),
  };
  const doc = docComment(node);
  if (doc !== undefined) symbol.docstring = doc;
  const attributes = kids(node).filter((child) => child.type === 'attribute_list');
  if (attributes.length > 0) symbol.decorators = attributes.map((attribute) => oneLine(attribute.text));
  if (owner !== undefined) symbol.parent = owner;
  return symbol;
}

/** The namespace a `using` directive imports; none for an alias's own name. */
export function usingSource(node: Node): string | undefined {
  const target = kids(node)
    .filter((child) => child.type === 'qualified_name' || child.type === 'identifier')
    .pop();
  if (target === undefined) return undefined;
  const alias = node.childForFieldName('name');
  return target.id === alias?.id ? undefined : target.text;
}
