/**
 * Java call sites: method invocations (bare ones are calls on `this`), `new T(…)`, and method references
 * (`this::f`, `repo::find`, `Type::f`, `T::new`), which hand a method to be called. `super(…)`/`this(…)`
 * constructor chaining is no call of a declaration.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../facts.js';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import { bareTypeName } from '../shared/call-sites.js';
import { callsAfterDeclarations } from '../shared/jvm/declared-calls.js';
import { TypedNames } from '../shared/jvm/typed-names.js';
import { JAVA_DECLARATION_TYPES, javaDeclarations } from './declared-types.js';
import type { TreeSearch } from '../shared/tree-search.js';
import type { JavaFile } from './model.js';
import { callOn, type Receiver, type ReceiverContext, receiverText } from '../shared/jvm/call-receivers.js';

/**
 * What `javaCalls` searches the tree for (its declarations, then the calls of `javaCallSyntax`), so that the
 * extractor can search once for these and the body sites together (a type missing here costs a search).
 */
export const JAVA_CALL_SEARCH_TYPES: readonly string[] = [
  ...JAVA_DECLARATION_TYPES,
  'method_invocation',
  'object_creation_expression',
  'method_reference',
];

/** The file's call sites, typed by its declarations and imports. */
export function javaCalls(
  root: Node | TreeSearch,
  file: Pick<JavaFile, 'imports' | 'staticImports'>,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const names = new TypedNames();
  const context: ReceiverContext = {
    names,
    imports: file.imports,
    staticImports: file.staticImports,
    qualifiedPaths: true,
  };
  return callsAfterDeclarations(root, javaDeclarations(names), javaCallSyntax(context), symbols);
}

function javaCallSyntax(context: ReceiverContext): CallSyntax {
  return {
    method_invocation: (node) => invocation(node, context),
    object_creation_expression: (node) => construction(node.childForFieldName('type'), context),
    method_reference: (node) => reference(node, context),
  };
}

function invocation(node: Node, context: ReceiverContext): CallSite | undefined {
  const nameNode = node.childForFieldName('name');
  if (nameNode === null) return undefined;
  const object = node.childForFieldName('object');
  const receiver = object === null ? NONE : receiverOf(object);
  return callOn(
    nameNode.text,
    receiver,
    object === null ? undefined : receiverText(object),
    nameNode.startIndex,
    context,
    nameNode,
  );
}

/** `new T(…)` (also `new a.b.T<X>(…) { … }`): constructs `T`, brought in by its import when there is one. */
function construction(type: Node | null, context: ReceiverContext): CallSite | undefined {
  if (type === null) return undefined;
  const written = bareTypeName(type.text.replace(/@[\w.]+(?:\([^)]*\))?\s*/g, ''));
  const name = written.slice(written.lastIndexOf('.') + 1);
  const imported = written.includes('.') ? undefined : context.imports.get(name);
  return { name, construct: true, ...(imported === undefined ? {} : { module: imported }) };
}

/** `x::f`: a call of `f` on `x` handed on; `T::new` constructs `T`. */
function reference(node: Node, context: ReceiverContext): CallSite | undefined {
  const parts = node.namedChildren.filter((child): child is Node => child !== null);
  const target = parts[0];
  if (target === undefined) return undefined;
  if (node.text.trimEnd().endsWith('::new')) return construction(target, context);
  const nameNode = parts[parts.length - 1];
  if (parts.length < 2 || nameNode?.type !== 'identifier') return undefined;
  return callOn(
    nameNode.text,
    receiverOf(target),
    receiverText(target),
    nameNode.startIndex,
    context,
    nameNode,
  );
}

const NONE: Receiver = { kind: 'none' };

/** The shape of what a call is made on. */
function receiverOf(node: Node): Receiver {
  switch (node.type) {
    case 'this':
      return { kind: 'this' };
    case 'super':
      return { kind: 'super' };
    case 'identifier':
    case 'type_identifier':
      return { kind: 'name', name: node.text };
    case 'object_creation_expression': {
      const type = node.childForFieldName('type');
      return type === null ? OTHER : { kind: 'new', type: bareTypeName(type.text) };
    }
    case 'field_access':
    case 'scoped_identifier':
    case 'scoped_type_identifier':
      return fieldAccess(node);
    default:
      return OTHER;
  }
}

const OTHER: Receiver = { kind: 'other' };

/** `this.x`, `Outer.this`, `a.b.C`. */
function fieldAccess(node: Node): Receiver {
  const object = node.childForFieldName('object');
  const field = node.childForFieldName('field');
  if (object?.type === 'this' && field?.type === 'identifier') return { kind: 'member', name: field.text };
  if (field?.type === 'this') return { kind: 'this' };
  const text = node.text.replace(/\s+/g, '');
  return /^[\w$]+(?:\.[\w$]+)+$/.test(text) ? { kind: 'path', path: text } : OTHER;
}
