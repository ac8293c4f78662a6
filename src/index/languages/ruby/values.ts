/**
 * Ruby value resolution for URLs: strings (with `#{…}` interpolation), `+` concatenation, `format`/
 * `sprintf`, `File.join`/`URI.join`, `URI(x)`/`URI.parse(x)` and `uri.path`-like readers (the URL itself),
 * local variables assigned earlier in the same method, constants and instance variables of the file, and
 * environment reads (`ENV['X']`, `ENV.fetch('X', 'default')`: an env part). Anything else is an opaque
 * `expr` part, so a variable name never becomes a host or a path segment.
 */
import type { Node } from 'web-tree-sitter';
import type { Part, Parts } from '../shared/tree-utils.js';

export function named(node: Node | null | undefined): Node[] {
  return (node?.namedChildren ?? []).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/** A string literal without interpolation, or a symbol's name; undefined otherwise. */
export function rubyLiteral(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type === 'string') {
    const parts = named(node);
    return parts.every((part) => part.type === 'string_content' || part.type === 'escape_sequence')
      ? parts.map((part) => part.text).join('')
      : undefined;
  }
  if (node.type === 'simple_symbol') return node.text.slice(1);
  if (
    node.type === 'hash_key_symbol' ||
    node.type === 'identifier' ||
    node.type === 'bare_symbol' ||
    node.type === 'bare_string'
  ) {
    return node.text;
  }
  return undefined;
}

/** Positional arguments and `key: value` pairs of a call. */
export function callArgs(call: Node): { readonly positional: Node[]; readonly options: Map<string, Node> } {
  const positional: Node[] = [];
  const options = new Map<string, Node>();
  for (const argument of named(call.childForFieldName('arguments'))) {
    if (argument.type === 'pair') {
      const key = rubyLiteral(argument.childForFieldName('key'))?.replace(/:$/, '');
      const value = argument.childForFieldName('value');
      if (key !== undefined && value !== null) options.set(key, value);
    } else {
      positional.push(argument);
    }
  }
  return { positional, options };
}

/** Where names are looked up, as seen from the use site. */
export interface RubyValueScope {
  /** A local variable assigned before the use in the same method. */
  local(name: string): Node | undefined;
  /** `@name`: the value assigned to it in the enclosing class (when only one is). */
  instance(name: string): Node | undefined;
  /** A constant assigned in the file. */
  constant(name: string): Node | undefined;
  /** The same lookups seen from another node. */
  at(node: Node): RubyValueScope;
}

/** Readers whose result is, for a URL, their receiver: `uri.path`, `uri.request_uri`, `url.to_s`. */
const URL_READERS = new Set(['path', 'request_uri', 'to_s', 'freeze', 'chomp']);
const MAX_DEPTH = 8;

function lastIdentifier(node: Node): string {
  const names = node.text.match(/[A-Za-z_]\w*/g);
  return names?.[names.length - 1] ?? 'param';
}

function opaque(node: Node): Parts {
  return [{ t: 'expr', name: lastIdentifier(node) }];
}

/** `ENV['X']`, `ENV.fetch('X')`, `ENV.fetch('X', 'default')`, `ENV.fetch('X') { 'default' }`. */
function envRead(node: Node): Part | undefined {
  if (node.type === 'element_reference') {
    const [object, key] = named(node);
    const name = rubyLiteral(key);
    return object?.text === 'ENV' && name !== undefined && key?.type === 'string'
      ? { t: 'env', name }
      : undefined;
  }
  if (node.type !== 'call' || node.childForFieldName('receiver')?.text !== 'ENV') return undefined;
  if (node.childForFieldName('method')?.text !== 'fetch') return undefined;
  const { positional } = callArgs(node);
  const name = rubyLiteral(positional[0]);
  if (name === undefined) return undefined;
  const blockValue = named(
    named(node.childForFieldName('block')).find((child) => child.type.endsWith('body')),
  )[0];
  const fallback =
    rubyLiteral(positional[1]) ?? (blockValue?.type === 'string' ? rubyLiteral(blockValue) : undefined);
  return fallback === undefined ? { t: 'env', name } : { t: 'env', name, fallback };
}

