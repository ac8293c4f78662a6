/**
 * C# value resolution for contract facts: string literals (regular, verbatim, raw, interpolated),
 * concatenation, `??` fallbacks, same-file constants and static fields, `nameof`, `new Uri(…)` and
 * `Environment.GetEnvironmentVariable("X")`. Anything else is an opaque `expr` part, so a variable or a
 * configuration key never becomes a topic.
 */
import type { Node } from 'web-tree-sitter';
import type { Part, Parts } from '../shared/tree-utils.js';

export interface CsValueScope {
  /** A simple name: local constant/variable, then a field of the enclosing classes. */
  name(name: string): Parts | undefined;
  /** `Owner.Name` where `Owner` is a class declared in this file. */
  member(owner: string, name: string): Parts | undefined;
}

/** Named children without comments. */
export function kids(node: Node | null | undefined): Node[] {
  return (node?.namedChildren ?? []).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/** The argument expressions of an `argument_list`, with the name of each named argument (`topic: "x"`). */
export function csArguments(list: Node | null): {
  readonly positional: readonly Node[];
  readonly named: ReadonlyMap<string, Node>;
} {
  const positional: Node[] = [];
  const named = new Map<string, Node>();
  for (const argument of kids(list)) {
    if (argument.type !== 'argument') continue;
    const name = argument.childForFieldName('name');
    const value = kids(argument)
      .filter((child) => child.id !== name?.id)
      .pop();
    if (value === undefined) continue;
    if (name !== null) named.set(name.text, value);
    else positional.push(value);
  }
  return { positional, named };
}

/** Dotted text of an identifier / member access / qualified name chain; undefined for other shapes. */
export function csDotted(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case 'identifier':
    case 'this':
    case 'predefined_type':
      return node.text;
    case 'generic_name':
      return kids(node)[0]?.text;
    case 'qualified_name':
    case 'member_access_expression': {
      const left = csDotted(
        node.childForFieldName(node.type === 'qualified_name' ? 'qualifier' : 'expression'),
      );
      const right = csDotted(node.childForFieldName('name'));
      return left === undefined || right === undefined ? undefined : `${left}.${right}`;
    }
    default:
      return undefined;
  }
}

/** A literal string's text, or undefined when the node is no plain literal. */
export function csLiteral(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case 'string_literal':
      return kids(node)
        .map((child) => child.text)
        .join('');
    case 'verbatim_string_literal':
      return node.text.slice(2, -1).replace(/""/g, '"');
    case 'raw_string_literal':
      return kids(node).find((child) => child.type === 'raw_string_content')?.text ?? '';
    default:
      return undefined;
  }
}

function lastIdentifier(node: Node): string {
  const names = node.text.match(/[A-Za-z_]\w*/g);
  return names?.[names.length - 1] ?? 'param';
}

function opaque(node: Node): Parts {
  return [{ t: 'expr', name: lastIdentifier(node) }];
}

function operatorOf(node: Node): string | undefined {
  return (
    node.childForFieldName('operator')?.type ??
    node.children.find((child) => child !== null && !child.isNamed)?.type
  );
}

/** Resolves an expression into parts; unresolvable pieces become `expr` parts. */
export function resolveCs(node: Node, scope: CsValueScope): Parts {
  const literal = csLiteral(node);
  if (literal !== undefined) return [{ t: 'lit', v: literal }];
  switch (node.type) {
    case 'interpolated_string_expression': {
      const parts: Part[] = [];
      for (const child of kids(node)) {
        if (child.type === 'interpolation') {
          const expression = kids(child).find(
            (inner) => inner.type !== 'interpolation_brace' && !inner.type.startsWith('interpolation_'),
          );
          parts.push(...(expression === undefined ? [] : resolveCs(expression, scope)));
        } else if (child.type !== 'interpolation_start' && child.type !== 'interpolation_quote') {
          parts.push({ t: 'lit', v: child.text });
        }
      }
      return parts;
    }
    case 'parenthesized_expression':
    case 'cast_expression':
    case 'await_expression': {
      const inner = kids(node).at(-1);
      return inner === undefined ? opaque(node) : resolveCs(inner, scope);
    }
    case 'binary_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left === null || right === null) return opaque(node);
      const operator = operatorOf(node);
      if (operator === '+') return [...resolveCs(left, scope), ...resolveCs(right, scope)];
      if (operator === '??') {
        const first = resolveCs(left, scope);
        const fallback = csLiteral(right);
        const only = first[0];
        if (first.length === 1 && only?.t === 'env' && fallback !== undefined) return [{ ...only, fallback }];
        return first;
      }
      return opaque(node);
    }
    case 'identifier':
      return scope.name(node.text) ?? opaque(node);
    case 'member_access_expression': {
      const path = csDotted(node);
      if (path === undefined) return opaque(node);
      const dot = path.lastIndexOf('.');
      const owner = path.slice(0, dot);
      const name = path.slice(dot + 1);
      return (owner === 'this' ? scope.name(name) : scope.member(owner, name)) ?? opaque(node);
    }
    case 'invocation_expression':
      return invocationParts(node);
    case 'object_creation_expression': {
      // `new Uri(x)` is the URL `x`.
      const type = csDotted(node.childForFieldName('type'));
      const first = csArguments(node.childForFieldName('arguments')).positional[0];
      return (type === 'Uri' || type === 'System.Uri') && first !== undefined
        ? resolveCs(first, scope)
        : opaque(node);
    }
    default:
      return opaque(node);
  }
}

function invocationParts(node: Node): Parts {
  const callee = csDotted(node.childForFieldName('function'));
  const { positional } = csArguments(node.childForFieldName('arguments'));
  const first = positional[0];
  if (
    (callee === 'Environment.GetEnvironmentVariable' ||
      callee === 'System.Environment.GetEnvironmentVariable') &&
    first
  ) {
    const key = csLiteral(first);
    if (key !== undefined) return [{ t: 'env', name: key }];
  }
  if (callee === 'nameof' && first !== undefined) {
    const path = csDotted(first);
    if (path !== undefined) return [{ t: 'lit', v: path.slice(path.lastIndexOf('.') + 1) }];
  }
  return opaque(node);
}
