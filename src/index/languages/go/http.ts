/**
 * Go HTTP: routes registered on net/http muxes (including Go 1.22 `"GET /x/{id}"` patterns), gin, echo,
 * chi (with `Route` prefixes), gorilla/mux (`.Methods(…)`, `PathPrefix(…).Subrouter()`), fiber and
 * httprouter (a path behind an env-or-empty base is its literal suffix, see `routeText`); calls through
 * `http.Get/Post/NewRequest…` and proven `*http.Client` values, with URLs read from literals, same-file
 * constants, `fmt.Sprintf` and concatenation.
 */
import type { Node } from 'web-tree-sitter';
import {
  agree,
  argumentsOf,
  isHttpClientType,
  stringValue,
  typeOfExpr,
  unwrapParens,
  type GoScope,
} from './scope.js';
import {
  chainedClientCall,
  CLIENT_CALL_NAMES,
  emitShaped,
  HTTP_CLIENT_METHODS,
  methodOf,
  NET_HTTP_FUNCTIONS,
} from './http-clients.js';
import { baseOf } from './urls.js';
import { daprAppIdHeader } from './dapr-header.js';
import { daprInvocationHandler, DAPR_HANDLER_METHODS } from './dapr-handlers.js';
import { joinHttpPath, startLineOf } from '../shared/tree-utils.js';

const VERBS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE'];
const CAPITALISED = new Map(VERBS.map((v) => [v[0] + v.slice(1).toLowerCase(), v]));
/** Every method name a route or call recogniser looks at; other calls are not examined further. */
const HTTP_NAMES = new Set([
  ...VERBS,
  ...CAPITALISED.keys(),
  ...CLIENT_CALL_NAMES,
  ...DAPR_HANDLER_METHODS,
  'Any',
  'All',
  'Handle',
  'HandleFunc',
  'HandlerFunc',
  'Method',
  'MethodFunc',
  'Add',
  'Route',
  'Group',
]);

/** Func literal start → the router parameter it receives and that router's path prefix (chi callbacks). */
export type Callbacks = Map<number, { readonly name: string; readonly prefix: string }>;

/** Routes and calls made through the call `call` whose function is `fn`. */
export function goHttpCall(call: Node, fn: Node, scope: GoScope, callbacks: Callbacks): void {
  if (fn.type !== 'selector_expression') return;
  const operand = fn.childForFieldName('operand');
  const nameNode = fn.childForFieldName('field');
  if (operand === null || nameNode === null) return;
  const name = nameNode.text;
  if (!HTTP_NAMES.has(name)) return;
  const args = argumentsOf(call);
  const pkg = operand.type === 'identifier' ? scope.packagePath(operand.text) : undefined;

  if (pkg === 'net/http') {
    const request = NET_HTTP_FUNCTIONS.get(name);
    // `http.NewRequest` builds the request `client.Do(req)` sends: the call is read where it is built.
    const via = name.startsWith('NewRequest') ? `http.${name}` : `net/http ${name}`;
    const daprApp = name.startsWith('NewRequest') ? daprAppIdHeader(call, scope) : undefined;
    if (request !== undefined) emitShaped(call, request, via, scope, undefined, daprApp);
    else if ((name === 'Handle' || name === 'HandleFunc') && args.length >= 2) {
      emitPatternRoute(call, args[0], '', `net/http ${name}`, scope);
    }
    return;
  }
  if (pkg !== undefined || chainedClientCall(call, fn, scope) || daprInvocationHandler(call, name, scope))
    return;

  const clientMethod = HTTP_CLIENT_METHODS.get(name);
  if (clientMethod !== undefined && args[0] !== undefined && isHttpClient(operand, scope, 0)) {
    emitShaped(call, clientMethod, `http.Client ${name}`, scope);
    return;
  }
  const router = scope.file.router;
  if (router === undefined) return;
  const via = `${router} ${name}`;
  const last = args[args.length - 1];
  if ((name === 'Route' || name === 'Group') && last?.type === 'func_literal') {
    // chi: `r.Route("/orders", func(r chi.Router) { r.Get("/{id}", …) })` — the callback's router is prefixed.
    const path =
      name === 'Route' && args.length === 2 && args[0] !== undefined
        ? stringValue(args[0], scope)?.value
        : '';
    const param = last
      .childForFieldName('parameters')
      ?.namedChildren.find((n) => n?.type === 'parameter_declaration');
    const paramName = param?.childForFieldName('name')?.text;
    if (path !== undefined && paramName !== undefined) {
      callbacks.set(last.startIndex, {
        name: paramName,
        prefix: joinPrefix(prefixOf(operand, scope, 0), path),
      });
    }
    return;
  }
  const prefix = (): string => prefixOf(operand, scope, 0);
  const upper = VERBS.includes(name) ? name : name === 'Any' ? 'ANY' : undefined;
  const capitalised = CAPITALISED.get(name) ?? (name === 'All' ? 'ANY' : undefined);
  const verb = router === 'net/http' ? undefined : (upper ?? capitalised);
  if (verb !== undefined && args.length >= 2) {
    emitRoute([verb], args[0], prefix(), via, scope);
  } else if ((name === 'Handle' || name === 'HandleFunc' || name === 'HandlerFunc') && args.length >= 2) {
    const first = args[0] === undefined ? undefined : methodOf(args[0], scope);
    if (args.length >= 3 && first !== undefined && VERBS.includes(first))
      emitRoute([first], args[1], prefix(), via, scope);
    else emitPatternRoute(call, args[0], prefix(), via, scope);
  } else if ((name === 'Method' || name === 'MethodFunc' || name === 'Add') && args.length >= 3) {
    const method = args[0] === undefined ? undefined : methodOf(args[0], scope);
    if (method !== undefined) emitRoute([method], args[1], prefix(), via, scope);
  }
}

