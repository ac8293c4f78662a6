/**
 * Go HTTP clients as data: which package functions and client methods send a request, which argument is
 * the URL and which gives the method, and how a configured client carries its base URL (resty
 * `SetBaseURL`); Dapr's SDK invocation (`client.InvokeMethod(ctx, appID, method, verb)`) goes to
 * `service:<appID>`. Adding a library is an entry here plus golden fixtures.
 */
import type { Node } from 'web-tree-sitter';
import { argumentsOf, stringValue, unwrapParens, type GoScope } from './scope.js';
import { emitCall, emitServiceCall, urlParts } from './urls.js';
import type { UrlPart } from '../shared/native-common.js';
import { startLineOf } from '../shared/tree-utils.js';

/** A request call's arguments: a fixed verb or the argument giving it, and the URL's argument. */
export interface GoRequestShape {
  readonly verb?: string;
  readonly method?: number;
  readonly url: number;
}

const fixed = (verb: string): GoRequestShape => ({ verb, url: 0 });

/** net/http package functions (`http.Get(url)`, `http.NewRequest(method, url, body)`). */
export const NET_HTTP_FUNCTIONS: ReadonlyMap<string, GoRequestShape> = new Map([
  ['Get', fixed('GET')],
  ['Head', fixed('HEAD')],
  ['Post', fixed('POST')],
  ['PostForm', fixed('POST')],
  ['NewRequest', { method: 0, url: 1 }],
  ['NewRequestWithContext', { method: 1, url: 2 }],
]);

/** Methods of a `*http.Client` that send a request themselves (`Do` sends one built by `NewRequest`). */
export const HTTP_CLIENT_METHODS: ReadonlyMap<string, GoRequestShape> = new Map([
  ['Get', fixed('GET')],
  ['Head', fixed('HEAD')],
  ['Post', fixed('POST')],
  ['PostForm', fixed('POST')],
]);

/** Clients configured by chained setters, sending requests from a request builder (`client.R()`). */
interface ChainedClient {
  readonly lib: string;
  readonly importPath: RegExp;
  /** Setters that give the client its base URL (first argument). */
  readonly baseSetters: readonly string[];
  /** Methods of the client that start a request (`client.R()`). */
  readonly requestStarters: readonly string[];
  readonly requests: ReadonlyMap<string, GoRequestShape>;
}

const RESTY: ChainedClient = {
  lib: 'resty',
  importPath: /^(github\.com\/go-resty\/resty(\/v\d+)?|resty\.dev\/v\d+)$/,
  baseSetters: ['SetBaseURL', 'SetHostURL'],
  requestStarters: ['R', 'NewRequest'],
  requests: new Map([
    ...['Get', 'Post', 'Put', 'Delete', 'Patch', 'Head', 'Options'].map((name): [string, GoRequestShape] => [
      name,
      fixed(name.toUpperCase()),
    ]),
    ['Execute', { method: 0, url: 1 }],
  ]),
};

const CHAINED_CLIENTS: readonly ChainedClient[] = [RESTY];

/** Dapr's Go SDK: `InvokeMethod*(ctx, appID, methodName, verb, …)` on a client from its `client` package. */
const DAPR = {
  importPath: /^github\.com\/dapr\/go-sdk\/client$/,
  methods: ['InvokeMethod', 'InvokeMethodWithContent', 'InvokeMethodWithCustomContent'],
  appId: 1,
  methodName: 2,
  verb: 3,
} as const;

/** Every method name this file's recognisers look at. */
export const CLIENT_CALL_NAMES: ReadonlySet<string> = new Set([
  ...NET_HTTP_FUNCTIONS.keys(),
  ...CHAINED_CLIENTS.flatMap((client) => [...client.requests.keys()]),
  ...DAPR.methods,
]);

/** A request through resty or Dapr's SDK; true when `call` was one (and its fact is emitted). */
export function chainedClientCall(call: Node, fn: Node, scope: GoScope): boolean {
  const name = fn.childForFieldName('field')?.text ?? '';
  const operand = fn.childForFieldName('operand');
  if (operand === null || !CLIENT_CALL_NAMES.has(name)) return false;
  const imports = [...scope.file.imports.values()];
  if (DAPR.methods.some((method) => method === name) && imports.some((path) => DAPR.importPath.test(path)))
    return daprInvocation(call, name, scope);
  for (const client of CHAINED_CLIENTS) {
    const shape = client.requests.get(name);
    if (shape === undefined || !imports.some((path) => client.importPath.test(path))) continue;
    const started = requestStart(operand, client);
    // A request builder of a type this package declares (`store.R().Get(key)`) is not the library's.
    if (started === undefined || ofPackageType(started, scope, 0)) continue;
    const base = clientBase(started, client, scope, 0);
    return emitShaped(call, shape, `${client.lib} ${name}`, scope, base);
  }
  return false;
}

/**
 * Emits the request `shape` describes in `call`'s arguments; false when its URL or method is missing.
 * `daprApp`: the request goes through the Dapr sidecar to this app (its `dapr-app-id` header).
 */
