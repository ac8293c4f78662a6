/**
 * Elixir value resolution for URLs: a string (with `#{…}` interpolation), a `<>` concatenation, a module
 * attribute (`@base_url`), a variable bound earlier in the same function, an environment read
 * (`System.get_env("X")`) or an application config read (`Application.get_env(:app, :key)`) becomes parts; anything else stays an opaque `expr` part, so a variable name
 * never becomes a host or a path segment.
 */
import type { Node } from 'web-tree-sitter';
import type { Part, Parts } from '../shared/tree-utils.js';
import {
  atomName,
  attributeOf,
  callArgs,
  callName,
  literalString,
  named,
  operatorOf,
  pipedArgs,
} from './syntax.js';

/**
 * Where names are looked up, as seen from the use: the module's attributes, the function's variables and
 * the module's zero-arity functions whose body is one expression (`def base_url, do: "https://…"`).
 */
export interface ValueScope {
  attribute(name: string): Node | undefined;
  local(name: string): Node | undefined;
  function(name: string): Node | undefined;
}

const ENV_READERS = new Set(['get_env', 'fetch_env!', 'fetch_env']);
/** Attributes and variables may refer to each other; a cycle (`@a @b`, `@b @a`) stops here. */
const MAX_DEPTH = 8;

/** `System.get_env("X")`, `System.get_env("X", "default")`, `System.fetch_env!("X")` → an env part. */
export function envRead(node: Node): Part | undefined {
  if (node.type !== 'call') return undefined;
  const name = callName(node);
  if (name?.receiver !== 'System' || !ENV_READERS.has(name.name)) return undefined;
  const { positional } = callArgs(node);
  const key = literalString(positional[0]);
  if (key === undefined) return undefined;
  const fallback = name.name === 'get_env' ? literalString(positional[1]) : undefined;
  return fallback === undefined ? { t: 'env', name: key } : { t: 'env', name: key, fallback };
}

const CONFIG_READERS = new Set(['get_env', 'fetch_env!', 'fetch_env']);

/** `Application.get_env(:shop, :orders_url)`, `Application.fetch_env!(:shop, :orders_url)` → a config part `shop.orders_url`. */
export function configRead(node: Node): Part | undefined {
  const name = callName(node);
  if (name?.receiver !== 'Application' || !CONFIG_READERS.has(name.name)) return undefined;
  const { positional } = callArgs(node);
  const app = atomName(positional[0]);
  const key = atomName(positional[1]) ?? positional[1]?.text;
  if (app === undefined || key === undefined || !/^[\w.]+$/.test(key)) return undefined;
  const fallback = name.name === 'get_env' ? literalString(positional[2]) : undefined;
  const full = `${app}.${key}`;
  return fallback === undefined ? { t: 'config', key: full } : { t: 'config', key: full, fallback };
}

/** The last identifier of an expression, to name a placeholder (`order.id` → `id`). */
function lastIdentifier(node: Node): string {
  const names = node.text.match(/[A-Za-z_]\w*/g);
  return names?.[names.length - 1] ?? 'param';
}

/** Resolves an expression into parts; unresolvable pieces become `expr` parts. */
export function resolveParts(node: Node, scope: ValueScope, depth = 0): Parts {
  if (depth > MAX_DEPTH) return [{ t: 'expr', name: lastIdentifier(node) }];
  switch (node.type) {
    case 'string':
      return stringParts(node, scope, depth);
    case 'binary_operator': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (operatorOf(node) === '<>' && left !== null && right !== null)
        return [...resolveParts(left, scope, depth + 1), ...resolveParts(right, scope, depth + 1)];
      break;
    }
    case 'unary_operator': {
      const attribute = attributeOf(node);
      const value = attribute?.call === undefined ? scope.attribute(attribute?.name ?? '') : undefined;
      if (attribute !== undefined && value !== undefined) return resolveParts(value, scope, depth + 1);
      break;
    }
    case 'identifier': {
      // Only a variable: a bare name calling a function is deprecated, and a parameter may share the name.
      const value = scope.local(node.text);
      if (value !== undefined) return resolveParts(value, scope, depth + 1);
      break;
    }
    case 'call': {
      const env = envRead(node) ?? configRead(node);
      if (env !== undefined) return [env];
      // `base_url()`: a zero-arity function of the module whose body is one expression.
      const name = callName(node);
      const body =
        name?.receiver === undefined && pipedArgs(node).positional.length === 0
          ? scope.function(name?.name ?? '')
          : undefined;
      if (body !== undefined) return resolveParts(body, scope, depth + 1);
      break;
    }
    case 'block': {
      const inner = named(node);
      if (inner.length === 1 && inner[0] !== undefined) return resolveParts(inner[0], scope, depth + 1);
      break;
    }
    default:
      break;
  }
  return [{ t: 'expr', name: lastIdentifier(node) }];
}

function stringParts(node: Node, scope: ValueScope, depth: number): Parts {
  const parts: Part[] = [];
  for (const piece of named(node)) {
    if (piece.type === 'interpolation') {
      const inner = named(piece);
      const expression = inner.length === 1 ? inner[0] : undefined;
      parts.push(
        ...(expression === undefined
          ? [{ t: 'expr' as const, name: lastIdentifier(piece) }]
          : resolveParts(expression, scope, depth + 1)),
      );
    } else {
      parts.push({ t: 'lit', v: piece.text });
    }
  }
  return parts;
}