function joinPrefix(prefix: string, path: string): string {
  return prefix === '' && path === '' ? '' : joinHttpPath(prefix, path);
}

/** The path prefix a router value carries: gin/echo/fiber `Group("/x")`, gorilla `PathPrefix("/x").Subrouter()`, chi callbacks. */
function prefixOf(node: Node, scope: GoScope, depth: number): string {
  const expr = unwrapParens(node);
  if (depth > 6) return '';
  if (expr.type === 'identifier') {
    const bindings = scope.lookup(expr.text) ?? [];
    const withPrefix = bindings.find((b) => b.prefix !== undefined);
    if (withPrefix?.prefix !== undefined) return withPrefix.prefix;
    return (
      agree(bindings, (b) => (b.value === undefined ? undefined : prefixOf(b.value, scope, depth + 1))) ?? ''
    );
  }
  if (expr.type !== 'call_expression') return '';
  const fn = expr.childForFieldName('function');
  if (fn?.type !== 'selector_expression') return '';
  const operand = fn.childForFieldName('operand');
  const name = fn.childForFieldName('field')?.text;
  if (operand === null) return '';
  const first = argumentsOf(expr)[0];
  if ((name === 'Group' || name === 'Route' || name === 'PathPrefix') && first !== undefined) {
    const path = routeText(first, scope);
    return path === undefined ? '' : joinPrefix(prefixOf(operand, scope, depth + 1), path);
  }
  if (name === 'Subrouter' || name === 'With') return prefixOf(operand, scope, depth + 1);
  return '';
}

/** Go 1.22 mux patterns (`"GET example.com/items/{id...}"`), and gorilla's `.Methods("GET", "POST")` chain. */
function emitPatternRoute(
  call: Node,
  pattern: Node | undefined,
  prefix: string,
  via: string,
  scope: GoScope,
): void {
  if (pattern === undefined) return;
  const text = routeText(pattern, scope);
  if (text === undefined) return;
  const match = /^([A-Z]+)\s+(\S*)$/.exec(text.trim());
  const rawPath = match?.[2] ?? text.trim();
  const path = rawPath.startsWith('/') ? rawPath : rawPath.slice(Math.max(rawPath.indexOf('/'), 0));
  if (!path.startsWith('/')) return;
  let methods = match?.[1] === undefined ? ['ANY'] : [match[1]];
  const chained = call.parent;
  if (chained?.type === 'selector_expression' && chained.childForFieldName('field')?.text === 'Methods') {
    const methodsCall = chained.parent;
    const listed =
      methodsCall?.type === 'call_expression' ? argumentsOf(methodsCall).map((a) => methodOf(a, scope)) : [];
    const known = listed.filter((m): m is string => m !== undefined);
    if (known.length > 0) methods = known;
  }
  // net/http's ServeMux: a pattern ending in `/` serves its whole subtree (`/job/` answers `/job/42`).
  const subtree = via.startsWith('net/http ') && path.length > 1 && path.endsWith('/');
  emitRouteText(methods, subtree ? `${path}{rest...}` : path, startLineOf(pattern), prefix, via, scope);
}

