/**
 * The PHP HTTP clients meshlens reads, as data: the classes and factories that build a client (and where
 * its base URI is), the declared types that make a parameter or property one, the methods that send a
 * request, and the curl options that say the URL and the method. `http-calls.ts` applies these tables;
 * a library that calls like one of these is an entry here plus golden cases.
 */

export interface ClientLibrary {
  /** Named in the fact's `via`: `Guzzle get`. */
  readonly name: string;
  /** `$client->get($url)`: methods named after the HTTP method (with their `…Async` forms). */
  readonly verbMethods: boolean;
}

export const GUZZLE: ClientLibrary = { name: 'Guzzle', verbMethods: true };
export const SYMFONY: ClientLibrary = { name: 'Symfony HttpClient', verbMethods: false };
export const LARAVEL: ClientLibrary = { name: 'Laravel Http', verbMethods: true };

/** `new Client(['base_uri' => …])`: fully qualified class → library; the base is an option. */
export const CLIENT_CLASSES: ReadonlyMap<string, ClientLibrary> = new Map([['GuzzleHttp\\Client', GUZZLE]]);

/** Option keys that hold a client's base URI (Guzzle, Symfony `withOptions`/`create`). */
export const BASE_OPTIONS: readonly string[] = ['base_uri'];

/** Declared types (fully qualified) of parameters and properties holding a client. */
export const CLIENT_TYPES: ReadonlyMap<string, ClientLibrary> = new Map([
  ['GuzzleHttp\\Client', GUZZLE],
  ['GuzzleHttp\\ClientInterface', GUZZLE],
  ['Symfony\\Contracts\\HttpClient\\HttpClientInterface', SYMFONY],
]);

/**
 * Static factories: `HttpClient::create(['base_uri' => …])`, `HttpClient::createForBaseUri($base)`,
 * `ScopingHttpClient::forBaseUri($client, $base)`. `baseArgument` is where the base URI is; absent: in the
 * options array of the first argument.
 */
export const CLIENT_FACTORIES: readonly {
  readonly class: string;
  readonly method: string;
  readonly library: ClientLibrary;
  readonly baseArgument?: number;
}[] = [
  { class: 'Symfony\\Component\\HttpClient\\HttpClient', method: 'create', library: SYMFONY },
  {
    class: 'Symfony\\Component\\HttpClient\\HttpClient',
    method: 'createForBaseUri',
    library: SYMFONY,
    baseArgument: 0,
  },
  {
    class: 'Symfony\\Component\\HttpClient\\ScopingHttpClient',
    method: 'forBaseUri',
    library: SYMFONY,
    baseArgument: 1,
  },
];

/** A client method returning a client with new options (`$client->withOptions(['base_uri' => …])`). */
export const WITH_OPTIONS = 'withOptions';

/**
 * Facades sending requests through a static chain: `Http::get($url)`,
 * `Http::withToken($t)->baseUrl($base)->post('/x')`. `Http` alone is Laravel's global alias.
 */
export const FACADES: readonly {
  readonly classes: readonly string[];
  readonly library: ClientLibrary;
  readonly baseMethod: string;
}[] = [{ classes: ['Illuminate\\Support\\Facades\\Http', 'Http'], library: LARAVEL, baseMethod: 'baseUrl' }];

/** `$client->get($url)` and friends: method name → HTTP method; the URL is the first argument. */
export const VERB_METHODS: ReadonlyMap<string, string> = new Map(
  ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].flatMap((verb) => [
    [verb, verb.toUpperCase()],
    [`${verb}Async`, verb.toUpperCase()],
  ]),
);

/** `$client->request('GET', $url)`: the method is the first argument, the URL the second. */
export const REQUEST_METHODS: ReadonlySet<string> = new Set(['request', 'requestAsync']);

/** curl: the handle is built by `curl_init($url)` and configured by `curl_setopt`/`curl_setopt_array`. */
export const CURL = {
  init: 'curl_init',
  setopt: 'curl_setopt',
  setoptArray: 'curl_setopt_array',
  url: 'CURLOPT_URL',
  customRequest: 'CURLOPT_CUSTOMREQUEST',
  /** Options that make the request a POST (a body given), or a PUT, unless a custom method is set. */
  impliedMethods: new Map([
    ['CURLOPT_POST', 'POST'],
    ['CURLOPT_POSTFIELDS', 'POST'],
    ['CURLOPT_PUT', 'PUT'],
    ['CURLOPT_UPLOAD', 'PUT'],
  ]),
} as const;

/** `file_get_contents($url, false, $context)`: a request only when the URL is an `http(s)://` URL. */
export const URL_READERS: ReadonlyMap<string, { readonly url: number; readonly context: number }> = new Map([
  ['file_get_contents', { url: 0, context: 2 }],
  ['fopen', { url: 0, context: 3 }],
]);
