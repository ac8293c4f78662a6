/**
 * Rust HTTP: axum `.route(path, get(h).post(h2))` with `.nest` prefixes, actix `App::route`,
 * `web::scope(…)`/`web::resource(…)` and route attributes (`#[get("/x/{id}")]`, also rocket's), and
 * reqwest and awc (actix-web's client) calls on proven clients (or sent on the spot with `.send()`).
 */
import type { Node } from 'web-tree-sitter';
import { CLIENT_PATHS, HTTP_VERBS } from './http-clients.js';
import { envHostFirst, httpCallConfidence, httpTargetOf, writtenUrl } from '../shared/native-common.js';
import { urlParts } from './urls.js';
import {
  argumentsOf,
  methodCall,
  peel,
  rustString,
  stringValue,
  typePath,
  type HttpLibrary,
  type RustFile,
  type RustScope,
} from './values.js';
import { joinHttpPath, normalizeHttpPath, startLineOf } from '../shared/tree-utils.js';

export { HTTP_VERBS };

export const HTTP_METHOD_NAMES = new Set([
  ...HTTP_VERBS,
  'request',
  'nest',
  'nest_service',
  'service',
  'route',
]);

/** Which HTTP client crate a type path names (`reqwest::Client`, `awc::Client`, or an imported `Client`). */
export function httpClientLibrary(path: string, file: RustFile): HttpLibrary | undefined {
  const clean = path.replace(/\s+/g, '');
  const full = clean === 'Client' ? (file.uses.get('Client') ?? '') : clean;
  return CLIENT_PATHS.find(([pattern]) => pattern.test(full))?.[1];
}

/** Path prefixes over source ranges: `.nest("/api", inner)` and actix `scope("/api")…service(args)`. */
export class Prefixes {
  private readonly ranges: { readonly start: number; readonly end: number; readonly prefix: string }[] = [];

  add(node: Node, prefix: string): void {
    this.ranges.push({ start: node.startIndex, end: node.endIndex, prefix });
  }

  /** The innermost prefix around `node` (ranges are registered outermost first, so nested ones sit on top). */
  at(node: Node): string {
    while (this.ranges.length > 0 && (this.ranges[this.ranges.length - 1]?.end ?? 0) <= node.startIndex)
      this.ranges.pop();
    for (let i = this.ranges.length - 1; i >= 0; i--) {
      const range = this.ranges[i];
      if (range !== undefined && range.start <= node.startIndex && node.endIndex <= range.end)
        return range.prefix;
    }
    return '';
  }
}

export function onHttpMethodCall(
  call: Node,
  method: { readonly name: string; readonly nameNode: Node; readonly receiver: Node },
  args: readonly Node[],
  scope: RustScope,
  prefixes: Prefixes,
): void {
  const [first, second] = args;
  if (
    (method.name === 'nest' || method.name === 'nest_service') &&
    args.length === 2 &&
    first !== undefined &&
    second !== undefined
  ) {
    const path = stringValue(first, scope);
    if (path !== undefined) prefixes.add(second, joinHttpPath(prefixes.at(call), path));
    return;
  }
  if (method.name === 'service') {
    const inner = joinScope(prefixes.at(call), scopePrefix(method.receiver, scope));
    for (const arg of args) prefixes.add(arg, inner);
    return;
  }
  if (method.name === 'route') {
    const routePrefix = joinScope(prefixes.at(call), scopePrefix(method.receiver, scope));
    if (args.length === 2 && first !== undefined && second !== undefined) {
      const path = stringValue(first, scope);
      if (path?.startsWith('/'))
        emitRoutes(verbsOf(second, scope), joinHttpPath(routePrefix, rustPath(path)), first, scope);
    } else if (args.length === 1 && first !== undefined) {
      // actix `web::resource("/x").route(web::get().to(h))`: the path is on the receiver chain.
      const resource = chainCall(method.receiver, 'resource');
      const pathNode = resource === undefined ? undefined : argumentsOf(resource)[0];
      const path = pathNode === undefined ? undefined : stringValue(pathNode, scope);
      if (path?.startsWith('/') && pathNode !== undefined) {
        emitRoutes(verbsOf(first, scope), joinHttpPath(routePrefix, rustPath(path)), pathNode, scope);
      }
    }
    return;
  }
  reqwestCall(call, method, args, scope);
}

