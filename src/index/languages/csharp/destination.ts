/**
 * A messaging destination from a C# expression: a literal or resolved constant is exact; a configuration
 * or environment read becomes a placeholder the graph resolves against the service, and a constant of a
 * class another file declares a `${cs:Class.Name}` placeholder the graph resolves against that file's
 * constants; anything else is kept as written (`unresolved`) and never turned into a name.
 */
import type { Node } from 'web-tree-sitter';
import type { ArgSlot } from './brokers.js';
import { csArguments, csDotted, kids, resolveCs, type CsValueScope } from './values.js';
import type { Confidence } from '../../facts.js';
import { oneLine, type Part } from '../shared/tree-utils.js';

export interface Destination {
  /** `''` when unresolved. */
  readonly topic: string;
  readonly confidence: Confidence;
  readonly unresolved?: string;
}

export type Arguments = ReturnType<typeof csArguments>;

/** The argument in `slot`: by its parameter name, else by its position. */
export function argumentAt(args: Arguments, slot: ArgSlot): Node | undefined {
  const named = slot.name === undefined ? undefined : args.named.get(slot.name);
  if (named !== undefined) return named;
  return slot.position === undefined ? undefined : args.positional[slot.position];
}

/** Wrappers that change nothing about the value: `await x`, `(x)`, `x!`, `(string)x`. */
export function unwrap(node: Node): Node {
  let current = node;
  for (;;) {
    const inner = kids(current).at(-1);
    const transparent =
      current.type === 'await_expression' ||
      current.type === 'parenthesized_expression' ||
      current.type === 'cast_expression' ||
      (current.type === 'postfix_unary_expression' && current.text.endsWith('!'));
    if (!transparent || inner === undefined) return current;
    current = inner;
  }
}

/** `string.Empty` (which the value resolver does not know) is the empty string. */
function isEmptyString(node: Node): boolean {
  const path = csDotted(node);
  return path === 'string.Empty' || path === 'String.Empty';
}

function placeholder(part: Part): string | undefined {
  switch (part.t) {
    case 'lit':
      return part.v;
    case 'env':
      return part.fallback === undefined ? `\${env.${part.name}}` : `\${env.${part.name}:${part.fallback}}`;
    case 'config':
      return part.fallback === undefined ? `\${${part.key}}` : `\${${part.key}:${part.fallback}}`;
    default:
      return undefined;
  }
}

/** The expression as written, on one line and at most 120 characters. */
export function asWritten(node: Node): string {
  const text = oneLine(node.text);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * The string an expression holds, `''` for an empty literal; undefined when part of it is unknown.
 * `wrappers` are calls or constructions whose first argument is the value (`RedisChannel.Literal("x")`).
 */
export function stringOf(
  node: Node,
  values: CsValueScope,
  wrappers: readonly string[] = [],
): { readonly text: string; readonly exact: boolean } | undefined {
  const inner = unwrap(node);
  if (isEmptyString(inner)) return { text: '', exact: true };
  const wrapped = wrapperArgument(inner, wrappers);
  if (wrapped !== undefined) return stringOf(wrapped, values);
  let text = '';
  let exact = true;
  for (const part of resolveCs(inner, values)) {
    const piece = placeholder(part);
    if (piece === undefined) return undefined;
    if (part.t !== 'lit') exact = false;
    text += piece;
  }
  return { text, exact };
}

function wrapperArgument(node: Node, wrappers: readonly string[]): Node | undefined {
  if (wrappers.length === 0) return undefined;
  const callee =
    node.type === 'invocation_expression'
      ? csDotted(node.childForFieldName('function'))
      : node.type === 'object_creation_expression'
        ? csDotted(node.childForFieldName('type'))
        : undefined;
  if (callee === undefined || !wrappers.includes(callee)) return undefined;
  return csArguments(node.childForFieldName('arguments')).positional[0];
}

/**
 * `Topics.Created` on a class another file declares: the `${cs:Topics.Created}` placeholder the graph
 * resolves against the constants that file exports (see `constants.ts`).
 */
function foreignConstant(node: Node, values: CsValueScope): string | undefined {
  const inner = unwrap(node);
  if (inner.type !== 'member_access_expression') return undefined;
  const path = csDotted(inner);
  const dot = path?.lastIndexOf('.') ?? -1;
  if (path === undefined || dot < 0 || !values.foreignType(path.slice(0, dot))) return undefined;
  return `\${cs:${path}}`;
}

/** The destination an expression names; an unknown or empty one is unresolved. */
export function destinationOf(node: Node, values: CsValueScope, wrappers?: readonly string[]): Destination {
  const value = stringOf(node, values, wrappers);
  if (value === undefined) {
    const constant = foreignConstant(node, values);
    if (constant !== undefined) return { topic: constant, confidence: 'heuristic' };
  }
  if (value === undefined || value.text === '')
    return { topic: '', confidence: 'heuristic', unresolved: asWritten(node) };
  return { topic: value.text, confidence: value.exact ? 'exact' : 'heuristic' };
}
