/**
 * Outgoing HTTP calls of Elixir clients, read from the module-qualified call, or from a local call inside a
 * module that is itself a client (so `Map.get`, or a local `get/2` anywhere else, is never one):
 * - HTTPoison: `HTTPoison.get(url)`, `post!(url, body)`, …, `HTTPoison.request(:post, url)`.
 * - Req: `Req.get!(url)`, `Req.post(url: u)`, `Req.get!(req, url: "/x")` with `req = Req.new(base_url: b)`
 *   (bound earlier or piped in), `Req.request(method: :put, url: u)`.
 * - Finch: `Finch.build(:get, url)` (the request it builds is what `Finch.request` sends).
 * - Tesla: `Tesla.get(client, "/x")` with `client = Tesla.client([{Tesla.Middleware.BaseUrl, b}])`, and
 *   in a `use Tesla` module, `get("/x")` with the module's `plug Tesla.Middleware.BaseUrl, b`.
 * - A `use HTTPoison.Base` module: `get("/x")`, with the base its `process_url(url)` (or
 *   `process_request_url`) puts in front of the URL (`"https://api.github.com#{url}"`).
 * URLs resolve through literals, interpolation, `<>`, module attributes, the function's variables, the
 * module's one-expression functions (`def base_url, do: "…"`), `System.get_env` (an env base `env:X`, as
 * in every language) and `Application.get_env(:app, :key)` (a config base `${app.key}`); a URL that cannot
 * be read is kept as an unresolved call on the part known.
 */
import type { Node } from 'web-tree-sitter';
import { type Parts, startLineOf } from '../shared/tree-utils.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { httpCallFact } from '../shared/http-call.js';
import type { Frame, ModuleFrame } from './model.js';
import { valueScope } from './model.js';
import {
  atomName,
  callArgs,
  callName,
  type CallName,
  literalString,
  named,
  pipedArgs,
  readKeywords,
} from './syntax.js';
import { resolveParts } from './values.js';

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
const TESLA_BASE_URL = 'Tesla.Middleware.BaseUrl';

/** What one call site asks for: the method, the URL and, for a client with a base, the base. */
interface Request {
  readonly method: string | undefined;
  readonly url: Node | undefined;
  readonly base?: Parts;
}

/** Reads `Module.fun(…)` as an HTTP call of a known client, if it is one. */
export function readHttpCall(facts: FactBuilder, node: Node, name: CallName, frame: Frame): void {
  const fun = name.name.replace(/!$/, '');
  let request: Request | undefined;
  switch (name.receiver) {
    case 'HTTPoison':
      request = httpoison(node, fun);
      break;
    case 'Req':
      request = req(node, fun, frame);
      break;
    case 'Finch':
      if (fun === 'build') {
        const { positional } = pipedArgs(node);
        request = { method: methodOf(positional[0]), url: positional[1] };
      }
      break;
    case 'Tesla':
      request = tesla(node, fun, frame);
      break;
    default:
      return;
  }
  if (request !== undefined) emit(facts, node, request, `${name.receiver} ${fun}`, frame);
}

/** `get("/x")`, `post(client, "/x", body)` inside a `use Tesla` module: the module's own client. */
export function readTeslaLocalCall(facts: FactBuilder, node: Node, name: string, frame: Frame): void {
  const fun = name.replace(/!$/, '');
  const module = frame.module;
  if (module === undefined || frame.locals === undefined || (!VERBS.has(fun) && fun !== 'request')) return;
  const request = teslaRequest(node, fun, frame);
  if (request !== undefined)
    emit(facts, node, { ...request, base: request.base ?? module.teslaBase }, `Tesla ${fun}`, frame);
}

/** `get("/x")`, `request(:post, "/x")` inside a `use HTTPoison.Base` module: the module's own client. */
export function readHttpoisonLocalCall(facts: FactBuilder, node: Node, name: string, frame: Frame): void {
  const fun = name.replace(/!$/, '');
  const module = frame.module;
  if (module === undefined || frame.locals === undefined) return;
  const request = httpoison(node, fun);
  if (request === undefined) return;
  const base = processedBase(module);
  emit(facts, node, base === undefined ? request : { ...request, base }, `HTTPoison ${fun}`, frame);
}

/** What `process_url(url)` puts before the URL: `"https://api.github.com#{url}"` → `https://api.github.com`. */
function processedBase(module: ModuleFrame): Parts | undefined {
  const hook = module.functions.get('process_request_url/1') ?? module.functions.get('process_url/1');
  const param = hook?.params[0];
  if (hook === undefined || param === undefined) return undefined;
  const parts = resolveParts(hook.body, valueScope({ module }));
  const index = parts.findIndex((part) => part.t === 'expr' && part.name === param);
  return index <= 0 ? undefined : parts.slice(0, index);
}

/** `plug Tesla.Middleware.BaseUrl, "http://…"` in a `use Tesla` module body. */
export function readTeslaPlug(node: Node, frame: Frame): void {
  const module = frame.module;
  const { positional } = callArgs(node);
  if (module === undefined || frame.locals !== undefined || positional[0]?.text !== TESLA_BASE_URL) return;
  const base = positional[1];
  if (base !== undefined) module.teslaBase = resolveParts(base, valueScope(frame));
}

