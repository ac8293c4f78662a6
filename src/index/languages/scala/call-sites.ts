/**
 * Scala call sites: applications `f(…)`, `x.f(…)`, `x.f[T](…)`, `f { … }`, and `new T(…)`. `T(…)` of a
 * class declared in the file (a case class's `apply`) constructs it; another capitalised bare call is a
 * companion's `apply`, not a method of `this`. A curried call `f(a)(b)` is one call of `f`. Infix and
 * parameterless calls (`a max b`, `x.size`) read like operators and fields, and are not recorded.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../facts.js';
import { callsAfterDeclarations } from '../shared/jvm/declared-calls.js';
import { TypedNames } from '../shared/jvm/typed-names.js';
import { scalaDeclarations } from './declared-types.js';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import { bareTypeName } from '../shared/call-sites.js';
import {
  callOn,
  looksLikeType,
  type Receiver,
  type ReceiverContext,
  receiverText,
} from '../shared/jvm/call-receivers.js';

/** The file's call sites, typed by its declarations and its imports (imported name or alias → source). */
export function scalaCalls(
  root: Node,
  imports: ReadonlyMap<string, string>,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const names = new TypedNames();
  const context: ReceiverContext = { names, imports, qualifiedPaths: true };
  return callsAfterDeclarations(root, scalaDeclarations(names), scalaCallSyntax(context), symbols);
}

function scalaCallSyntax(context: ReceiverContext): CallSyntax {
  return {
    call_expression: (node) => application(node, context),
    instance_expression: (node) => instance(node, context),
  };
}

function application(node: Node, context: ReceiverContext): CallSite | undefined {
  let callee = node.childForFieldName('function');
  if (callee?.type === 'generic_function') callee = callee.childForFieldName('function');
  if (callee === null || callee === undefined) return undefined;
  if (callee.type === 'identifier') return bareCall(callee, context);
  if (callee.type !== 'field_expression') return undefined;
  const value = callee.childForFieldName('value');
  const field = callee.childForFieldName('field');
  if (value === null || field === null) return undefined;
  return callOn(field.text, receiverOf(value), receiverText(value), field.startIndex, context, field);
}

function bareCall(callee: Node, context: ReceiverContext): CallSite {
  const name = callee.text;
  if (context.names.classNames.has(name)) return { name, construct: true, at: callee };
  const site = callOn(name, { kind: 'none' }, undefined, callee.startIndex, context, callee);
  return site.self && looksLikeType(name) ? { name, at: callee } : site;
}

/** `new T(…)`, `new T[A](…) { … }`: constructs `T`, brought in by its import when there is one. */
function instance(node: Node, context: ReceiverContext): CallSite | undefined {
  const type =
    node.namedChildren.find((child) => child !== null && child.type.endsWith('type_identifier')) ??
    node.namedChildren.find((child) => child?.type === 'generic_type');
  if (type === null || type === undefined) return undefined;
  const written = bareTypeName(type.text);
  const name = written.slice(written.lastIndexOf('.') + 1);
  const imported = written.includes('.') ? undefined : context.imports.get(name);
  return {
    name: imported === undefined ? name : imported.slice(imported.lastIndexOf('.') + 1),
    construct: true,
    ...(imported === undefined ? {} : { module: imported }),
  };
}

const OTHER: Receiver = { kind: 'other' };

/** The shape of what a call is made on. */
function receiverOf(node: Node): Receiver {
  switch (node.type) {
    case 'identifier':
      if (node.text === 'this') return { kind: 'this' };
      return node.text === 'super' ? { kind: 'super' } : { kind: 'name', name: node.text };
    case 'instance_expression': {
      const type = node.namedChildren[0];
      return type === null || type === undefined ? OTHER : { kind: 'new', type: bareTypeName(type.text) };
    }
    case 'field_expression': {
      const value = node.childForFieldName('value');
      const field = node.childForFieldName('field');
      if (value?.text === 'this' && field !== null) return { kind: 'member', name: field.text };
      const text = node.text.replace(/\s+/g, '');
      return /^[\w$]+(?:\.[\w$]+)+$/.test(text) ? { kind: 'path', path: text } : OTHER;
    }
    default:
      return OTHER;
  }
}
