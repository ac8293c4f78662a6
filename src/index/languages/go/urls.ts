/**
 * URLs as Go code builds them: literals, same-file constants, `fmt.Sprintf`, concatenation, `url.JoinPath`
 * and `path.Join`, variables bound to those, struct fields (fields.ts) and `os.Getenv` bases. What cannot
 * be read becomes a placeholder; a URL nothing of which is known is still a call, kept as written.
 */
import type { Node } from 'web-tree-sitter';
import { agree, argumentsOf, lastIdentifier, stringValue, unwrapParens, type GoScope } from './scope.js';
import {
  envHostFirst,
  httpCallConfidence,
  httpTargetOf,
  placeholderName,
  writtenUrl,
  type UrlPart,
} from '../shared/native-common.js';
import { joinHttpPath } from '../shared/tree-utils.js';
import { sidecarRelative } from './dapr-header.js';

/**
 * An `http_call` for `url` sent with `method`; `clientBase` is the base URL a configured client carries
 * (resty `SetBaseURL`), which a relative URL is joined to.
 */
export function emitCall(
  method: string,
  url: Node,
  line: number,
  via: string,
  scope: GoScope,
  clientBase?: readonly UrlPart[],
): void {
  const parts = envHostFirst(mergeText(urlParts(url, scope)));
  const relative = parts[0]?.kind === 'text' && parts[0].text.startsWith('/');
  const base = clientBase === undefined || !relative ? undefined : envHostFirst(mergeText(clientBase));
  const target = httpTargetOf(base === undefined ? parts : mergeText([...base, ...parts]));
  // Nothing of the path is known: the client's base, or an env read the URL starts with, still is.
  const lead = parts[0]?.kind === 'hole' ? parts[0].base : undefined;
  const known =
    base === undefined
      ? lead === undefined
        ? undefined
        : { path: '/', base: lead }
      : httpTargetOf([...base, { kind: 'text', text: '/' }]);
  scope.file.facts.addContract({
    kind: 'http_call',
    method,
    path: target?.path ?? (known === undefined ? '/' : joinHttpPath(known.path)),
    ...(target?.base !== undefined
      ? { base: target.base }
      : known?.base !== undefined
        ? { base: known.base }
        : {}),
    ...(target === undefined ? { unresolved: writtenUrl(url) } : {}),
    symbol: scope.symbol,
    line,
    confidence: target === undefined ? 'heuristic' : httpCallConfidence(true, target),
    via,
  });
}

/**
 * A call to a service named by the code (Dapr's app id) at the path `pathNode` gives, relative to its root.
 * `sidecarUrl`: `pathNode` is a whole URL to the Dapr sidecar (a `dapr-app-id` header names the app), whose
 * path is the app's.
 */
export function emitServiceCall(
  method: string,
  pathNode: Node,
  service: string | undefined,
  line: number,
  via: string,
  scope: GoScope,
  sidecarUrl = false,
): void {
  const written = urlParts(pathNode, scope);
  const parts = mergeText(sidecarUrl ? sidecarRelative(mergeText(written)) : written);
  const named = parts.some((p) => p.kind === 'text' && p.text.trim() !== '');
  const rooted = parts[0]?.kind === 'text' && parts[0].text.startsWith('/');
  const target = named
    ? httpTargetOf(mergeText(rooted ? parts : [{ kind: 'text', text: '/' }, ...parts]))
    : undefined;
  scope.file.facts.addContract({
    kind: 'http_call',
    method,
    path: target?.path ?? '/',
    ...(service === undefined ? {} : { base: service }),
    ...(target === undefined ? { unresolved: writtenUrl(pathNode) } : {}),
    symbol: scope.symbol,
    line,
    confidence:
      target?.resolved === true && service !== undefined && method !== 'ANY' ? 'exact' : 'heuristic',
    via,
  });
}

function mergeText(parts: readonly UrlPart[]): UrlPart[] {
  const out: UrlPart[] = [];
  for (const part of parts) {
    const previous = out[out.length - 1];
    if (part.kind === 'text' && previous?.kind === 'text')
      out[out.length - 1] = { kind: 'text', text: previous.text + part.text };
    else out.push(part);
  }
  return out;
}

