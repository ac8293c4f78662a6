/**
 * HTTP client libraries of TypeScript/JavaScript as data: which modules a library is imported from, what
 * calling it (or a configured instance of it) does, where each call takes its URL and method, and which
 * factory option holds the base URL of an instance. Adding a library is an entry here plus fixtures.
 */

/**
 * Where a call takes its URL and method.
 * - `options`: `(url | options, options?)`: the URL first or under an options key (`url`, `uri`, or
 *   `host`/`hostname`/`port`/`path` for node http), the method in the options (`GET` when absent).
 * - `methodUrl`: `(method, url)`; one argument alone is the URL of a GET.
 */
export type CallShape = 'options' | 'methodUrl';

export interface HttpClientLibrary {
  /** The name facts carry in `via`. */
  readonly via: string;
  /** Module specifiers the library is imported from. */
  readonly modules: readonly string[];
  /** Calling the imported module itself (`axios(config)`, `got(url)`, `superagent('GET', url)`). */
  readonly direct?: CallShape;
  /** Methods named after their HTTP method (`axios.get`, `superagent.del`), on the module and on instances. */
  readonly verbs: Readonly<Record<string, string>>;
  /** Other methods that send a request, with their shape (`axios.request(config)`, `http.request(opts)`). */
  readonly methods?: Readonly<Record<string, CallShape>>;
  /** Named exports that send a request (`import { request } from 'undici'`): their shape, or an HTTP method. */
  readonly named?: Readonly<Record<string, CallShape | { readonly verb: string }>>;
  /** Methods returning a configured instance, with the option naming its base URL (`axios.create({ baseURL })`). */
  readonly factories?: Readonly<Record<string, string>>;
  /** An instance can be called like the module (`const api = axios.create(…); api({ url })`). */
  readonly callableInstances?: boolean;
  /** Options keys holding a base URL the request's URL is relative to (`axios({ baseURL, url })`). */
  readonly baseKeys?: readonly string[];
  /** Options keys holding the method; `method` when absent. */
  readonly methodKeys?: readonly string[];
  /** Names the library is used by without an import (browser scripts, tests): `axios`, `$`. */
  readonly globals?: readonly string[];
}

const VERBS: Readonly<Record<string, string>> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  head: 'HEAD',
  options: 'OPTIONS',
};
const VERBS_AND_DEL = { ...VERBS, del: 'DELETE' };

