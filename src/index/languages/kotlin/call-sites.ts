/**
 * Kotlin call sites: calls (`f()`, `x.f()`, `x?.f()`, with or without a trailing lambda) and callable
 * references (`::f`, `repo::find`, `Type::f`). `Repo(…)` of a class declared in the file or imported
 * constructs it; another capitalised bare call may be a factory function, so it is not read as a method of
 * `this`. Inside `x.apply { … }` and `with(x) { … }` a bare call is made on `x`, not on `this`.
 */
import type { Node } from 'web-tree-sitter';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import {
  callOn,
  looksLikeType,
  type Receiver,
  type ReceiverContext,
  receiverText,
} from '../shared/jvm/call-receivers.js';
import type { CallFact, SymbolFact } from '../../facts.js';
import { callsAfterDeclarations } from '../shared/jvm/declared-calls.js';
import {
  KOTLIN_DECLARATION_TYPES,
  type KotlinTypes,
  kotlinDeclarations,
  newKotlinTypes,
  within,
} from './declared-types.js';
import type { TreeSearch } from '../shared/tree-search.js';
import { callOf } from './model.js';

/**
 * What `kotlinCalls` searches the tree for (its declarations, then the calls of `kotlinCallSyntax`), so that
 * the extractor can search once for these and the body sites together (a type missing here costs a search).
 */
export const KOTLIN_CALL_SEARCH_TYPES: readonly string[] = [
  ...KOTLIN_DECLARATION_TYPES,
  'call_expression',
  'callable_reference',
];

/** The file's call sites, typed by its declarations and its imports (imported name or alias → source). */
export function kotlinCalls(
  root: Node | TreeSearch,
  imports: ReadonlyMap<string, string>,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const types = newKotlinTypes();
  const context: ReceiverContext = { names: types.names, imports, qualifiedPaths: true };
  return callsAfterDeclarations(
    root,
    kotlinDeclarations(types, imports),
    kotlinCallSyntax(context, types),
    symbols,
  );
}

function kotlinCallSyntax(context: ReceiverContext, types: KotlinTypes): CallSyntax {
  return {
    call_expression: (node) => call(node, context, types),
    callable_reference: (node) => reference(node, context),
  };
}

function call(node: Node, context: ReceiverContext, types: KotlinTypes): CallSite | undefined {
  // `f(x) { … }` nests the call `f(x)` in the one with the lambda: the inner one is read on its own.
  if (node.firstNamedChild?.type === 'call_expression' && node.lastNamedChild?.type === 'annotated_lambda')
    return undefined;
  if (within(types.annotations, node.startIndex)) return undefined;
  const parts = callOf(node);
  if (parts === undefined) return undefined;
  const { name, nameNode } = parts;
  if (parts.receiver === undefined) return bareCall(name, nameNode, context, types);
  // The grammar reads `!a.f()` as `(!a).f()`: the call is on `a`.
  const prefixed = parts.receiver.type === 'unary_expression' && !parts.receiver.text.endsWith('!!');
  const receiver = (prefixed ? parts.receiver.childForFieldName('argument') : null) ?? parts.receiver;
  const shape = receiverOf(receiver, context);
  const site = callOn(name, shape, receiverText(receiver), nameNode.startIndex, context, nameNode);
  // `Outer.Inner(…)` on a type (not on a variable) constructs the nested class.
  const first =
    shape.kind === 'name' ? shape.name : shape.kind === 'path' ? shape.path.split('.')[0] : undefined;
  const onType =
    first !== undefined &&
    site.receiverType !== undefined &&
    context.names.lookup(first, nameNode.startIndex) === undefined;
  return onType && looksLikeType(name) ? { ...site, construct: true } : site;
}

function bareCall(name: string, nameNode: Node, context: ReceiverContext, types: KotlinTypes): CallSite {
  const constructed = constructedClass(name, context);
  if (constructed !== undefined) return { ...constructed, at: nameNode };
  const offset = nameNode.startIndex;
  const site = callOn(name, { kind: 'none' }, undefined, offset, context, nameNode);
  const onOther = within(types.otherThis, offset);
  if (site.self && (onOther || looksLikeType(name))) return { name, at: nameNode };
  return site;
}

/** `Repo(…)` where `Repo` is a class of the file or an imported type (its import is the module). */
function constructedClass(name: string, context: ReceiverContext): CallSite | undefined {
  if (context.names.classNames.has(name)) return { name, construct: true };
  const imported = context.imports.get(name);
  const real = imported?.slice(imported.lastIndexOf('.') + 1);
  if (imported === undefined || real === undefined || !looksLikeType(real)) return undefined;
  return { name: real, construct: true, module: imported };
}

/** `x::f` hands `f` on to be called; `::f` names a function of `this` (or of the file). */
function reference(node: Node, context: ReceiverContext): CallSite | undefined {
  const parts = node.namedChildren.filter((child): child is Node => child !== null);
  const nameNode = parts[parts.length - 1];
  if (nameNode?.type !== 'identifier' || nameNode.text === 'class') return undefined;
  const target = parts.length > 1 ? parts[0] : undefined;
  if (target === undefined) {
    const constructed = constructedClass(nameNode.text, context);
    return (
      constructed ??
      callOn(nameNode.text, { kind: 'none' }, undefined, nameNode.startIndex, context, nameNode)
    );
  }
  return callOn(
    nameNode.text,
    receiverOf(target, context),
    receiverText(target),
    nameNode.startIndex,
    context,
    nameNode,
  );
}

/** The shape of what a call is made on. */
function receiverOf(node: Node, context: ReceiverContext): Receiver {
  switch (node.type) {
    case 'this_expression':
      return { kind: 'this' };
    case 'super_expression':
      return { kind: 'super' };
    case 'identifier':
    case 'user_type':
      return { kind: 'name', name: node.text };
    case 'navigation_expression':
      return navigation(node);
    case 'call_expression': {
      const callee = node.firstNamedChild;
      const constructed = callee?.type === 'identifier' ? constructedClass(callee.text, context) : undefined;
      return constructed === undefined ? OTHER : { kind: 'new', type: constructed.name };
    }
    case 'unary_expression':
    case 'parenthesized_expression': {
      // `x!!.f()`, `(x).f()`: the call is on `x`.
      const inner = node.firstNamedChild;
      return inner !== null && (node.type === 'parenthesized_expression' || node.text.endsWith('!!'))
        ? receiverOf(inner, context)
        : OTHER;
    }
    default:
      return OTHER;
  }
}

const OTHER: Receiver = { kind: 'other' };

/** `this.x`, `a.b.C`. */
function navigation(node: Node): Receiver {
  const first = node.firstNamedChild;
  const last = node.lastNamedChild;
  if (first?.type === 'this_expression' && last?.type === 'identifier' && node.namedChildCount === 2)
    return { kind: 'member', name: last.text };
  const text = node.text.replace(/\s+/g, '');
  return /^[\w$]+(?:\.[\w$]+)+$/.test(text) ? { kind: 'path', path: text } : OTHER;
}