function joinScope(prefix: string, inner: string): string {
  return inner === '' ? prefix : joinHttpPath(prefix, inner);
}

/** The first call named `name` down a method chain (`web::scope("/api").route(…).service(…)`). */
function chainCall(node: Node, name: string): Node | undefined {
  let current: Node | null = node;
  for (let i = 0; i < 32 && current !== null; i++) {
    if (current.type !== 'call_expression') return undefined;
    const fn: Node | null = current.childForFieldName('function');
    if (fn?.type === 'field_expression') {
      if (fn.childForFieldName('field')?.text === name) return current;
      current = fn.childForFieldName('value');
      continue;
    }
    const last = fn?.type === 'scoped_identifier' ? fn.childForFieldName('name')?.text : fn?.text;
    return last === name ? current : undefined;
  }
  return undefined;
}

function scopePrefix(receiver: Node, scope: RustScope): string {
  const call = chainCall(receiver, 'scope');
  const first = call === undefined ? undefined : argumentsOf(call)[0];
  return first === undefined ? '' : (stringValue(first, scope) ?? '');
}

/** HTTP methods of an axum method router (`get(h).post(h2)`, `any(h)`) or an actix route (`web::get().to(h)`). */
function verbsOf(node: Node, scope: RustScope): string[] {
  const verbs: string[] = [];
  let current: Node | null = node;
  for (let i = 0; i < 32 && current?.type === 'call_expression'; i++) {
    const fn: Node | null = current.childForFieldName('function');
    let name =
      fn?.type === 'field_expression'
        ? fn.childForFieldName('field')?.text
        : fn?.type === 'scoped_identifier'
          ? fn.childForFieldName('name')?.text
          : fn?.text;
    // `use axum::routing::get as axum_get;` — the imported name stands for the routing function.
    if (fn?.type === 'identifier' && name !== undefined)
      name = scope.file.uses.get(name)?.split('::').pop() ?? name;
    const verb = name?.replace(/_service$/, '');
    if (verb !== undefined && HTTP_VERBS.includes(verb)) verbs.unshift(verb.toUpperCase());
    else if (verb === 'any') verbs.unshift('ANY');
    current = fn?.type === 'field_expression' ? fn.childForFieldName('value') : null;
  }
  return verbs;
}

/** axum 0.7 catch-alls `*rest` (0.8 writes `{*rest}`, which the shared normaliser knows). */
function rustPath(path: string): string {
  return path.replace(/(^|\/)\*([A-Za-z_]\w*)/g, '$1{$2}');
}

function emitRoutes(methods: readonly string[], path: string, evidence: Node, scope: RustScope): void {
  const line = startLineOf(evidence);
  for (const method of methods) {
    scope.file.facts.addContract(
      { kind: 'http_route', method, path, symbol: scope.symbol, line, via: `route ${method.toLowerCase()}` },
      { at: evidence.startIndex },
    );
  }
}

/**
 * `client.get(url)…send()` on a reqwest client, `client.request(Method::POST, url)`; the same on an awc
 * client (`awc::Client::default().post(url).send_json(&body)`).
 */
