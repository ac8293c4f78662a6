/**
 * The symbols Python declares: classes, methods and functions (with decorators, docstring and body lines),
 * and module-level constants. Field order is the order the facts are serialised in, so it is kept fixed.
 */
import type { Node } from 'web-tree-sitter';
import { cleanDoc, docstringNode, signatureOf } from './decl.js';
import type { Frame } from './scope.js';
import { dotted, literalString } from './values.js';
import type { SymbolDraft } from '../shared/fact-builder.js';
import { endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

export interface Definition {
  readonly symbol: SymbolDraft;
  readonly body: Node;
  readonly qualifiedName: string;
}

const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;

/** A class or function definition; `outer` is the decorated definition around it, when there is one. */
export function readDefinition(
  node: Node,
  frame: Frame,
  owner: number | undefined,
  outer: Node,
  decorators: readonly Node[],
): Definition | undefined {
  const nameNode = node.childForFieldName('name');
  const body = node.childForFieldName('body');
  if (nameNode === null || body === null) return undefined;
  const name = nameNode.text;
  const parentClass = frame.kind === 'class' ? frame.className : undefined;
  const qualifiedName = parentClass === undefined ? name : `${parentClass}.${name}`;
  const docNode = docstringNode(body);
  const symbol: SymbolDraft = {
    kind: node.type === 'class_definition' ? 'class' : frame.kind === 'class' ? 'method' : 'function',
    name,
    qualifiedName,
    signature: signatureOf(node),
    startLine: startLineOf(outer),
    endLine: endLineOf(node),
  };
  if (docNode !== undefined) symbol.docstring = cleanDoc(literalString(docNode) ?? '');
  if (decorators.length > 0) symbol.decorators = decorators.map((decorator) => oneLine(decorator.text));
  if (owner !== undefined) symbol.parent = owner;
  const supertypes = node.type === 'class_definition' ? superclassNames(node) : [];
  if (supertypes.length > 0) symbol.supertypes = supertypes;
  if (node.type === 'function_definition') {
    const first = body.namedChildren.find(
      (child) => child !== null && child.type !== 'comment' && child.id !== docNode?.parent?.id,
    );
    const signatureEnd = endLineOf(
      node.childForFieldName('return_type') ?? node.childForFieldName('parameters') ?? nameNode,
    );
    if (first !== undefined && first !== null && startLineOf(first) > signatureEnd) {
      symbol.bodyStartLine = startLineOf(first);
      symbol.bodyEndLine = endLineOf(body);
    }
  }
  return { symbol, body, qualifiedName };
}

/**
 * The bases of a class as written, without type arguments (`Base`, `mod.Base`, `Generic[T]` → `Generic`);
 * `object`, which every class extends, and keyword arguments (`metaclass=…`) are left out.
 */
export function superclassNames(node: Node): string[] {
  const names: string[] = [];
  for (const base of node.childForFieldName('superclasses')?.namedChildren ?? []) {
    const name = dotted(base?.type === 'subscript' ? base.childForFieldName('value') : base);
    if (name !== undefined && name !== 'object') names.push(name);
  }
  return names;
}

/** A module-level `NAME = …` (a constant) or annotated `name: T = …` (a variable); undefined otherwise. */
export function constantSymbol(node: Node, name: string, owner: number | undefined): SymbolDraft | undefined {
  const annotated = node.childForFieldName('type') !== null;
  if (!CONSTANT_NAME.test(name) && !annotated) return undefined;
  const startLine = startLineOf(node);
  const endLine = endLineOf(node);
  const type = node.childForFieldName('type')?.text;
  const head = type === undefined ? name : `${name}: ${type}`;
  const symbol: SymbolDraft = {
    kind: CONSTANT_NAME.test(name) ? 'const' : 'variable',
    name,
    qualifiedName: name,
    signature: startLine === endLine ? oneLine(node.text) : `${head} = …`,
    startLine,
    endLine,
  };
  if (owner !== undefined) symbol.parent = owner;
  return symbol;
}
