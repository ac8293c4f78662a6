/**
 * HTTP calls of a TypeScript/JavaScript file, read through the client table (http-clients.ts): a call site
 * keeps its arguments as data; once the file's imports and bindings are known it is matched to a library
 * (an import, a configured instance, a typed field or the global `fetch`) and becomes an `http_call` fact
 * with its base and path template, or with `unresolved` when the path is not known.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { DAPR_APP_ID_HEADER, daprInvocation } from '../shared/dapr.js';
import { oneLine } from '../shared/tree-utils.js';
import type { Site } from './holders.js';
import {
  FETCH_GLOBALS,
  HTTP_CLIENTS,
  libraryOfGlobal,
  libraryOfModule,
  methodCall,
  namedCall,
  type CallShape,
  type HttpClientLibrary,
} from './http-clients.js';
import type { FileState, Holder } from './model.js';
import { resolveUrl } from './url.js';
import { toVal, type Val } from './values.js';
import { resolveName, resolveString } from './resolve-values.js';

/** Every method name that sends a request on some library: call sites of other names are not read. */
const REQUEST_METHODS = new Set([
  'fetch',
  ...Object.values(HTTP_CLIENTS).flatMap((lib) => [
    ...Object.keys(lib.verbs),
    ...Object.keys(lib.methods ?? {}),
  ]),
]);
const MAX_UNRESOLVED = 120;

/** A call's arguments as data, and each one as written (for `unresolved`). */
export interface RequestArgs {
  readonly values: readonly Val[];
  readonly texts: readonly string[];
  /** Which arguments are function literals (callbacks, never options). */
  readonly callbacks: readonly boolean[];
}

const FUNCTION_LITERALS = new Set(['arrow_function', 'function_expression', 'function']);

/** A client resolved from a binding or holder: its library and, for a configured instance, its base. */
interface Client {
  readonly lib: HttpClientLibrary;
  readonly base?: Val;
  readonly instance?: boolean;
}

/** What a request sends: the URL, method and options read from its arguments by the call's shape. */
interface Request {
  readonly url?: Val;
  readonly urlText: string;
  readonly method?: Val;
  /** No method given where the library defaults to GET. */
  readonly defaulted: boolean;
  readonly options?: Val;
}

function asWritten(node: Node): string {
  const text = oneLine(node.text);
  return text.length <= MAX_UNRESOLVED ? text : `${text.slice(0, MAX_UNRESOLVED - 1)}…`;
}

/** The first three arguments of a call, as data and as written. */
export function requestArgs(list: readonly Node[], site: Site): RequestArgs {
  const first = list.slice(0, 3);
  return {
    values: first.map((a) => toVal(a, site.locals, site.cls)),
    texts: first.map(asWritten),
    callbacks: first.map((a) => FUNCTION_LITERALS.has(a.type)),
  };
}

export function mayRequest(method: string): boolean {
  return REQUEST_METHODS.has(method);
}

function prop(val: Val | undefined, name: string): Val | undefined {
  return val?.k === 'obj' ? val.props.get(name) : undefined;
}

/** The URL an options object names: `url`/`uri`/`href`, else node's `protocol`/`host(name)`/`port`/`path`. */
function urlOfOptions(options: Val): Val | undefined {
  const direct = prop(options, 'url') ?? prop(options, 'uri') ?? prop(options, 'href');
  if (direct !== undefined) return direct;
  const host = prop(options, 'hostname') ?? prop(options, 'host');
  const path = prop(options, 'path') ?? prop(options, 'pathname');
  if (host === undefined) return path;
  const port = prop(options, 'port');
  return {
    k: 'cat',
    parts: [
      prop(options, 'protocol') ?? { k: 'str', v: 'http:' },
      { k: 'str', v: '//' },
      host,
      ...(port === undefined ? [] : [{ k: 'str', v: ':' } as const, port]),
      path ?? { k: 'str', v: '/' },
    ],
  };
}

