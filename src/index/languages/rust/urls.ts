/**
 * URLs as Rust code builds them: literals, same-file constants, `format!` templates (positional, indexed,
 * named and captured arguments) and variables bound to those, with env-var bases (`std::env::var("X")`,
 * `env!("X")` → `env:X`). What cannot be read becomes a placeholder, never a guess.
 */
import type { Node } from 'web-tree-sitter';
import { placeholderName, type UrlPart } from '../shared/native-common.js';
import {
  agree,
  argumentsOf,
  lastIdentifier,
  macroName,
  methodCall,
  peel,
  rustString,
  stringOfName,
  stringValue,
  tokenTree,
  valuesOf,
  type RustScope,
} from './values.js';

const MAX_DEPTH = 6;

const OPTION_METHODS = new Set([
  'unwrap_or',
  'unwrap_or_else',
  'unwrap_or_default',
  'ok',
  'map_err',
  'context',
  'with_context',
]);

/** `std::env::var("X")` (through `?`, `.unwrap_or_else(…)`, variables) or `env!("X")` → `env:X`. */
export function baseOf(node: Node, scope: RustScope, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const expr = peel(node);
  if (expr.type === 'identifier') {
    const values = valuesOf(expr.text, scope);
    return values === undefined
      ? undefined
      : agree(
          values.map((v) => baseOf(v, scope, depth + 1)),
          (s) => s,
        );
  }
  if (expr.type === 'macro_invocation') {
    const name = macroName(expr);
    const first = tokenTree(expr)?.namedChild(0);
    const key = first === null || first === undefined ? undefined : rustString(first);
    return (name === 'env' || name === 'option_env') && key !== undefined ? `env:${key}` : undefined;
  }
  if (expr.type !== 'call_expression') return undefined;
  const call = methodCall(expr);
  if (call !== undefined)
    return OPTION_METHODS.has(call.name) ? baseOf(call.receiver, scope, depth + 1) : undefined;
  const fn = expr.childForFieldName('function');
  const path = fn === null ? '' : fn.text.replace(/\s+/g, '');
  const envVar =
    /(^|::)env::var(_os)?$/.test(path) ||
    (path === 'var' && /^std::env::var$/.test(scope.file.uses.get('var') ?? ''));
  const first = argumentsOf(expr)[0];
  const key = envVar && first !== undefined ? stringValue(first, scope, depth + 1) : undefined;
  return key === undefined ? undefined : `env:${key}`;
}

/** A URL expression as text and holes: literals, constants, `format!`, variables bound to those. */
export function urlParts(node: Node, scope: RustScope, depth = 0): UrlPart[] {
  const expr = peel(node);
  const literal = stringValue(expr, scope);
  if (literal !== undefined) return [{ kind: 'text', text: literal }];
  const hole = (name: string | undefined): UrlPart[] => {
    const base = baseOf(expr, scope);
    return [{ kind: 'hole', name: placeholderName(name), ...(base === undefined ? {} : { base }) }];
  };
  if (depth > 4) return hole(lastIdentifier(expr));
  if (expr.type === 'identifier') {
    const values = valuesOf(expr.text, scope);
    const only = values?.length === 1 ? values[0] : undefined;
    const inner = only === undefined ? [] : urlParts(only, scope, depth + 1);
    return inner.some((p) => p.kind === 'text') ? inner : hole(expr.text);
  }
  if (expr.type === 'macro_invocation' && macroName(expr) === 'format') {
    const parts = formatParts(expr, scope, depth);
    if (parts !== undefined) return parts;
  }
  return hole(lastIdentifier(expr));
}

/** Splits a `format!` token tree into its template and arguments (positional and `name = value`). */
function formatParts(macro: Node, scope: RustScope, depth: number): UrlPart[] | undefined {
  const tree = tokenTree(macro);
  if (tree === undefined) return undefined;
  const segments: Node[][] = [[]];
  for (const token of tree.children) {
    if (token === null || token.id === tree.firstChild?.id || token.id === tree.lastChild?.id) continue;
    if (token.type === ',') segments.push([]);
    else segments[segments.length - 1]?.push(token);
  }
  const [templateTokens, ...argSegments] = segments;
  const template =
    templateTokens?.length === 1 && templateTokens[0] !== undefined
      ? rustString(templateTokens[0])
      : undefined;
  if (template === undefined) return undefined;
  const positional: Node[][] = [];
  const named = new Map<string, Node[]>();
  for (const segment of argSegments) {
    if (segment.length === 0) continue;
    if (segment.length > 2 && segment[0]?.type === 'identifier' && segment[1]?.type === '=') {
      named.set(segment[0].text, segment.slice(2));
    } else positional.push(segment);
  }
  const argumentParts = (tokens: readonly Node[]): UrlPart[] => {
    const meaningful = tokens.filter((t) => t.type !== '&' && t.type !== '*');
    const single = meaningful.length === 1 ? meaningful[0] : undefined;
    if (single !== undefined) return urlParts(single, scope, depth + 1);
    const identifiers = tokens.flatMap((t) =>
      t.type === 'identifier' ? [t] : t.descendantsOfType('identifier'),
    );
    return [{ kind: 'hole', name: placeholderName(identifiers[identifiers.length - 1]?.text ?? undefined) }];
  };
  const parts: UrlPart[] = [];
  let last = 0;
  let next = 0;
  for (const match of template.matchAll(/\{\{|\}\}|\{([^{}]*)\}/g)) {
    parts.push({ kind: 'text', text: template.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[0] === '{{' || match[0] === '}}') {
      parts.push({ kind: 'text', text: match[0][0] ?? '' });
      continue;
    }
    const name = (match[1] ?? '').split(':')[0]?.trim() ?? '';
    let tokens: Node[] | undefined;
    if (name === '') tokens = positional[next++];
    else if (/^\d+$/.test(name)) tokens = positional[Number(name)];
    else tokens = named.get(name);
    if (tokens !== undefined) parts.push(...argumentParts(tokens));
    else if (/^[A-Za-z_]\w*$/.test(name)) parts.push(...capturedParts(name, scope, depth));
    else return undefined;
  }
  parts.push({ kind: 'text', text: template.slice(last) });
  return parts.filter((p) => p.kind !== 'text' || p.text !== '');
}

/** `format!("{base}/x")` captures `base` from the scope by name. */
function capturedParts(name: string, scope: RustScope, depth: number): UrlPart[] {
  const value = stringOfName(name, scope, depth + 1);
  if (value !== undefined) return [{ kind: 'text', text: value }];
  const values = valuesOf(name, scope);
  const only = values?.length === 1 ? values[0] : undefined;
  const inner = only === undefined ? [] : urlParts(only, scope, depth + 1);
  if (inner.some((p) => p.kind === 'text')) return inner;
  const base = only === undefined ? undefined : baseOf(only, scope, depth + 1);
  return [{ kind: 'hole', name, ...(base === undefined ? {} : { base }) }];
}
