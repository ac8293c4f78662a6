/**
 * JVM HTTP client libraries as data: which calls make a request, on which receivers, which argument holds
 * the URL and which the HTTP method. Java and Kotlin read their own trees into the readers of `http.ts`
 * and `client-calls.ts`; adding a library is an entry here plus fixtures.
 */

/** A call on a client object whose arguments hold the URL (and maybe the method or target service). */
export interface DirectCall {
  /** The HTTP method; absent when it is read from an argument (see `methodArguments`). */
  readonly method?: string;
  /** Where the method is named (`HttpMethod.PUT`, `HttpExtension.POST`): the first of these that names one. */
  readonly methodArguments?: readonly number[];
  /** The URL (or, with `service`, the path) argument. */
  readonly url: number;
  /** The argument naming the target service (a Dapr app id): the call's base is `service:<name>`. */
  readonly service?: number;
  /** Method used when `methodArguments` name none (`HttpExtension.NONE` is a plain invocation). */
  readonly defaultMethod?: string;
}

/** A client library whose requests are single calls on a client object. */
export interface DirectClient {
  readonly via: string;
  /** Receiver types (simple names) that are this client. */
  readonly types: ReadonlySet<string>;
  /**
   * A receiver type whose simple name ends with this also counts: subclasses named after their base
   * (`OAuth2RestTemplate`, `LoadBalancedRestTemplate`).
   */
  readonly typeSuffix?: string;
  /** A receiver of unknown type counts (as a heuristic) when its name matches. */
  readonly namePattern: RegExp;
  readonly calls: Readonly<Record<string, DirectCall>>;
}

const url0 = (method: string): DirectCall => ({ method, url: 0 });

/** Spring `RestTemplate` (and `RestOperations`, test and OAuth2 variants). */
export const REST_TEMPLATE: DirectClient = {
  via: 'RestTemplate',
  types: new Set(['RestTemplate', 'TestRestTemplate', 'RestOperations']),
  typeSuffix: 'RestTemplate',
  namePattern: /resttemplate$/i,
  calls: {
    getForObject: url0('GET'),
    getForEntity: url0('GET'),
    postForObject: url0('POST'),
    postForEntity: url0('POST'),
    postForLocation: url0('POST'),
    put: url0('PUT'),
    delete: url0('DELETE'),
    patchForObject: url0('PATCH'),
    headForHeaders: url0('HEAD'),
    optionsForAllow: url0('OPTIONS'),
    exchange: { methodArguments: [1], url: 0 },
    execute: { methodArguments: [1], url: 0 },
  },
};

/** Ktor client: `client.get("…")`, `client.post(url) { setBody(…) }`. */
export const KTOR_CLIENT: DirectClient = {
  via: 'Ktor HttpClient',
  types: new Set(['HttpClient']),
  namePattern: /httpclient$/i,
  calls: {
    get: url0('GET'),
    post: url0('POST'),
    put: url0('PUT'),
    delete: url0('DELETE'),
    patch: url0('PATCH'),
    head: url0('HEAD'),
    options: url0('OPTIONS'),
  },
};

/**
 * Dapr service invocation: `daprClient.invokeMethod(appId, method, data, HttpExtension.POST, …)` (also
 * without data). `HttpExtension.NONE` carries no verb: Dapr then invokes with POST.
 */
export const DAPR_CLIENT: DirectClient = {
  via: 'Dapr invokeMethod',
  types: new Set(['DaprClient', 'DaprPreviewClient']),
  namePattern: /daprclient$/i,
  calls: { invokeMethod: { service: 0, url: 1, methodArguments: [2, 3], defaultMethod: 'POST' } },
};

export const DIRECT_CLIENTS: readonly DirectClient[] = [REST_TEMPLATE, KTOR_CLIENT, DAPR_CLIENT];

/** Call names any direct client answers to: any other call is skipped before its tree is read. */
export const DIRECT_CALL_NAMES: ReadonlySet<string> = new Set(
  DIRECT_CLIENTS.flatMap((client) => Object.keys(client.calls)),
);

/** Whether a receiver type is the client's: one of its types, or a subclass named after it. */
export function isClientType(client: DirectClient, type: string): boolean {
  const simple = type.slice(type.lastIndexOf('.') + 1);
  return client.types.has(simple) || (client.typeSuffix !== undefined && simple.endsWith(client.typeSuffix));
}

/** Request-builder verbs of WebClient / RestClient (`client.get().uri(…)`). */
export const CLIENT_VERBS: ReadonlySet<string> = new Set([
  'get',
  'post',
  'put',
  'delete',
  'patch',
  'head',
  'options',
]);