function reqwestCall(
  call: Node,
  method: { readonly name: string; readonly nameNode: Node; readonly receiver: Node },
  args: readonly Node[],
  scope: RustScope,
): void {
  const { file } = scope;
  let verb: string | undefined;
  let url: Node | undefined;
  if (HTTP_VERBS.includes(method.name) && args.length === 1) {
    verb = method.name.toUpperCase();
    url = args[0];
  } else if (method.name === 'request' && args.length === 2) {
    verb = /(?:^|::)([A-Z]+)$/.exec(args[0]?.text ?? '')?.[1];
    url = args[1];
  }
  if (verb === undefined || url === undefined) return;
  // A proven client needs no `use` (`let c = reqwest::Client::new();` written in full).
  const proven = file.mentionsClient ? clientLibrary(method.receiver, scope) : undefined;
  // An unproven receiver counts only in a file using the crate, when the request is sent right there
  // (`.get(url)….send()`).
  const sent =
    proven === undefined && (file.flags.reqwest || file.flags.awc) && !ofOtherType(method.receiver, scope, 0)
      ? sentInChain(call, file)
      : undefined;
  const library = proven ?? sent;
  if (library === undefined) return;
  emitCall(verb, url, startLineOf(method.nameNode), `${library} ${method.name}`, proven !== undefined, scope);
}

/**
 * True when `node` provably holds a value of a type that is no HTTP client: a variable typed, built
 * (`Client::new(…)`, `Client { … }`) or declared as a type the file imports from elsewhere
 * (`use api::Client`) or declares itself. Such a receiver's `.get(…).send()` is its own.
 */
function ofOtherType(node: Node, scope: RustScope, depth: number): boolean {
  const expr = peel(node);
  if (depth > 4) return false;
  if (expr.type === 'identifier') {
    const bindings = scope.lookup(expr.text) ?? [];
    return (
      bindings.length > 0 &&
      bindings.every((b) =>
        b.type !== undefined
          ? isOtherType(typePath(b.type), expr, scope)
          : b.value !== undefined && ofOtherType(b.value, scope, depth + 1),
      )
    );
  }
  if (expr.type === 'struct_expression')
    return isOtherType(expr.childForFieldName('name')?.text, expr, scope);
  if (expr.type !== 'call_expression' || methodCall(expr) !== undefined) return false;
  const fn = expr.childForFieldName('function');
  return fn?.type === 'scoped_identifier' && isOtherType(fn.childForFieldName('path')?.text, expr, scope);
}

function isOtherType(path: string | undefined, at: Node, scope: RustScope): boolean {
  if (path === undefined || !/^[A-Za-z_][\w:]*$/.test(path)) return false;
  // Through the file's `use`s: `use reqwest::Client as Http;` makes `Http` reqwest's client.
  const [head = '', ...rest] = path.split('::');
  const full = [scope.file.uses.get(head) ?? head, ...rest].join('::');
  if (httpClientLibrary(path, scope.file) !== undefined || httpClientLibrary(full, scope.file) !== undefined)
    return false;
  if (path.includes('::') || scope.file.uses.has(path)) return true;
  // A type this file declares (`struct Client;`).
  return at.tree.rootNode
    .descendantsOfType(['struct_item', 'enum_item', 'type_item'])
    .some((item) => item?.childForFieldName('name')?.text === path);
}

/** The library whose send method ends the chain a request is built in (`.send()`; awc also `.send_json(…)`…). */
function sentInChain(call: Node, file: RustFile): HttpLibrary | undefined {
  let current: Node | null = call.parent;
  for (let i = 0; i < 12 && current !== null; i++) {
    if (current.type === 'field_expression') {
      const field = current.childForFieldName('field')?.text ?? '';
      if (field === 'send') return file.flags.reqwest ? 'reqwest' : 'awc';
      if (/^send_(json|body|form|stream)$/.test(field) && file.flags.awc) return 'awc';
    }
    if (current.type !== 'field_expression' && current.type !== 'call_expression') return undefined;
    current = current.parent;
  }
  return undefined;
}