/** Every library the extractor recognises, by key. */
export const HTTP_CLIENTS: Readonly<Record<string, HttpClientLibrary>> = {
  fetch: {
    via: 'fetch',
    modules: ['node-fetch', 'cross-fetch', 'isomorphic-fetch', 'isomorphic-unfetch', 'unfetch'],
    direct: 'options',
    verbs: {},
    named: { fetch: 'options' },
  },
  undici: {
    via: 'undici',
    modules: ['undici'],
    verbs: {},
    methods: { fetch: 'options', request: 'options' },
    named: { fetch: 'options', request: 'options' },
  },
  axios: {
    via: 'axios',
    globals: ['axios'],
    modules: ['axios'],
    direct: 'options',
    verbs: VERBS,
    methods: { request: 'options' },
    factories: { create: 'baseURL' },
    callableInstances: true,
    baseKeys: ['baseURL'],
  },
  got: {
    via: 'got',
    globals: ['got'],
    modules: ['got'],
    direct: 'options',
    verbs: { ...VERBS, stream: 'GET' },
    factories: { extend: 'prefixUrl' },
    callableInstances: true,
    baseKeys: ['prefixUrl'],
  },
  ky: {
    via: 'ky',
    globals: ['ky'],
    modules: ['ky', 'ky-universal'],
    direct: 'options',
    verbs: VERBS,
    factories: { create: 'prefixUrl', extend: 'prefixUrl' },
    callableInstances: true,
    baseKeys: ['prefixUrl'],
  },
  superagent: {
    via: 'superagent',
    globals: ['superagent'],
    modules: ['superagent'],
    direct: 'methodUrl',
    verbs: VERBS_AND_DEL,
  },
  request: {
    via: 'request',
    modules: ['request', 'request-promise', 'request-promise-native', 'postman-request'],
    direct: 'options',
    verbs: VERBS_AND_DEL,
    factories: { defaults: 'baseUrl' },
    callableInstances: true,
    baseKeys: ['baseUrl'],
  },
  'node:http': {
    via: 'node:http',
    modules: ['http', 'https', 'node:http', 'node:https'],
    verbs: { get: 'GET' },
    methods: { request: 'options', get: 'options' },
    named: { request: 'options', get: { verb: 'GET' } },
  },
  jquery: {
    via: 'jquery',
    modules: ['jquery'],
    globals: ['$', 'jQuery'],
    verbs: { get: 'GET', post: 'POST', getJSON: 'GET' },
    methods: { ajax: 'options' },
    methodKeys: ['method', 'type'],
  },
  /** Grafana k6 load-test scripts: `http.get(url, params)`, `http.request(method, url, body)`. */
  k6: {
    via: 'k6/http',
    modules: ['k6/http'],
    verbs: VERBS_AND_DEL,
    methods: { request: 'methodUrl' },
  },
  /** NestJS `HttpService` (an axios wrapper), known by its declared type. */
  HttpService: {
    via: 'HttpService',
    modules: [],
    verbs: VERBS,
    methods: { request: 'options' },
  },
  /** Angular `HttpClient`, known by its declared type: `request(method, url)`. */
  HttpClient: {
    via: 'HttpClient',
    modules: [],
    verbs: VERBS,
    methods: { request: 'methodUrl' },
  },
};

/** Declared types that hold a client: `private readonly http: HttpService`, `api: AxiosInstance`. */
export const HTTP_CLIENT_TYPES: Readonly<Record<string, string>> = {
  HttpService: 'HttpService',
  HttpClient: 'HttpClient',
  AxiosInstance: 'axios',
  AxiosStatic: 'axios',
  Got: 'got',
  KyInstance: 'ky',
  SuperAgentStatic: 'superagent',
};

/** Global objects whose `fetch` is the platform's: `window.fetch(url)`. */
export const FETCH_GLOBALS = new Set(['window', 'globalThis', 'self', 'global']);

const BY_MODULE = new Map<string, string>();
const BY_GLOBAL = new Map<string, string>();
for (const [key, lib] of Object.entries(HTTP_CLIENTS)) {
  for (const m of lib.modules) BY_MODULE.set(m, key);
  for (const g of lib.globals ?? []) BY_GLOBAL.set(g, key);
}

/** The library a global name stands for when nothing in the file binds it (`axios`, `$`). */
export function libraryOfGlobal(name: string): string | undefined {
  return BY_GLOBAL.get(name);
}

/** The library a module specifier names, if any. */
export function libraryOfModule(source: string | undefined): string | undefined {
  return source === undefined ? undefined : BY_MODULE.get(source);
}

function own<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * How a method sends a request on a library (or its instance): `verb` for `get`/`post`, `shape` for
 * `request` (both for node's `http.get(url | options)`), undefined when the method sends nothing
 * (`interceptors`, `create`).
 */
export function methodCall(
  lib: HttpClientLibrary,
  method: string,
): { readonly verb?: string; readonly shape: CallShape } | undefined {
  const verb = own(lib.verbs, method);
  const shape = own(lib.methods, method);
  if (verb === undefined && shape === undefined) return undefined;
  return { ...(verb === undefined ? {} : { verb }), shape: shape ?? 'options' };
}

/** A named export that sends a request: `import { request } from 'undici'`. */
export function namedCall(
  lib: HttpClientLibrary,
  name: string,
): { readonly verb?: string; readonly shape: CallShape } | undefined {
  const entry = own(lib.named, name);
  if (entry === undefined) return undefined;
  return typeof entry === 'string' ? { shape: entry } : { verb: entry.verb, shape: 'options' };
}