/** A URL expression as text and holes: literals, constants, `fmt.Sprintf`, `+`, joins, fields, variables. */
export function urlParts(node: Node, scope: GoScope, depth = 0): UrlPart[] {
  const expr = unwrapParens(node);
  const literal = stringValue(expr, scope);
  if (literal !== undefined) return [{ kind: 'text', text: literal.value }];
  if (expr.type === 'int_literal') return [{ kind: 'text', text: expr.text }];
  const hole = (): UrlPart[] => {
    const base = baseOf(expr, scope, 0);
    return [
      { kind: 'hole', name: placeholderName(lastIdentifier(expr)), ...(base === undefined ? {} : { base }) },
    ];
  };
  if (depth > 4) return hole();
  if (expr.type === 'identifier') {
    const values = (scope.lookup(expr.text) ?? []).filter((b) => b.value !== undefined);
    const only = values.length === 1 ? values[0]?.value : undefined;
    const inner = only === undefined ? [] : urlParts(only, scope, depth + 1);
    return inner.some((p) => p.kind === 'text' || p.base !== undefined) ? inner : hole();
  }
  if (expr.type === 'selector_expression') {
    const field = fieldParts(expr, scope);
    if (field !== undefined) return field;
  }
  if (expr.type === 'binary_expression' && expr.childForFieldName('operator')?.type === '+') {
    const left = expr.childForFieldName('left');
    const right = expr.childForFieldName('right');
    if (left !== null && right !== null)
      return [...urlParts(left, scope, depth + 1), ...urlParts(right, scope, depth + 1)];
  }
  if (expr.type === 'call_expression') {
    const parts = sprintfParts(expr, scope, depth) ?? joinParts(expr, scope, depth);
    if (parts !== undefined) return parts;
  }
  return hole();
}

/** `cs.shippingAddr`: what the file assigns that field (fields.ts), when it says anything. */
function fieldParts(expr: Node, scope: GoScope): UrlPart[] | undefined {
  const operand = expr.childForFieldName('operand');
  if (operand?.type === 'identifier' && scope.packagePath(operand.text) !== undefined) return undefined;
  const field = expr.childForFieldName('field')?.text;
  const parts = field === undefined ? undefined : scope.file.fieldValues.get(field);
  if (parts === undefined || parts === null) return undefined;
  return parts.some((p) => p.kind === 'text' || p.base !== undefined) ? parts : undefined;
}

/** The package of a `pkg.Func(…)` call and the function's name; undefined for other calls. */
function packageCall(
  call: Node,
  scope: GoScope,
): { readonly pkg: string; readonly name: string } | undefined {
  const fn = call.childForFieldName('function');
  const operand = fn?.childForFieldName('operand');
  if (fn?.type !== 'selector_expression' || operand?.type !== 'identifier') return undefined;
  const pkg = scope.packagePath(operand.text);
  const name = fn.childForFieldName('field')?.text;
  return pkg === undefined || name === undefined ? undefined : { pkg, name };
}

/** `url.JoinPath(base, "orders", id)` and `path.Join(…)`: the elements with `/` between them. */
function joinParts(call: Node, scope: GoScope, depth: number): UrlPart[] | undefined {
  const callee = packageCall(call, scope);
  const joins =
    (callee?.pkg === 'net/url' && callee.name === 'JoinPath') ||
    (callee?.pkg === 'path' && callee.name === 'Join');
  if (!joins) return undefined;
  return argumentsOf(call).flatMap((arg, i) => [
    ...(i === 0 ? [] : [{ kind: 'text' as const, text: '/' }]),
    ...urlParts(arg, scope, depth + 1),
  ]);
}

function sprintfParts(call: Node, scope: GoScope, depth: number): UrlPart[] | undefined {
  const callee = packageCall(call, scope);
  if (callee?.pkg !== 'fmt' || callee.name !== 'Sprintf') return undefined;
  const [format, ...args] = argumentsOf(call);
  const text = format === undefined ? undefined : stringValue(format, scope)?.value;
  if (text === undefined || text.includes('%[')) return undefined;
  const parts: UrlPart[] = [];
  let last = 0;
  let next = 0;
  for (const match of text.matchAll(/%[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?([a-zA-Z%])/g)) {
    parts.push({ kind: 'text', text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[1] === '%') {
      parts.push({ kind: 'text', text: '%' });
      continue;
    }
    const arg = args[next++];
    if (arg === undefined) return undefined;
    parts.push(...urlParts(arg, scope, depth + 1));
  }
  parts.push({ kind: 'text', text: text.slice(last) });
  return parts.filter((p) => p.kind !== 'text' || p.text !== '');
}

/** Where a leading URL value comes from: `os.Getenv("X")` → `env:X` (also through variables and `strings.Trim*`). */
export function baseOf(node: Node, scope: GoScope, depth: number): string | undefined {
  const expr = unwrapParens(node);
  if (depth > 4) return undefined;
  if (expr.type === 'identifier') {
    return agree(scope.lookup(expr.text), (b) =>
      b.value === undefined ? undefined : baseOf(b.value, scope, depth + 1),
    );
  }
  if (expr.type !== 'call_expression') return undefined;
  const callee = packageCall(expr, scope);
  const first = argumentsOf(expr)[0];
  if (callee === undefined || first === undefined) return undefined;
  if (callee.pkg === 'os' && (callee.name === 'Getenv' || callee.name === 'LookupEnv')) {
    const key = stringValue(first, scope)?.value;
    return key === undefined ? undefined : `env:${key}`;
  }
  if (callee.pkg === 'strings' && /^Trim/.test(callee.name)) return baseOf(first, scope, depth + 1);
  return undefined;
}
