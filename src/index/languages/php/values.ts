/**
 * PHP value resolution for URLs: strings (with `"{$x}"`/`"$x"` interpolation), `.` concatenation,
 * `sprintf`, variables assigned earlier in the same function, `$this->x` properties (their default or the
 * constructor's assignment), class constants (`self::BASE`, `Client::BASE`), global constants (`const`,
 * `define`), environment reads (`getenv('X')`, `$_ENV['X']`, `$_SERVER['X']`, Laravel `env('X', 'd')`: an
 * env part) and Laravel configuration (`config('services.orders.url')`: a config part). Anything else is
 * an opaque `expr` part, so a variable name never becomes a host or a path segment.
 */
import type { Node } from 'web-tree-sitter';
import type { Part, Parts } from '../shared/tree-utils.js';

export function named(node: Node | null | undefined): Node[] {
  return (node?.namedChildren ?? []).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/** A single- or double-quoted string without interpolation; undefined otherwise. */
export function phpLiteral(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type !== 'string' && node.type !== 'encapsed_string') return undefined;
  const parts = named(node);
  return parts.every((part) => part.type === 'string_content' || part.type === 'escape_sequence')
    ? parts.map((part) => part.text).join('')
    : undefined;
}

/** The argument expressions of a call or of `new X(…)`. */
export function argumentsOf(call: Node): Node[] {
  // `new X(…)` has its arguments as a plain child, calls as the `arguments` field.
  const list = call.childForFieldName('arguments') ?? named(call).find((child) => child.type === 'arguments');
  return named(list)
    .filter((argument) => argument.type === 'argument')
    .map((argument) => named(argument).pop())
    .filter((value): value is Node => value !== undefined);
}

/** The `'key' => value` elements of an array literal. */
export function arrayEntries(node: Node | undefined): Map<string, Node> {
  const entries = new Map<string, Node>();
  if (node?.type !== 'array_creation_expression') return entries;
  for (const element of named(node)) {
    const [key, value] = named(element);
    const name = phpLiteral(key) ?? (key?.type === 'name' ? key.text : undefined);
    if (name !== undefined && value !== undefined) entries.set(name, value);
  }
  return entries;
}

/** Where names are looked up, as seen from the use site. */
export interface PhpValueScope {
  /** The value last assigned to `$name` before the use, in the same function. */
  variable(name: string): Node | undefined;
  /** `$this->name`: the property's default or the value the constructor assigns. */
  property(name: string): Node | undefined;
  /** `self::NAME` (owner undefined), `Owner::NAME`, or a global constant `NAME` (owner ''). */
  constant(owner: string | undefined, name: string): Node | undefined;
  /** The same lookups seen from another node (the value found is resolved where it was written). */
  at(node: Node): PhpValueScope;
}

const ENV_READERS = new Set(['getenv', 'env']);
const ENV_ARRAYS = new Set(['$_ENV', '$_SERVER']);
/** Calls whose result is their first argument, as far as a URL is concerned. */
const PASS_THROUGH = new Set(['rtrim', 'trim', 'ltrim', 'strval']);
const MAX_DEPTH = 8;

function lastIdentifier(node: Node): string {
  const names = node.text.match(/[A-Za-z_]\w*/g);
  return names?.[names.length - 1] ?? 'param';
}

function opaque(node: Node): Parts {
  return [{ t: 'expr', name: lastIdentifier(node) }];
}

