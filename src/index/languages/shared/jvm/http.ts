/**
 * HTTP paths and URLs for the JVM extractors: route/call path normalisation, the split of a URL expression
 * into a base (literal host, Spring placeholder, `env:NAME`) and a path with `{param}`s, and the Spring
 * client rules (RestTemplate, WebClient / RestClient chains) that Java and Kotlin read from their own trees.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../../facts.js';
import { annotationArg, type AnnotationInfo, findAnnotation } from './annotations.js';
import { joinPaths, normalizePath } from './route-paths.js';

/** A piece of a URL expression: literal text, a resolved base (`${billing.url}`, `env:X`), or a parameter. */
export type UrlPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'base'; readonly base: string }
  | { readonly kind: 'param'; readonly name: string };

export interface UrlTarget {
  readonly base?: string;
  readonly path: string;
  /** Some part of the target was guessed (a parameter name, an unknown base). */
  readonly inferred: boolean;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const PLACEHOLDER = /^\$\{[^}]*\}/;

/**
 * Splits a URL expression into base and path. A leading literal `http://host:port` or a leading resolved
 * base becomes `base`; a leading unknown variable is dropped (its value is not known) and marks the target
 * inferred; the query string is not part of the path. Undefined when nothing path-like remains.
 */
export function urlTarget(parts: readonly UrlPart[], inheritedBase?: string): UrlTarget | undefined {
  const merged: UrlPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (part.kind === 'text' && last?.kind === 'text')
      merged[merged.length - 1] = { kind: 'text', text: last.text + part.text };
    else merged.push(part);
  }
  let base = inheritedBase;
  let inferred = false;
  const first = merged[0];
  if (first?.kind === 'base') {
    base = first.base;
    merged.shift();
  } else if (first?.kind === 'param') {
    // `baseUrl + "/x"` with `baseUrl` unknown: the variable is the host, not a path segment.
    if (merged.length === 1) return undefined;
    inferred = true;
    base = undefined;
    merged.shift();
  } else if (first?.kind === 'text') {
    const placeholder = PLACEHOLDER.exec(first.text);
    const scheme = SCHEME.exec(first.text);
    if (placeholder !== null) {
      base = placeholder[0];
      merged[0] = { kind: 'text', text: first.text.slice(placeholder[0].length) };
    } else if (scheme !== null) {
      const slash = first.text.indexOf('/', scheme[0].length);
      if (slash === -1 && merged.length > 1) {
        // `"http://" + host + "/x"`: the host is not known.
        inferred = true;
        base = undefined;
        merged.shift();
        while (merged[0] !== undefined && !(merged[0].kind === 'text' && merged[0].text.includes('/')))
          merged.shift();
        const next = merged[0];
        if (next?.kind === 'text')
          merged[0] = { kind: 'text', text: next.text.slice(next.text.indexOf('/')) };
      } else {
        base = slash === -1 ? first.text : first.text.slice(0, slash);
        merged[0] = { kind: 'text', text: slash === -1 ? '' : first.text.slice(slash) };
      }
    }
  }
  let path = '';
  // The query string and fragment are not part of the path: parameters after `?` do not make it inferred.
  for (const part of merged) {
    if (part.kind === 'text') {
      const query = part.text.search(/[?#]/);
      if (query !== -1) {
        path += part.text.slice(0, query);
        break;
      }
      path += part.text;
    } else {
      inferred = true;
      path += `{${part.kind === 'param' ? part.name : 'param'}}`;
    }
  }
  return { ...(base === undefined ? {} : { base }), path: normalizePath(path), inferred };
}

/** `{param}` name for an expression: its last identifier, `getId` read as `id`. */
export function paramName(expressionText: string): string {
  const identifiers = expressionText.match(/[A-Za-z_$][\w$]*/g) ?? [];
  let name = identifiers[identifiers.length - 1] ?? 'param';
  if (/^(?:get|is)[A-Z]/.test(name)) name = name.replace(/^(?:get|is)/, '');
  if (name === 'get' || name === 'toString' || name === '') return 'param';
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** RestTemplate method → HTTP method; `exchange` takes its method from an argument. */
export const REST_TEMPLATE_METHODS: Readonly<Record<string, string>> = {
  getForObject: 'GET',
  getForEntity: 'GET',
  postForObject: 'POST',
  postForEntity: 'POST',
  postForLocation: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  patchForObject: 'PATCH',
  headForHeaders: 'HEAD',
  optionsForAllow: 'OPTIONS',
  exchange: '',
};

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

/** Receiver types whose `getForObject(…)`, `exchange(…)`… are RestTemplate requests. */
export const REST_TEMPLATES: ReadonlySet<string> = new Set([
  'RestTemplate',
  'TestRestTemplate',
  'RestOperations',
]);
/** Receiver types whose `get()`, `post()`… `method(…)` start a request that `.uri(…)` addresses. */
export const REQUEST_CLIENTS: ReadonlySet<string> = new Set(['WebClient', 'RestClient', 'WebTestClient']);
/** Names a Spring client request starts with: any other call is skipped before its tree is read. */
export const SPRING_HTTP_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(REST_TEMPLATE_METHODS),
  ...CLIENT_VERBS,
  'method',
]);