/** The client library an expression provably holds a client of. */
function clientLibrary(node: Node, scope: RustScope, depth = 0): HttpLibrary | undefined {
  const expr = peel(node);
  if (depth > 4) return undefined;
  if (expr.type === 'identifier') {
    for (const b of scope.lookup(expr.text) ?? []) {
      const path = b.type === undefined ? undefined : typePath(b.type);
      const library =
        path !== undefined
          ? httpClientLibrary(path, scope.file)
          : b.value === undefined
            ? undefined
            : clientLibrary(b.value, scope, depth + 1);
      if (library !== undefined) return library;
    }
    return undefined;
  }
  if (expr.type === 'field_expression') {
    const owner = expr.childForFieldName('value');
    const field = expr.childForFieldName('field')?.text ?? '';
    return owner?.type === 'self' && scope.owner !== undefined
      ? scope.file.httpClientFields.get(scope.owner)?.get(field)
      : undefined;
  }
  if (expr.type !== 'call_expression') return undefined;
  const method = methodCall(expr);
  // `Client::builder()….build()` (reqwest) / `….finish()` (awc).
  if (method !== undefined)
    return method.name === 'build' || method.name === 'finish'
      ? clientLibrary(method.receiver, scope, depth + 1)
      : undefined;
  const fn = expr.childForFieldName('function');
  if (fn?.type !== 'scoped_identifier') return undefined;
  const path = fn.childForFieldName('path')?.text ?? '';
  return /^(new|builder|default)$/.test(fn.childForFieldName('name')?.text ?? '')
    ? httpClientLibrary(path, scope.file)
    : undefined;
}

export function emitCall(
  method: string,
  url: Node,
  line: number,
  via: string,
  proven: boolean,
  scope: RustScope,
): void {
  const parts = urlParts(url, scope);
  const merged = envHostFirst(
    parts.reduce<typeof parts>((out, part) => {
      const previous = out[out.length - 1];
      if (part.kind === 'text' && previous?.kind === 'text')
        out[out.length - 1] = { kind: 'text', text: previous.text + part.text };
      else out.push(part);
      return out;
    }, []),
  );
  const target = httpTargetOf(merged);
  // Nothing of the path is known: an env read the URL starts with still names where it goes.
  const lead = merged[0]?.kind === 'hole' ? merged[0].base : undefined;
  const base = target === undefined ? lead : target.base;
  scope.file.facts.addContract({
    kind: 'http_call',
    method,
    path: target?.path ?? '/',
    ...(base === undefined ? {} : { base }),
    ...(target === undefined ? { unresolved: writtenUrl(url) } : {}),
    symbol: scope.symbol,
    line,
    confidence: proven && target !== undefined ? httpCallConfidence(true, target) : 'heuristic',
    via,
  });
}

const ATTRIBUTE_VERBS = new Set([
  'get',
  'post',
  'put',
  'delete',
  'patch',
  'head',
  'options',
  'trace',
  'connect',
]);

/** actix/rocket route attributes: `#[get("/x/{id}")]`, `#[route("/x", method = "GET", method = "POST")]`. */
export function rustAttributeRoute(attributeItem: Node): { method: string; path: string; via: string }[] {
  const attribute = attributeItem.namedChild(0);
  if (attribute === null) return [];
  const pathNode = attribute.namedChild(0);
  const args = attribute.childForFieldName('arguments');
  if (pathNode === null || args === null) return [];
  const name =
    pathNode.type === 'scoped_identifier' ? pathNode.childForFieldName('name')?.text : pathNode.text;
  if (name === undefined || (!ATTRIBUTE_VERBS.has(name) && name !== 'route')) return [];
  const tokens = args.children.filter((t): t is Node => t !== null);
  const first = tokens.find((t) => t.type === 'string_literal' || t.type === 'raw_string_literal');
  const raw = first === undefined ? undefined : rustString(first);
  if (raw === undefined || !raw.startsWith('/')) return [];
  const path = normalizeHttpPath(raw.replace(/<([A-Za-z_]\w*)\.\.>/g, '{$1}'));
  if (name !== 'route') return [{ method: name.toUpperCase(), path, via: `#[${name}]` }];
  const methods: string[] = [];
  tokens.forEach((token, i) => {
    const value = tokens[i + 2];
    if (token.text === 'method' && tokens[i + 1]?.type === '=' && value !== undefined) {
      const method = rustString(value);
      if (method !== undefined) methods.push(method.toUpperCase());
    }
  });
  return methods.map((method) => ({ method, path, via: '#[route]' }));
}