/** Resolves an expression into parts; unresolvable pieces become `expr` parts. */
export function resolvePhp(node: Node, scope: PhpValueScope, depth = 0): Parts {
  if (depth > MAX_DEPTH) return opaque(node);
  const again = (inner: Node, from = scope): Parts => resolvePhp(inner, from.at(inner), depth + 1);
  switch (node.type) {
    case 'string':
    case 'encapsed_string':
      return named(node).flatMap((piece): Part[] =>
        piece.type === 'string_content' || piece.type === 'escape_sequence'
          ? [{ t: 'lit', v: piece.text }]
          : [...again(piece)],
      );
    case 'parenthesized_expression': {
      const inner = named(node)[0];
      return inner === undefined ? opaque(node) : again(inner);
    }
    case 'binary_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator')?.text;
      if (left === null || right === null) return opaque(node);
      if (operator === '.') return [...again(left), ...again(right)];
      if (operator === '??') return withFallback(again(left), right);
      return opaque(node);
    }
    case 'conditional_expression': {
      // `getenv('X') ?: 'http://default'`
      const condition = node.childForFieldName('condition');
      const alternative = node.childForFieldName('alternative');
      if (node.childForFieldName('body') === null && condition !== null && alternative !== null)
        return withFallback(again(condition), alternative);
      return opaque(node);
    }
    case 'variable_name': {
      const value = scope.variable(node.text);
      return value === undefined ? opaque(node) : again(value);
    }
    case 'member_access_expression': {
      const object = node.childForFieldName('object');
      const value =
        object?.text === '$this' ? scope.property(node.childForFieldName('name')?.text ?? '') : undefined;
      return value === undefined ? opaque(node) : again(value);
    }
    case 'class_constant_access_expression': {
      const [owner, name] = named(node);
      const self = owner?.type === 'relative_scope' && owner.text !== 'parent';
      const value = scope.constant(self ? undefined : owner?.text, name?.text ?? '');
      return value === undefined ? opaque(node) : again(value);
    }
    case 'name': {
      const value = scope.constant('', node.text);
      return value === undefined ? opaque(node) : again(value);
    }
    case 'subscript_expression': {
      const [array, key] = named(node);
      const name = phpLiteral(key);
      return array !== undefined && ENV_ARRAYS.has(array.text) && name !== undefined
        ? [{ t: 'env', name }]
        : opaque(node);
    }
    case 'function_call_expression':
      return callParts(node, scope, depth);
    default:
      return opaque(node);
  }
}

function withFallback(first: Parts, fallbackNode: Node): Parts {
  const only = first.length === 1 ? first[0] : undefined;
  const fallback = phpLiteral(fallbackNode);
  if ((only?.t === 'env' || only?.t === 'config') && fallback !== undefined) return [{ ...only, fallback }];
  return first;
}

function callParts(node: Node, scope: PhpValueScope, depth: number): Parts {
  const callee = node.childForFieldName('function')?.text.replace(/^\\/, '');
  const args = argumentsOf(node);
  const key = phpLiteral(args[0]);
  if (callee !== undefined && ENV_READERS.has(callee) && key !== undefined) {
    const fallback = phpLiteral(args[1]);
    return [fallback === undefined ? { t: 'env', name: key } : { t: 'env', name: key, fallback }];
  }
  if (callee === 'config' && key !== undefined) {
    const fallback = phpLiteral(args[1]);
    return [fallback === undefined ? { t: 'config', key } : { t: 'config', key, fallback }];
  }
  if (callee !== undefined && PASS_THROUGH.has(callee) && args[0] !== undefined)
    return resolvePhp(args[0], scope, depth + 1);
  if (callee === 'sprintf' && key !== undefined) return sprintfParts(key, args.slice(1), scope, depth);
  return opaque(node);
}

/** `sprintf('%s/orders/%d', $base, $id)`: the format's text with its arguments in place. */
function sprintfParts(format: string, args: readonly Node[], scope: PhpValueScope, depth: number): Parts {
  const parts: Part[] = [];
  let last = 0;
  let next = 0;
  for (const match of format.matchAll(/%(?:(\d+)\$)?[-+ 0]*\d*(?:\.\d+)?([sdfuxX%])/g)) {
    parts.push({ t: 'lit', v: format.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[2] === '%') {
      parts.push({ t: 'lit', v: '%' });
      continue;
    }
    const index = match[1] === undefined ? next++ : Number(match[1]) - 1;
    const argument = args[index];
    parts.push(...(argument === undefined ? opaqueParam() : resolvePhp(argument, scope, depth + 1)));
  }
  parts.push({ t: 'lit', v: format.slice(last) });
  return parts.filter((part) => part.t !== 'lit' || part.v !== '');
}

function opaqueParam(): Parts {
  return [{ t: 'expr', name: 'param' }];
}
