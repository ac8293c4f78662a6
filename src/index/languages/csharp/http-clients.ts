/**
 * The C# HTTP clients meshlens reads, as data: which calls send a request (and with which HTTP method),
 * which build a client or a request message, which register a client's base address, and the attributes
 * of declarative clients. The walk (`http-calls.ts`) applies these tables; adding a library that calls
 * like one of these is an entry here plus golden cases.
 */
import type { Node } from 'web-tree-sitter';
import { csArguments, csDotted, csLiteral, resolveCs, type CsValueScope } from './values.js';
import type { Parts } from '../shared/tree-utils.js';

/**
 * `HttpClient` request methods and the HTTP method each sends; the URL is the first argument (or the
 * named `requestUri`). A `distinctive` name is a request on any receiver not known to be something else;
 * the others (`GetAsync` is also a repository's method) need a receiver known to be an `HttpClient` or
 * named like one.
 */
export const HTTP_CLIENT_METHODS: ReadonlyMap<
  string,
  { readonly verb: string; readonly distinctive: boolean }
> = new Map([
  ['GetAsync', { verb: 'GET', distinctive: false }],
  ['GetStringAsync', { verb: 'GET', distinctive: true }],
  ['GetStreamAsync', { verb: 'GET', distinctive: true }],
  ['GetByteArrayAsync', { verb: 'GET', distinctive: true }],
  ['GetFromJsonAsync', { verb: 'GET', distinctive: true }],
  ['PostAsync', { verb: 'POST', distinctive: false }],
  ['PostAsJsonAsync', { verb: 'POST', distinctive: true }],
  ['PutAsync', { verb: 'PUT', distinctive: false }],
  ['PutAsJsonAsync', { verb: 'PUT', distinctive: true }],
  ['PatchAsync', { verb: 'PATCH', distinctive: false }],
  ['PatchAsJsonAsync', { verb: 'PATCH', distinctive: true }],
  ['DeleteAsync', { verb: 'DELETE', distinctive: false }],
  ['DeleteFromJsonAsync', { verb: 'DELETE', distinctive: true }],
]);

/** Sends a request message built elsewhere (`new HttpRequestMessage(HttpMethod.Get, url)`). */
export const SEND_METHODS: ReadonlySet<string> = new Set(['SendAsync', 'Send']);

/**
 * Dependency-injection registrations whose configuration lambda may set `BaseAddress`: named clients
 * (`AddHttpClient("orders", c => …)`), typed clients (`AddHttpClient<OrdersClient>(c => …)`, the
 * implementation being the last type argument), Refit clients (`AddRefitClient<IOrdersApi>()`) and the
 * `ConfigureHttpClient(c => …)` chained to any of them.
 */
export const CLIENT_REGISTRATIONS: ReadonlySet<string> = new Set([
  'AddHttpClient',
  'AddRefitClient',
  'ConfigureHttpClient',
]);

/**
 * Declarative clients: an interface whose methods carry the request as an attribute (`[Get("/orders/{id}")]`),
 * read only in a file importing the library's namespace; `For<IApi>(baseUrl)` on the factory builds one
 * with its base address.
 */
export const DECLARATIVE_CLIENTS: readonly {
  readonly library: string;
  readonly factory: string;
}[] = [
  { library: 'Refit', factory: 'RestService' },
  { library: 'RestEase', factory: 'RestClient' },
];

export const DECLARATIVE_VERBS: ReadonlyMap<string, string> = new Map([
  ['Get', 'GET'],
  ['Post', 'POST'],
  ['Put', 'PUT'],
  ['Patch', 'PATCH'],
  ['Delete', 'DELETE'],
  ['Head', 'HEAD'],
  ['Options', 'OPTIONS'],
]);

/**
 * Dapr service invocation on a `DaprClient`: `InvokeMethodAsync([HttpMethod.X,] "app-id", "method", …)`
 * (POST unless a method is given), the same for `InvokeMethodWithResponseAsync`; a request message
 * built by `CreateInvokeMethodRequest` is sent by the same methods. The app id is the target service.
 */
export const DAPR_INVOKE_METHODS: ReadonlySet<string> = new Set([
  'InvokeMethodAsync',
  'InvokeMethodWithResponseAsync',
]);
export const DAPR_REQUEST_BUILDER = 'CreateInvokeMethodRequest';
/** `DaprClient.CreateInvokeHttpClient("app-id")`: an `HttpClient` whose requests go to the app. */
export const DAPR_HTTP_CLIENT = 'CreateInvokeHttpClient';
export const DAPR_DEFAULT_VERB = 'POST';

/** `HttpMethod.Get` → `GET`; `new HttpMethod("PATCH")` → `PATCH`. */
export function httpMethodName(node: Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  const path = csDotted(node);
  if (path?.startsWith('HttpMethod.') === true) return path.slice(11).toUpperCase();
  if (
    node.type === 'object_creation_expression' &&
    csDotted(node.childForFieldName('type')) === 'HttpMethod'
  ) {
    return csLiteral(csArguments(node.childForFieldName('arguments')).positional[0])?.toUpperCase();
  }
  return undefined;
}

/** A Dapr invocation's target: the app id, the method's path, the HTTP method. */
export interface DaprTarget {
  readonly verb: string;
  readonly appId: Parts;
  readonly method: Parts;
  readonly expression: string;
}

/** Reads `([HttpMethod.X,] "app-id", "method", …)`; undefined when the arguments are no such target. */
export function daprTarget(invocation: Node, scope: CsValueScope): DaprTarget | undefined {
  const { positional, named } = csArguments(invocation.childForFieldName('arguments'));
  const verb = httpMethodName(positional[0] ?? named.get('httpMethod'));
  const rest = verb === undefined ? positional : positional.slice(1);
  const appId = rest[0] ?? named.get('appId');
  const method = rest[1] ?? named.get('methodName');
  if (appId === undefined || method === undefined) return undefined;
  const appParts = resolveCs(appId, scope);
  if (appParts.length === 0) return undefined;
  return {
    verb: verb ?? DAPR_DEFAULT_VERB,
    appId: appParts,
    method: [{ t: 'lit', v: '/' }, ...resolveCs(method, scope)],
    expression: `${appId.text}, ${method.text}`,
  };
}