export function emitShaped(
  call: Node,
  shape: GoRequestShape,
  via: string,
  scope: GoScope,
  base?: readonly UrlPart[],
  daprApp?: string,
): boolean {
  const args = argumentsOf(call);
  const url = args[shape.url];
  const methodArg = shape.method === undefined ? undefined : args[shape.method];
  const verb = shape.verb ?? (methodArg === undefined ? undefined : (methodOf(methodArg, scope) ?? 'ANY'));
  if (url === undefined || verb === undefined) return false;
  const name = call.childForFieldName('function')?.childForFieldName('field') ?? call;
  if (daprApp === undefined) emitCall(verb, url, startLineOf(name), via, scope, base);
  else emitServiceCall(verb, url, `service:${daprApp}`, startLineOf(name), via, scope, true);
  return true;
}

/** The client a request chain starts from: `client.R().SetBody(b).Post(url)` → `client`. */
function requestStart(node: Node, client: ChainedClient): Node | undefined {
  let current = unwrapParens(node);
  for (let i = 0; i < 16 && current.type === 'call_expression'; i++) {
    const fn = current.childForFieldName('function');
    const operand = fn?.childForFieldName('operand');
    if (fn?.type !== 'selector_expression' || operand === null || operand === undefined) return undefined;
    if (client.requestStarters.includes(fn.childForFieldName('field')?.text ?? '')) return operand;
    current = unwrapParens(operand);
  }
  return undefined;
}

/**
 * True when `node` is proven to hold a value of a type declared in this package (a receiver, a variable
 * of type `store` or `*store`, `store{}`, a same-file function returning one), never a library's client.
 */
function ofPackageType(node: Node, scope: GoScope, depth: number): boolean {
  const expr = unwrapParens(node);
  if (depth > 4) return false;
  switch (expr.type) {
    case 'identifier': {
      if (scope.receiver?.name === expr.text) return true;
      const bindings = scope.lookup(expr.text) ?? [];
      return (
        bindings.length > 0 &&
        bindings.every((b) =>
          b.type !== undefined
            ? isPackageType(b.type)
            : b.value !== undefined && ofPackageType(b.value, scope, depth + 1),
        )
      );
    }
    case 'unary_expression':
      return ofPackageType(expr.childForFieldName('operand') ?? expr, scope, depth + 1);
    case 'composite_literal': {
      const type = expr.childForFieldName('type');
      return type !== null && isPackageType(type);
    }
    case 'call_expression': {
      const fn = expr.childForFieldName('function');
      const result = fn?.type === 'identifier' ? scope.file.funcResults.get(fn.text) : undefined;
      return result !== undefined && /^\(?\*?[A-Za-z_]\w*(?![\w.])\s*(,|\)|$)/.test(result);
    }
    default:
      return false;
  }
}

/** `store`, `*store`: a type named without a package qualifier. */
function isPackageType(type: Node): boolean {
  const inner = type.type === 'pointer_type' ? type.namedChild(0) : type;
  return inner?.type === 'type_identifier';
}

/** The base URL a client value was configured with along its construction chain or variable, if any. */
function clientBase(node: Node, client: ChainedClient, scope: GoScope, depth: number): UrlPart[] | undefined {
  const expr = unwrapParens(node);
  if (depth > 4) return undefined;
  if (expr.type === 'identifier') {
    for (const binding of scope.lookup(expr.text) ?? []) {
      const base =
        binding.value === undefined ? undefined : clientBase(binding.value, client, scope, depth + 1);
      if (base !== undefined) return base;
    }
    return undefined;
  }
  if (expr.type !== 'call_expression') return undefined;
  const fn = expr.childForFieldName('function');
  const operand = fn?.childForFieldName('operand');
  if (fn?.type !== 'selector_expression' || operand === null || operand === undefined) return undefined;
  const first = argumentsOf(expr)[0];
  if (client.baseSetters.includes(fn.childForFieldName('field')?.text ?? '') && first !== undefined)
    return urlParts(first, scope);
  return clientBase(operand, client, scope, depth + 1);
}

/** `client.InvokeMethod(ctx, "orders", "create", "post")` → a call to `service:orders` at `/create`. */
function daprInvocation(call: Node, name: string, scope: GoScope): boolean {
  const args = argumentsOf(call);
  const app = args[DAPR.appId];
  const method = args[DAPR.methodName];
  const verbArg = args[DAPR.verb];
  if (app === undefined || method === undefined || verbArg === undefined) return false;
  const appId = stringValue(app, scope)?.value;
  const verb = methodOf(verbArg, scope) ?? 'ANY';
  const line = startLineOf(call.childForFieldName('function')?.childForFieldName('field') ?? call);
  emitServiceCall(
    verb,
    method,
    appId === undefined ? undefined : `service:${appId}`,
    line,
    `dapr ${name}`,
    scope,
  );
  return true;
}

/** An HTTP method from `"GET"`, a constant, or `http.MethodGet`. */
export function methodOf(node: Node, scope: GoScope): string | undefined {
  const expr = unwrapParens(node);
  const literal = stringValue(expr, scope)?.value.toUpperCase();
  if (literal !== undefined) return /^[A-Z]+$/.test(literal) ? literal : undefined;
  if (expr.type !== 'selector_expression') return undefined;
  const operand = expr.childForFieldName('operand');
  const field = expr.childForFieldName('field')?.text ?? '';
  if (operand?.type !== 'identifier' || scope.packagePath(operand.text) !== 'net/http') return undefined;
  return /^Method([A-Z][a-z]+)$/.exec(field)?.[1]?.toUpperCase();
}