/** Reads a call's URL, method and options the way `shape` says; `verb` is a method fixed by the call's name. */
function readRequest(
  lib: HttpClientLibrary,
  shape: CallShape,
  verb: string | undefined,
  args: RequestArgs,
): Request {
  const { values, texts } = args;
  const [a, b] = values;
  if (shape === 'methodUrl' && verb === undefined && values.length >= 2)
    return { url: b, urlText: texts[1] ?? '', method: a, defaulted: false };
  // The last object is the options: `axios.post(url, data, config)`.
  const options = a?.k === 'obj' ? a : values.slice(1).findLast((v) => v.k === 'obj');
  const url = a?.k === 'obj' ? urlOfOptions(a) : a;
  if (verb !== undefined)
    return { url, urlText: texts[0] ?? '', method: { k: 'str', v: verb }, defaulted: false, options };
  // A callback in the options' place (`request(url, (err, res) => …)`) sends the default method.
  const config = a?.k === 'obj' ? a : args.callbacks[1] === true ? undefined : b;
  const method = (lib.methodKeys ?? ['method']).map((key) => prop(config, key)).find((m) => m !== undefined);
  const defaulted = config === undefined || (config.k === 'obj' && method === undefined);
  return { url, urlText: texts[0] ?? '', method, defaulted, options };
}

/** The base a request's options name (`axios({ baseURL, url })`), else the instance's. */
function baseOf(client: Client, options: Val | undefined): Val | undefined {
  for (const key of client.lib.baseKeys ?? []) {
    const base = prop(options, key);
    if (base !== undefined) return base;
  }
  return client.base;
}

/** The `dapr-app-id` header of a request's options, resolved. */
function daprHeader(state: FileState, options: Val | undefined): string | undefined {
  const headers = prop(options, 'headers');
  if (headers?.k !== 'obj') return undefined;
  for (const [name, value] of headers.props)
    if (name.toLowerCase() === DAPR_APP_ID_HEADER) return resolveString(value, state.tables)?.value;
  return undefined;
}

function emitRequest(
  state: FileState,
  out: FactBuilder,
  site: Site,
  via: string,
  request: Request,
  base: Val | undefined,
): void {
  const url = request.url ?? { k: 'opaque' };
  let resolved = resolveUrl(url, state.tables);
  // A relative path on a client created with a base URL (`axios.create({ baseURL })`) goes to that base.
  if (base !== undefined && resolved.base === undefined && resolved.exact)
    resolved = resolveUrl({ k: 'cat', parts: [base, { k: 'str', v: '/' }, url] }, state.tables);
  let target = resolved.base;
  let path = resolved.path;
  let exact = resolved.exact;
  const dapr = resolved.partial === true ? undefined : daprInvocation(path);
  const appId = daprHeader(state, request.options);
  if (dapr !== undefined) {
    target = `service:${dapr.appId}`;
    path = dapr.path;
    exact = true;
  } else if (appId !== undefined) {
    target = `service:${appId}`;
    exact = resolved.partial !== true;
  }
  const verbName = request.method === undefined ? undefined : resolveName(request.method, state.tables);
  const httpMethod = request.defaulted ? 'GET' : (verbName?.value.toUpperCase() ?? 'ANY');
  out.addContract({
    kind: 'http_call',
    method: httpMethod,
    path,
    ...(target === undefined ? {} : { base: target }),
    ...(resolved.partial === true ? { unresolved: request.urlText || '?' } : {}),
    ...(site.symbol === undefined ? {} : { symbol: site.symbol }),
    line: site.line,
    confidence: exact && (request.defaulted || verbName?.exact === true) ? 'exact' : 'heuristic',
    via,
  });
}

/** `name` is the platform's own (`fetch`, `window`): not imported, not declared in the file. */
function isGlobalFetch(state: FileState, name: string, unbound: boolean): boolean {
  return (
    (name === 'fetch' || FETCH_GLOBALS.has(name)) &&
    unbound &&
    !state.moduleVars.has(name) &&
    state.symbolAt(name) === undefined
  );
}

/** The client a configured instance is, once the file's imports are known. */
function clientOfHolder(
  state: FileState,
  holder: Extract<Holder, { t: 'http' }>,
  depth = 0,
): Client | undefined {
  if (holder.lib !== undefined) {
    const lib = HTTP_CLIENTS[holder.lib];
    return lib === undefined ? undefined : { lib, instance: true };
  }
  if (depth > 8 || holder.factory === undefined) return undefined;
  const parent =
    holder.parent?.t === 'http'
      ? clientOfHolder(state, holder.parent, depth + 1)
      : holder.module === undefined
        ? undefined
        : clientOfBinding(state, holder.module, depth + 1);
  const key = parent?.lib.factories?.[holder.factory];
  if (parent === undefined || key === undefined) return undefined;
  const base = prop(holder.options, key) ?? parent.base;
  return { lib: parent.lib, instance: true, ...(base === undefined ? {} : { base }) };
}