function httpoison(node: Node, fun: string): Request | undefined {
  const { positional } = pipedArgs(node);
  if (VERBS.has(fun)) return { method: fun.toUpperCase(), url: positional[0] };
  if (fun !== 'request') return undefined;
  const first = positional[0];
  // `HTTPoison.request(%HTTPoison.Request{method: :get, url: url})`
  if (first?.type === 'map') {
    const fields = structFields(first);
    return { method: methodOf(fields.get('method')) ?? 'GET', url: fields.get('url') };
  }
  return { method: methodOf(first), url: positional[1] };
}

function req(node: Node, fun: string, frame: Frame): Request | undefined {
  if (!VERBS.has(fun) && fun !== 'request') return undefined;
  const { positional, keywords } = pipedArgs(node);
  const options = new Map<string, Node>();
  let url: Node | undefined;
  const first = positional[0];
  const client = first === undefined ? undefined : clientCall(first, frame, 'Req', 'new');
  if (client !== undefined) for (const [key, value] of callArgs(client).keywords) options.set(key, value);
  else if (first?.type === 'list') readKeywords(first, options);
  // With `url:` given, a first argument is a request built elsewhere (a parameter, a struct field).
  else if (!keywords.has('url')) url = first;
  for (const [key, value] of keywords) options.set(key, value);
  url ??= options.get('url');
  const baseNode = options.get('base_url');
  const base = baseNode === undefined ? undefined : resolveParts(baseNode, valueScope(frame));
  const method = VERBS.has(fun) ? fun.toUpperCase() : (methodOf(options.get('method')) ?? 'GET');
  return base === undefined ? { method, url } : { method, url, base };
}

function tesla(node: Node, fun: string, frame: Frame): Request | undefined {
  if (!VERBS.has(fun) && fun !== 'request') return undefined;
  return teslaRequest(node, fun, frame);
}

/** Tesla's arguments: an optional client first, then the URL (or `method:`/`url:` for `request`). */
function teslaRequest(node: Node, fun: string, frame: Frame): Request | undefined {
  const { positional, keywords } = pipedArgs(node);
  const first = positional[0];
  const client = first === undefined ? undefined : clientCall(first, frame, 'Tesla', 'client');
  const urlIndex = client !== undefined || (first !== undefined && !isUrlLike(first, frame)) ? 1 : 0;
  const base = client === undefined ? undefined : teslaClientBase(client, frame);
  if (fun === 'request') {
    const method = methodOf(keywords.get('method')) ?? 'GET';
    return { method, url: keywords.get('url'), ...(base === undefined ? {} : { base }) };
  }
  return { method: fun.toUpperCase(), url: positional[urlIndex], ...(base === undefined ? {} : { base }) };
}

/** The base URL of `Tesla.client([{Tesla.Middleware.BaseUrl, base}, …])`. */
function teslaClientBase(client: Node, frame: Frame): Parts | undefined {
  const middleware = callArgs(client).positional[0];
  for (const item of middleware?.type === 'list' ? named(middleware) : []) {
    const [plug, value] = item.type === 'tuple' ? named(item) : [];
    if (plug?.text === TESLA_BASE_URL && value !== undefined) return resolveParts(value, valueScope(frame));
  }
  return undefined;
}

/**
 * The client-building call an argument stands for: `Req.new(…)` written in place or bound to a variable
 * earlier in the function.
 */
function clientCall(node: Node, frame: Frame, receiver: string, fun: string): Node | undefined {
  const value = node.type === 'identifier' ? frame.locals?.get(node.text) : node;
  if (value?.type !== 'call') return undefined;
  const name = callName(value);
  return name?.receiver === receiver && name.name === fun ? value : undefined;
}

/** Whether an argument reads as a URL rather than a client: a string, a concatenation, an attribute. */
function isUrlLike(node: Node, frame: Frame): boolean {
  const value = node.type === 'identifier' ? frame.locals?.get(node.text) : node;
  if (value === undefined) return false;
  return (
    value.type === 'string' ||
    value.type === 'unary_operator' ||
    (value.type === 'binary_operator' && value.childForFieldName('operator')?.text === '<>')
  );
}

/** `:get`, `"GET"` → `GET`. */
function methodOf(node: Node | undefined): string | undefined {
  return (atomName(node) ?? literalString(node))?.toUpperCase();
}

/** The `key: value` fields of a struct or map literal (`%Mod{a: 1}`). */
function structFields(map: Node): Map<string, Node> {
  const fields = new Map<string, Node>();
  for (const content of named(map).filter((child) => child.type === 'map_content')) {
    for (const child of named(content)) readKeywords(child, fields);
  }
  return fields;
}

function emit(facts: FactBuilder, node: Node, request: Request, via: string, frame: Frame): void {
  if (request.method === undefined || request.url === undefined) return;
  const fact = httpCallFact({
    method: request.method,
    url: resolveParts(request.url, valueScope(frame)),
    ...(request.base === undefined ? {} : { clientBase: request.base }),
    expression: request.url.text,
    line: startLineOf(node),
    proven: true,
    via,
  });
  facts.addContract(fact, { owner: frame.owner });
}
