/**
 * Python HTTP clients as data: which module functions send a request, which constructors build a client
 * instance (and where that instance's base URL is given), and which argument of a request call is the URL
 * and which the method. Adding a library is an entry here plus golden fixtures; `contracts.ts` and
 * `calls.ts` only read these tables.
 */

/** Where a call names a value: a positional index and/or a keyword. */
export interface ArgumentSlot {
  readonly position?: number;
  readonly keyword?: string;
}

export interface PyHttpLibrary {
  /** The name facts carry in `via` (`requests get`). */
  readonly lib: string;
  /** The module its names are imported from (`requests`, `urllib.request`); submodules count too. */
  readonly module: string;
  /** Module-level functions that send a request (`requests.get(url)`, `urlopen(url)`). */
  readonly functions: readonly string[];
  /** Constructors of a client instance whose methods send requests (`requests.Session()`). */
  readonly clients: readonly string[];
  /** Where a client constructor takes the base URL that relative request URLs are joined to. */
  readonly base?: ArgumentSlot;
}

export const HTTP_VERBS: readonly string[] = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'];

export const PY_HTTP_LIBRARIES: readonly PyHttpLibrary[] = [
  {
    lib: 'requests',
    module: 'requests',
    functions: [...HTTP_VERBS, 'request'],
    clients: ['Session', 'session'],
  },
  {
    lib: 'httpx',
    module: 'httpx',
    functions: [...HTTP_VERBS, 'request', 'stream'],
    clients: ['Client', 'AsyncClient'],
    base: { keyword: 'base_url' },
  },
  {
    lib: 'aiohttp',
    module: 'aiohttp',
    functions: ['request'],
    clients: ['ClientSession'],
    base: { position: 0, keyword: 'base_url' },
  },
  { lib: 'urllib', module: 'urllib.request', functions: ['urlopen'], clients: [] },
];

/** How a request call names its method and URL. */
export interface RequestShape {
  /** A fixed method (`get` → GET); absent when an argument gives it. */
  readonly verb?: string;
  readonly method?: ArgumentSlot;
  readonly url: ArgumentSlot;
  /** The method when no argument gives one: GET, or POST when a body argument is present. */
  readonly body?: ArgumentSlot;
}

const VERB_SHAPES: ReadonlyMap<string, RequestShape> = new Map(
  HTTP_VERBS.map((verb) => [verb, { verb: verb.toUpperCase(), url: { position: 0, keyword: 'url' } }]),
);

/** Request methods shared by every client above (and Locust's `self.client`): `get(url)`, `request(m, url)`. */
export const REQUEST_SHAPES: ReadonlyMap<string, RequestShape> = new Map([
  ...VERB_SHAPES,
  ['request', { method: { position: 0, keyword: 'method' }, url: { position: 1, keyword: 'url' } }],
  ['stream', { method: { position: 0, keyword: 'method' }, url: { position: 1, keyword: 'url' } }],
  // urllib: `urlopen(url_or_Request, data=None)`; a body makes it a POST.
  ['urlopen', { url: { position: 0, keyword: 'url' }, body: { position: 1, keyword: 'data' } }],
]);

/** `urllib.request.Request(url, data=None, headers={}, origin_req_host=None, unverifiable=False, method=None)`. */
export const URLLIB_REQUEST: RequestShape = {
  method: { position: 5, keyword: 'method' },
  url: { position: 0, keyword: 'url' },
  body: { position: 1, keyword: 'data' },
};

/**
 * A Locust user without a `host` attribute targets the host given when Locust runs: `--host`/`-H` or the
 * `LOCUST_HOST` environment variable (the service model reads `--host` from the image's entry point).
 */
export const LOCUST_RUN_HOST = {
  kind: 'http',
  lib: 'locust',
  base: [{ t: 'env', name: 'LOCUST_HOST' }],
} as const;

/**
 * Locust load generators: a user class deriving from one of these calls the system under test through
 * `self.client`, relative to the class's `host` attribute (or the `--host` given at run time).
 */
export const LOCUST_USERS: readonly { readonly module: string; readonly classes: readonly string[] }[] = [
  { module: 'locust', classes: ['HttpUser', 'FastHttpUser', 'HttpLocust', 'TaskSet', 'SequentialTaskSet'] },
  { module: 'locust.contrib.fasthttp', classes: ['FastHttpUser'] },
];

/** Dapr service invocation through the SDK client: `DaprClient().invoke_method(app_id, method_name, …)`. */
export const DAPR_CLIENT = {
  module: 'dapr.clients',
  clients: ['DaprClient'],
  methods: ['invoke_method', 'invoke_method_async'],
  appId: { position: 0, keyword: 'app_id' },
  /** The SDK's first releases named the arguments `id` and `method`. */
  legacyAppId: 'id',
  methodName: { position: 1, keyword: 'method_name' },
  legacyMethodName: 'method',
  body: { position: 2, keyword: 'data' },
  verb: { keyword: 'http_verb' },
} as const;
