/**
 * The HTTP calls the JVM client table (`http-clients.ts`) describes, read through small per-language
 * readers: a direct call on a client object (RestTemplate, Ktor, Dapr), a WebClient / RestClient request
 * chain, and a request builder chain (java.net.http, OkHttp, JAX-RS client).
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../../facts.js';
import {
  BUILDER_CHAINS,
  type BuilderChain,
  CLIENT_VERBS,
  type DirectClient,
  DIRECT_CLIENTS,
} from './http-clients.js';
import {
  concatAlternatives,
  httpCallFacts,
  type RequestClient,
  type UrlAlternatives,
  type UrlTarget,
  urlTarget,
} from './http.js';

/** What a language reads from its tree about one call. */
export interface CallReader {
  readonly name: string;
  readonly symbol: number | undefined;
  readonly line: number;
  argument(index: number): Node | undefined;
  /** The HTTP method an argument names (`HttpMethod.PUT`, `HttpExtension.POST`, `"PUT"`). */
  method(argument: Node | undefined): string | undefined;
  /** The values a URL expression may take. */
  urls(url: Node): UrlAlternatives;
  /** A string argument's value (a service name), when it is one. */
  string(node: Node): string | undefined;
}

export interface DirectCallReader extends CallReader {
  /** How sure it is that the receiver is the client's: `exact` by type, `heuristic` by name. */
  receiverOf(client: DirectClient): 'exact' | 'heuristic' | undefined;
  /** The base URL a configured client instance adds (Ktor `defaultRequest { url(…) }`), when traceable. */
  clientBase?(client: DirectClient): UrlAlternatives | undefined;
}

/** The single-call requests of the table: `restTemplate.exchange(url, HttpMethod.PUT, …)`, `client.get(url)`. */
export function directHttpCalls(reader: DirectCallReader): ContractFact[] {
  for (const client of DIRECT_CLIENTS) {
    const call = client.calls[reader.name];
    const url = call === undefined ? undefined : reader.argument(call.url);
    // `delete()` / `put()` without arguments are request-builder verbs, not client calls.
    if (call === undefined || url === undefined) continue;
    const confidence = reader.receiverOf(client);
    if (confidence === undefined) continue;
    const named = (call.methodArguments ?? [])
      .map((index) => reader.method(reader.argument(index)))
      .find((method) => method !== undefined);
    const method = call.method ?? named ?? call.defaultMethod;
    if (method === undefined) return [];
    const service = call.service === undefined ? undefined : reader.argument(call.service);
    const serviceName = service === undefined ? undefined : reader.string(service);
    const configured = reader.clientBase?.(client)?.[0];
    const clientBase: UrlTarget | undefined =
      call.service !== undefined
        ? {
            base: serviceName === undefined ? undefined : `service:${serviceName}`,
            path: '',
            inferred: false,
          }
        : configured === undefined
          ? undefined
          : urlTarget(configured);
    return httpCallFacts({
      method,
      urls: reader.urls(url),
      written: url.text,
      clientBase,
      symbol: reader.symbol,
      line: reader.line,
      proven: confidence === 'exact',
      via: client.via,
    });
  }
  return [];
}

export interface RequestChainReader extends CallReader {
  client(): RequestClient | undefined;
  /** The URL argument of the `.uri(…)` chained on the call; undefined when there is none or it is a builder lambda. */
  uriArgument(): Node | undefined;
}

/** A WebClient / RestClient request: `client.get().uri(url, id)`, `client.method(HttpMethod.PUT).uri(…)`. */
export function requestChainCalls(reader: RequestChainReader): ContractFact[] {
  const { name } = reader;
  if (!CLIENT_VERBS.has(name) && name !== 'method') return [];
  const method = name === 'method' ? reader.method(reader.argument(0)) : name.toUpperCase();
  const client = method === undefined ? undefined : reader.client();
  const uri = client === undefined ? undefined : reader.uriArgument();
  if (method === undefined || client === undefined || uri === undefined) return [];
  const base = client.base?.();
  return httpCallFacts({
    method,
    urls: reader.urls(uri),
    written: uri.text,
    clientBase: base === undefined ? undefined : urlTarget(base),
    symbol: reader.symbol,
    line: reader.line,
    proven: client.proven,
    via: client.via,
  });
}

/** One call of a builder chain, in the order written. */
export interface ChainStep {
  readonly name: string;
  readonly args: readonly Node[];
}

/**
 * A request built by a chain: `start` is the call (or construction) the table's entry starts with, `steps`
 * the calls chained after it. The URL is the start's argument or a `.url(…)`/`.uri(…)` step, extended by
 * path steps; the method is a verb step, a `.method("PUT", …)` step, else the entry's default.
 */
export function builderChainCalls(
  chain: BuilderChain,
  start: ChainStep,
  steps: readonly ChainStep[],
  reader: Omit<CallReader, 'name' | 'argument'>,
  options: { readonly startBase?: UrlAlternatives; readonly proven: boolean },
): ContractFact[] {
  const urlStep = steps.find((step) => chain.urlCalls.includes(step.name));
  const after =
    chain.verbAfter === undefined ? 0 : steps.findIndex((step) => step.name === chain.verbAfter) + 1;
  if (after === 0 && chain.verbAfter !== undefined) return [];
  const url =
    (chain.startUrlArgument === undefined ? undefined : start.args[chain.startUrlArgument]) ??
    urlStep?.args[0];
  const verbStep = steps
    .slice(after)
    .find((step) => chain.verbs[step.name] !== undefined || step.name === chain.methodCall);
  const method =
    verbStep === undefined
      ? chain.defaultMethod
      : (chain.verbs[verbStep.name] ?? reader.method(verbStep.args[0]));
  const head = url === undefined ? options.startBase : reader.urls(url);
  if (method === undefined || head === undefined) return [];
  const pieces: UrlAlternatives[] = [head];
  for (const step of steps) {
    const segment = step.args[0];
    if (!(chain.pathCalls ?? []).includes(step.name) || segment === undefined) continue;
    pieces.push([[{ kind: 'text', text: '/' }]], reader.urls(segment));
  }
  return httpCallFacts({
    method,
    urls: concatAlternatives(pieces) ?? [[{ kind: 'param', name: '' }]],
    written: writtenChain(chain, url, steps),
    symbol: reader.symbol,
    line: reader.line,
    proven: options.proven,
    via: chain.via,
  });
}

/** `url / "x" / id`: the URL argument and the path steps as written. */
function writtenChain(chain: BuilderChain, url: Node | undefined, steps: readonly ChainStep[]): string {
  const segments = steps.flatMap((step) =>
    (chain.pathCalls ?? []).includes(step.name) && step.args[0] !== undefined ? [step.args[0].text] : [],
  );
  return [url?.text ?? '…', ...segments].join(' / ');
}

export { BUILDER_CHAINS };