/** The client a module-level name is: an imported library module, a configured instance, or a global. */
function clientOfBinding(state: FileState, name: string, depth = 0): Client | undefined {
  const binding = state.importBindings.get(name);
  if (binding !== undefined) {
    const key = libraryOfModule(binding.source);
    const lib = key === undefined ? undefined : HTTP_CLIENTS[key];
    return lib !== undefined && (binding.imported === 'default' || binding.imported === '*')
      ? { lib }
      : undefined;
  }
  const held = state.moduleVars.get(name);
  if (held?.holder?.t === 'http') return clientOfHolder(state, held.holder, depth);
  const key = held === undefined && state.symbolAt(name) === undefined ? libraryOfGlobal(name) : undefined;
  const global = key === undefined ? undefined : HTTP_CLIENTS[key];
  return global === undefined ? undefined : { lib: global };
}

/**
 * `f(…)` where `f` may send a request: the global `fetch`, an imported library (`axios(config)`,
 * `got(url)`), a named export (`request` from undici) or a callable instance.
 */
export function directHttpCall(state: FileState, name: string, list: readonly Node[], site: Site): void {
  const local = site.locals(name);
  if (list.length === 0 || (local !== undefined && local.holder?.t !== 'http')) return;
  const args = requestArgs(list, site);
  const localHolder = local?.holder;
  state.pending.push((out) => {
    let client: Client | undefined;
    let call: { readonly verb?: string; readonly shape: CallShape } | undefined;
    const binding = state.importBindings.get(name);
    const key = binding === undefined ? undefined : libraryOfModule(binding.source);
    const named = key === undefined ? undefined : HTTP_CLIENTS[key];
    if (localHolder?.t === 'http') client = clientOfHolder(state, localHolder);
    else if (
      named !== undefined &&
      binding !== undefined &&
      binding.imported !== 'default' &&
      binding.imported !== '*'
    ) {
      client = { lib: named };
      call = namedCall(named, binding.imported);
    } else if (isGlobalFetch(state, name, binding === undefined))
      client = { lib: HTTP_CLIENTS.fetch as HttpClientLibrary };
    else client = clientOfBinding(state, name);
    if (client === undefined) return;
    if (call === undefined) {
      const shape =
        client.instance === true && client.lib.callableInstances !== true ? undefined : client.lib.direct;
      call = shape === undefined ? undefined : { shape };
    }
    if (call === undefined) return;
    const request = readRequest(client.lib, call.shape, call.verb, args);
    emitRequest(state, out, site, client.lib.via, request, baseOf(client, request.options));
  });
}

/**
 * `recv.m(…)` where `m` may send a request. Returns what to do once the receiver's holder is known: true
 * when the call was a request (emitted), false when the receiver is no client.
 */
export function memberHttpCall(
  state: FileState,
  method: string,
  objectName: string | undefined,
  list: readonly Node[],
  site: Site,
): ((holder: Holder | undefined, out: FactBuilder) => boolean) | undefined {
  if (!REQUEST_METHODS.has(method) || list.length === 0) return undefined;
  if (
    objectName !== undefined &&
    site.locals(objectName) !== undefined &&
    site.locals(objectName)?.holder === undefined
  )
    return undefined;
  const args = requestArgs(list, site);
  return (holder, out) => {
    let client: Client | undefined;
    if (holder?.t === 'http') client = clientOfHolder(state, holder);
    else if (holder === undefined && objectName !== undefined) {
      client =
        method === 'fetch' && FETCH_GLOBALS.has(objectName) && !state.moduleVars.has(objectName)
          ? { lib: HTTP_CLIENTS.fetch as HttpClientLibrary }
          : clientOfBinding(state, objectName);
    }
    if (client === undefined) return false;
    const call =
      method === 'fetch' && client.lib === HTTP_CLIENTS.fetch
        ? { shape: 'options' as const }
        : methodCall(client.lib, method);
    if (call === undefined) return false;
    const request = readRequest(client.lib, call.shape, call.verb, args);
    emitRequest(state, out, site, client.lib.via, request, baseOf(client, request.options));
    return true;
  };
}

/** Emits a request whose target and method are already known (Dapr's `invoker.invoke`). */
export function emitKnownRequest(
  state: FileState,
  out: FactBuilder,
  site: Site,
  via: string,
  request: { readonly url: Val; readonly urlText: string; readonly method?: Val },
): void {
  emitRequest(state, out, site, via, { ...request, defaulted: false }, undefined);
}