/** `HttpMethod.PUT`, or `PUT` imported statically, → `PUT`; undefined for any other name. */
export function httpMethodName(name: string): string | undefined {
  const last = name.slice(name.lastIndexOf('.') + 1);
  return /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/.test(last) ? last : undefined;
}

/** A WebClient / RestClient receiver. */
export interface RequestClient {
  /** Its type is known to be a client type, not only guessed from its name. */
  readonly proven: boolean;
  readonly via: string;
  /** The URL parts of the base the client was built with, when that is traceable. */
  readonly base: (() => UrlPart[]) | undefined;
}

/**
 * Whether a receiver is a request client: by its type when the type is known (then only the client types
 * count, whatever the name), otherwise by a name ending in `webClient` / `restClient`.
 */
export function requestClientKind(
  type: string | undefined,
  name: string,
): Omit<RequestClient, 'base'> | undefined {
  if (type !== undefined) {
    const simple = type.slice(type.lastIndexOf('.') + 1);
    return REQUEST_CLIENTS.has(simple) ? { proven: true, via: simple } : undefined;
  }
  if (!/(?:webclient|restclient)$/i.test(name)) return undefined;
  return { proven: false, via: /restclient$/i.test(name) ? 'RestClient' : 'WebClient' };
}

/** What a JVM extractor reads from its own tree about one call whose name is in `SPRING_HTTP_NAMES`. */
export interface SpringCallReader {
  readonly name: string;
  readonly symbol: number | undefined;
  readonly line: number;
  argument(index: number): Node | undefined;
  /** The HTTP method an argument names (`HttpMethod.PUT`). */
  method(argument: Node | undefined): string | undefined;
  /**
   * How sure it is that the receiver is one of `types`: `exact` by its type, `heuristic` by a name matching
   * `namePattern` when its type is unknown; undefined when it is not one.
   */
  receiverOf(types: ReadonlySet<string>, namePattern: RegExp): 'exact' | 'heuristic' | undefined;
  client(): RequestClient | undefined;
  /** The URL argument of the `.uri(…)` chained on the call; undefined when there is none or it is a builder lambda. */
  uriArgument(): Node | undefined;
  urlParts(url: Node): UrlPart[];
}

/**
 * The call a RestTemplate method or a WebClient / RestClient chain makes. It is `exact` only when the
 * receiver's type is known and the whole path is literal; a client's own base URL prefixes the `.uri(…)`
 * path unless that one names its host itself.
 */
