/**
 * The Ruby HTTP clients meshlens reads, as data: module-level request functions, the constructors of
 * client instances (and where their base URL is), Net::HTTP's request classes, and the instance methods
 * that send. `http-calls.ts` applies these tables; a library that calls like one of these is an entry here
 * plus golden cases.
 */

/** Methods named after the HTTP method they send. */
export const VERBS: ReadonlyMap<string, string> = new Map(
  ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].map((verb) => [verb, verb.toUpperCase()]),
);

/**
 * Modules whose own methods send a request, the URL first: `HTTParty.get(url)`, `RestClient.post(url, body)`,
 * `Faraday.get(url)`, `Typhoeus.get(url)`, `HTTP.get(url)` (http.rb), `Excon.get(url)`, and Net::HTTP's
 * class methods (`Net::HTTP.get(URI(url))`, `Net::HTTP.post(uri, data)`, `get_response`, `post_form`).
 */
export const MODULE_FUNCTIONS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['HTTParty', VERBS],
  ['RestClient', VERBS],
  ['Faraday', VERBS],
  ['Typhoeus', VERBS],
  ['HTTP', VERBS],
  ['Excon', VERBS],
  [
    'Net::HTTP',
    new Map([
      ['get', 'GET'],
      ['get_response', 'GET'],
      ['get_print', 'GET'],
      ['post', 'POST'],
      ['post_form', 'POST'],
    ]),
  ],
]);

/** `RestClient::Request.execute(method: :put, url: u)`: the method and URL as options. */
export const EXECUTE_CALLS: readonly { readonly receiver: string; readonly method: string }[] = [
  { receiver: 'RestClient::Request', method: 'execute' },
];

/**
 * Client instances: `Faraday.new(url: base)` or `Faraday.new(base)`, `RestClient::Resource.new(base)`,
 * `Net::HTTP.new(host, port)` and `Net::HTTP.start(host, port) { |http| … }` (`host` says the base).
 */
export const CLIENT_CONSTRUCTORS: readonly {
  readonly receiver: string;
  readonly methods: readonly string[];
  readonly library: string;
  readonly baseOption?: string;
  /** The argument holding the base URL, or (`hostPort`) the host and port. */
  readonly base: 'first' | 'hostPort';
}[] = [
  { receiver: 'Faraday', methods: ['new'], library: 'Faraday', baseOption: 'url', base: 'first' },
  { receiver: 'RestClient::Resource', methods: ['new'], library: 'RestClient', base: 'first' },
  { receiver: 'Net::HTTP', methods: ['new', 'start'], library: 'Net::HTTP', base: 'hostPort' },
];

/** `conn.run_request(:get, url, body, headers)` (Faraday): the method first, then the URL. */
export const RUN_REQUEST = 'run_request';

/** `http.request(req)` with `req = Net::HTTP::Post.new(path)`: request classes by HTTP method. */
export const SEND_REQUEST = 'request';
export const REQUEST_CLASSES: ReadonlyMap<string, string> = new Map(
  ['Get', 'Post', 'Put', 'Patch', 'Delete', 'Head', 'Options'].map((name) => [
    `Net::HTTP::${name}`,
    name.toUpperCase(),
  ]),
);

/** A class with `include HTTParty` sends with its own `get '/x'` and takes its base from `base_uri`. */
export const HTTPARTY = 'HTTParty';