/**
 * A route path as registered. `baseUrl + "/cart"` where `baseUrl` is only ever `""` or read from the
 * environment (Online Boutique's `BASE_URL`) is a deployment prefix — where a proxy mounts the service,
 * not part of the API — so the route is its literal suffix `/cart`. A base with any other value (a
 * literal `"/api"` next to an env read, a parameter, a call) leaves the route unknown.
 */
function routeText(node: Node, scope: GoScope): string | undefined {
  const value = stringValue(node, scope)?.value;
  if (value !== undefined) return value;
  const expr = unwrapParens(node);
  if (expr.type !== 'binary_expression' || expr.childForFieldName('operator')?.type !== '+') return undefined;
  const left = expr.childForFieldName('left');
  const right = expr.childForFieldName('right');
  const suffix = right === null ? undefined : stringValue(right, scope)?.value;
  if (left === null || suffix === undefined || !suffix.startsWith('/')) return undefined;
  return isDeploymentPrefix(left, scope, 0) ? suffix : undefined;
}

function isDeploymentPrefix(node: Node, scope: GoScope, depth: number): boolean {
  const expr = unwrapParens(node);
  if (depth > 4) return false;
  if (expr.type === 'call_expression') return baseOf(expr, scope, 0)?.startsWith('env:') === true;
  if (expr.type !== 'identifier') return false;
  const bindings = scope.lookup(expr.text) ?? [];
  return (
    bindings.length > 0 &&
    bindings.every(
      (b) =>
        b.value !== undefined &&
        (stringValue(b.value, scope)?.value === '' || isDeploymentPrefix(b.value, scope, depth + 1)),
    )
  );
}

function emitRoute(
  methods: readonly string[],
  pathNode: Node | undefined,
  prefix: string,
  via: string,
  scope: GoScope,
): void {
  if (pathNode === undefined) return;
  const path = routeText(pathNode, scope);
  if (path === undefined || !path.startsWith('/')) return;
  emitRouteText(methods, path, startLineOf(pathNode), prefix, via, scope);
}

function emitRouteText(
  methods: readonly string[],
  raw: string,
  line: number,
  prefix: string,
  via: string,
  scope: GoScope,
): void {
  // Go-specific spellings the shared normaliser does not know: `{rest...}`, `{$}` (exact match), gin's `*rest`.
  const path = raw
    .replace(/\{([A-Za-z_]\w*)\.\.\.\}/g, '{$1}')
    .replace(/\{\$\}/g, '')
    .replace(/(^|\/)\*([A-Za-z_]\w*)/g, '$1{$2}');
  for (const method of methods) {
    scope.file.facts.addContract({
      kind: 'http_route',
      method,
      path: joinHttpPath(prefix, path),
      symbol: scope.symbol,
      line,
      via,
    });
  }
}

function isHttpClient(node: Node, scope: GoScope, depth: number): boolean {
  const expr = unwrapParens(node);
  if (depth > 4) return false;
  switch (expr.type) {
    case 'identifier': {
      const bindings = scope.lookup(expr.text) ?? [];
      return bindings.some((b) =>
        b.type !== undefined
          ? isHttpClientType(b.type, scope.file)
          : b.value !== undefined && isHttpClient(b.value, scope, depth + 1),
      );
    }
    case 'unary_expression':
      return isHttpClient(expr.childForFieldName('operand') ?? expr, scope, depth + 1);
    case 'composite_literal': {
      const type = expr.childForFieldName('type');
      return type !== null && isHttpClientType(type, scope.file);
    }
    case 'selector_expression': {
      const owner = expr.childForFieldName('operand');
      const field = expr.childForFieldName('field')?.text ?? '';
      if (owner?.type === 'identifier' && scope.packagePath(owner.text) === 'net/http')
        return field === 'DefaultClient';
      const type = owner === null ? undefined : typeOfExpr(owner, scope);
      const fields = type === undefined ? undefined : scope.file.httpClientFields.get(type);
      return fields?.has(field) ?? scope.file.anyHttpClientField.has(field);
    }
    default:
      return false;
  }
}