export function springHttpCall(call: SpringCallReader): ContractFact | undefined {
  const { name, symbol, line } = call;
  const restMethod = REST_TEMPLATE_METHODS[name];
  const url = call.argument(0);
  // `delete()` / `put()` without arguments are request-builder verbs, not RestTemplate methods.
  if (restMethod !== undefined && url !== undefined) {
    const confidence = call.receiverOf(REST_TEMPLATES, /resttemplate$/i);
    if (confidence === undefined) return undefined;
    const method = restMethod === '' ? call.method(call.argument(1)) : restMethod;
    const target = method === undefined ? undefined : urlTarget(call.urlParts(url));
    if (method === undefined || target === undefined) return undefined;
    return {
      kind: 'http_call',
      method,
      path: target.path,
      base: target.base,
      symbol,
      line,
      confidence: confidence === 'exact' && !target.inferred ? 'exact' : 'heuristic',
      via: 'RestTemplate',
    };
  }
  if (!CLIENT_VERBS.has(name) && name !== 'method') return undefined;
  const method = name === 'method' ? call.method(call.argument(0)) : name.toUpperCase();
  const client = call.client();
  const uri = method === undefined || client === undefined ? undefined : call.uriArgument();
  if (method === undefined || client === undefined || uri === undefined) return undefined;
  const target = urlTarget(call.urlParts(uri));
  if (target === undefined) return undefined;
  const clientBase =
    client.base === undefined || target.base !== undefined ? undefined : urlTarget(client.base());
  return {
    kind: 'http_call',
    method,
    path: clientBase === undefined ? target.path : joinPaths(clientBase.path, target.path),
    base: target.base ?? clientBase?.base,
    symbol,
    line,
    confidence: client.proven && !target.inferred ? 'exact' : 'heuristic',
    via: client.via,
  };
}

/** A variable's initialiser and later assignments, each with the scope it was written in. */
interface Assigned<S> {
  readonly init: Node | undefined;
  /** Set for fields (their symbol), unset for locals and parameters. */
  readonly symbol?: number;
  readonly assigned: readonly { readonly node: Node; readonly scope: S }[];
}

function valuesOf<S>(variable: Assigned<S>, scope: S): { node: Node; scope: S }[] {
  return [...(variable.init === undefined ? [] : [{ node: variable.init, scope }]), ...variable.assigned];
}

/**
 * The first thing `find` reads from a variable's values, its initialiser first, then its assignments in
 * order: the base URL of a client field assigned `builder.baseUrl(url).build()` in a constructor.
 */
export function firstOfValues<S, T>(
  variable: Assigned<S>,
  scope: S,
  find: (value: Node, scope: S) => T | undefined,
): T | undefined {
  for (const value of valuesOf(variable, scope)) {
    const found = find(value.node, value.scope);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The URL parts a variable holds: its `@Value("${…}")` placeholder, kept verbatim as a base for the
 * configuration to resolve, else the one value it is given (`this.baseUrl = baseUrl` from a `@Value`
 * constructor parameter), read by `read`. A field's initialiser is read without the locals of the body that
 * uses the field. Undefined when neither is known.
 */
export function variableUrl<S extends { readonly vars: ReadonlyMap<string, unknown> }>(
  variable: Assigned<S> & { readonly annotations: readonly AnnotationInfo[] },
  scope: S,
  placeholder: (key: Node) => string | undefined,
  read: (value: Node, scope: S) => UrlPart[],
): UrlPart[] | undefined {
  const annotation = findAnnotation(variable.annotations, 'Value');
  const key = annotation === undefined ? undefined : annotationArg(annotation, [undefined, 'value']);
  const text = key === undefined ? undefined : placeholder(key);
  if (text !== undefined) return [{ kind: 'text', text }];
  const values = valuesOf(variable, scope);
  const only = values.length === 1 ? values[0] : undefined;
  if (only === undefined) return undefined;
  const field = variable.init !== undefined && variable.symbol !== undefined;
  return read(only.node, field ? { ...scope, vars: new Map() } : only.scope);
}