/** Resolves an expression into parts; unresolvable pieces become `expr` parts. */
export function resolveRuby(node: Node, scope: RubyValueScope, depth = 0): Parts {
  if (depth > MAX_DEPTH) return opaque(node);
  const again = (inner: Node): Parts => resolveRuby(inner, scope.at(inner), depth + 1);
  const env = envRead(node);
  if (env !== undefined) return [env];
  switch (node.type) {
    case 'string':
      return named(node).flatMap((piece): Part[] => {
        if (piece.type !== 'interpolation') return [{ t: 'lit', v: piece.text }];
        const inner = named(piece);
        return inner.length === 1 && inner[0] !== undefined ? [...again(inner[0])] : [...opaque(piece)];
      });
    case 'parenthesized_statements': {
      const inner = named(node);
      return inner.length === 1 && inner[0] !== undefined ? again(inner[0]) : opaque(node);
    }
    case 'binary': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator')?.text;
      if (left !== null && right !== null && operator === '+') return [...again(left), ...again(right)];
      if (left !== null && right !== null && operator === '||') return withFallback(again(left), right);
      return opaque(node);
    }
    case 'identifier':
      return lookUp(scope.local(node.text), node, again);
    case 'instance_variable':
      return lookUp(scope.instance(node.text), node, again);
    case 'constant':
      return lookUp(scope.constant(node.text), node, again);
    case 'call':
      return callParts(node, again);
    default:
      return opaque(node);
  }
}

function lookUp(value: Node | undefined, node: Node, again: (inner: Node) => Parts): Parts {
  return value === undefined ? opaque(node) : again(value);
}

function withFallback(first: Parts, fallbackNode: Node): Parts {
  const only = first.length === 1 ? first[0] : undefined;
  const fallback = rubyLiteral(fallbackNode);
  return only?.t === 'env' && fallback !== undefined && fallbackNode.type === 'string'
    ? [{ ...only, fallback }]
    : first;
}

function callParts(node: Node, again: (inner: Node) => Parts): Parts {
  const receiver = node.childForFieldName('receiver');
  const method = node.childForFieldName('method')?.text ?? '';
  const { positional } = callArgs(node);
  const first = positional[0];
  if (receiver !== null && URL_READERS.has(method) && positional.length === 0) return again(receiver);
  const callee = receiver === null ? method : `${receiver.text}.${method}`;
  if ((callee === 'URI' || callee === 'URI.parse') && first !== undefined) return again(first);
  if ((callee === 'File.join' || callee === 'URI.join') && first !== undefined) {
    return positional.flatMap((part, index): Part[] => [
      ...(index === 0 ? [] : [{ t: 'lit' as const, v: '/' }]),
      ...again(part),
    ]);
  }
  if ((callee === 'format' || callee === 'sprintf') && first?.type === 'string') {
    const format = rubyLiteral(first);
    if (format !== undefined) return formatParts(format, positional.slice(1), again);
  }
  return opaque(node);
}

/** `format('%s/orders/%d', base, id)`: the format's text with its arguments in place. */
function formatParts(format: string, args: readonly Node[], again: (inner: Node) => Parts): Parts {
  const parts: Part[] = [];
  let last = 0;
  let next = 0;
  for (const match of format.matchAll(/%[-+ 0]*\d*(?:\.\d+)?([sdfixX%])/g)) {
    parts.push({ t: 'lit', v: format.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[1] === '%') {
      parts.push({ t: 'lit', v: '%' });
      continue;
    }
    const argument = args[next++];
    parts.push(...(argument === undefined ? [{ t: 'expr' as const, name: 'param' }] : again(argument)));
  }
  parts.push({ t: 'lit', v: format.slice(last) });
  return parts.filter((part) => part.t !== 'lit' || part.v !== '');
}