/** Receiver types whose `get()`, `post()`… `method(…)` start a request that `.uri(…)` addresses. */
export const REQUEST_CLIENTS: ReadonlySet<string> = new Set(['WebClient', 'RestClient', 'WebTestClient']);

/**
 * Request builders: a chain that names the URL in one call and the method in another, anchored at the call
 * that starts it. `verbs` maps a chained call to its method; `methodCall` names the method in its first
 * argument (`.method("PUT", body)`); without either the request is a `defaultMethod`.
 */
export interface BuilderChain {
  readonly via: string;
  /** The call a request starts with, and the receiver (or constructed type) it is made on. */
  readonly start: { readonly name: string; readonly owner: string };
  /** Where the URL is: the start call's argument, or the first argument of a chained call. */
  readonly urlCalls: readonly string[];
  readonly startUrlArgument?: number;
  /** Chained calls adding path segments (`.path("x")` of a JAX-RS `WebTarget`). */
  readonly pathCalls?: readonly string[];
  readonly verbs: Readonly<Record<string, string>>;
  readonly methodCall?: string;
  readonly defaultMethod?: string;
  /** The verb counts only after this call (`.request()` of JAX-RS); without it the chain is no request. */
  readonly verbAfter?: string;
}

const UPPER_VERBS = { GET: 'GET', POST: 'POST', PUT: 'PUT', DELETE: 'DELETE', HEAD: 'HEAD' } as const;
const LOWER_VERBS = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  patch: 'PATCH',
  head: 'HEAD',
  options: 'OPTIONS',
} as const;

/** `HttpRequest.newBuilder(URI.create(u)).POST(…)` (java.net.http). */
export const JAVA_NET_HTTP: BuilderChain = {
  via: 'HttpRequest',
  start: { name: 'newBuilder', owner: 'HttpRequest' },
  startUrlArgument: 0,
  urlCalls: ['uri'],
  verbs: UPPER_VERBS,
  methodCall: 'method',
  defaultMethod: 'GET',
};

/** OkHttp `new Request.Builder().url(u).post(body)` (Kotlin: `Request.Builder().url(u)`). */
export const OKHTTP: BuilderChain = {
  via: 'OkHttp',
  start: { name: 'Builder', owner: 'Request' },
  urlCalls: ['url'],
  verbs: { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE', patch: 'PATCH', head: 'HEAD' },
  methodCall: 'method',
  defaultMethod: 'GET',
};

/**
 * JAX-RS client: `client.target(base).path("x").path(id).request().get()`; the verb follows `request()`,
 * `method("PUT", …)` names it. A `target` without a verb in the chain is not a request.
 */
export const JAXRS_CLIENT: BuilderChain = {
  via: 'JAX-RS client',
  start: { name: 'target', owner: '' },
  startUrlArgument: 0,
  urlCalls: [],
  pathCalls: ['path'],
  verbs: LOWER_VERBS,
  methodCall: 'method',
  verbAfter: 'request',
};

export const BUILDER_CHAINS: readonly BuilderChain[] = [JAVA_NET_HTTP, OKHTTP, JAXRS_CLIENT];

/**
 * Interface clients: annotated interfaces whose methods are requests. Spring MVC mapping annotations on a
 * `@FeignClient` (also `@HttpExchange` interfaces), Feign's own `@RequestLine("GET /x")`, Retrofit's
 * `@GET("x")`, and a MicroProfile `@RegisterRestClient` with JAX-RS annotations.
 */
export const RETROFIT_VERBS: ReadonlySet<string> = new Set([
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
]);

/** Spring 6 `@HttpExchange` interfaces: `@GetExchange("/x")`… (client side of Spring's own annotations). */
export const EXCHANGE_VERBS: Readonly<Record<string, string>> = {
  GetExchange: 'GET',
  PostExchange: 'POST',
  PutExchange: 'PUT',
  DeleteExchange: 'DELETE',
  PatchExchange: 'PATCH',
  HttpExchange: 'ANY',
};

/** `HttpMethod.PUT`, `HttpExtension.POST`, Ktor's `HttpMethod.Put`, or a bare `PUT` → `PUT`. */
export function httpMethodName(name: string): string | undefined {
  const last = name.slice(name.lastIndexOf('.') + 1);
  // `Put` (Ktor) and `PUT` name a method; a lower-case `put` is a variable.
  if (!/^[A-Z]/.test(last)) return undefined;
  const upper = last.toUpperCase();
  return /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/.test(upper) ? upper : undefined;
}
