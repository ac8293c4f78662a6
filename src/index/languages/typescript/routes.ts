/**
 * HTTP routes declared in code: Express/Fastify/Koa-router/Hono route calls and Next.js API routes (from
 * the file path). NestJS controller routes are decorators (see typescript-decorators.ts).
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { resolveRef, type FileState, type Holder, type Ref } from './model.js';
import { joinHttpPath, normalizeHttpPath } from '../shared/tree-utils.js';
import { memberPath, toVal, unwrap, type Val } from './values.js';
import { resolveString } from './resolve-values.js';
import { mountedPrefixes } from './mounts.js';
import { frameworkOf, ROUTER_NAME } from './router-frameworks.js';

export const HTTP_VERBS = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options']);
const ROUTE_VERBS: Readonly<Record<string, string>> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  del: 'DELETE',
  patch: 'PATCH',
  head: 'HEAD',
  options: 'OPTIONS',
  all: 'ANY',
};
/** Receivers that are routers by convention when nothing else is known (`(app) => app.get('/x', h)`). */
interface RouteSite {
  readonly symbol?: number;
  readonly line: number;
  readonly cls?: number;
  readonly locals: (name: string) => { readonly val?: Val; readonly holder?: Holder } | undefined;
}

function receiverName(object: Node): string | undefined {
  const path = memberPath(unwrap(object));
  if (path === undefined || path.length > 2 || (path.length === 2 && path[0] !== 'this')) return undefined;
  return path[path.length - 1];
}

function argNodes(call: Node): Node[] {
  const list = call.childForFieldName('arguments');
  return list === null ? [] : list.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
}

/**
 * A route registered by `recv.<verb>(path, …handlers)`, `recv.route({ method, url })` or
 * `recv.route(path).<verb>(handler)`. Returns what to do once the receiver's holder is known, or undefined
 * when the call cannot be a route.
 */
export function routeCall(
  state: FileState,
  node: Node,
  method: string,
  site: RouteSite,
): ((holder: Holder | undefined, out: FactBuilder) => void) | undefined {
  if (ROUTE_VERBS[method] === undefined && method !== 'route') return undefined;
  const callee = node.childForFieldName('function');
  const object = callee?.childForFieldName('object');
  if (object === null || object === undefined) return undefined;
  const list = argNodes(node);
  const verb = ROUTE_VERBS[method];
  const symbol = site.symbol === undefined ? {} : { symbol: site.symbol };
  const emit = (
    out: FactBuilder,
    holder: Holder | undefined,
    name: string | undefined,
    methods: readonly string[],
    path: Val | undefined,
  ): void => {
    const known = holder?.t === 'router';
    if (holder !== undefined && !known) return;
    const resolved = path === undefined ? undefined : resolveString(path, state.tables);
    if (resolved === undefined) return;
    if (!known && (name === undefined || !ROUTER_NAME.test(name) || !/^[/*]/.test(resolved.value))) return;
    const prefix =
      known && holder.prefix !== undefined ? resolveString(holder.prefix, state.tables)?.value : undefined;
    const via = frameworkOf(state, holder); // a router mounted by `app.use('/api', router)` serves there
    for (const mounted of known ? mountedPrefixes(state, holder) : [''])
      for (const m of methods)
        out.addContract({
          kind: 'http_route',
          method: m,
          path: joinHttpPath(mounted, prefix ?? '', resolved.value),
          ...symbol,
          line: site.line,
          via,
        });
  };

  // `router.route('/x').get(h).post(h)`: find the `route(path)` call at the bottom of the chain.
  const inner = unwrap(object);
  if (verb !== undefined && inner.type === 'call_expression') {
    let current: Node | null = inner;
    while (current?.type === 'call_expression') {
      const fn = current.childForFieldName('function');
      const name = fn?.childForFieldName('property')?.text;
      const base = fn?.childForFieldName('object');
      if (fn?.type !== 'member_expression' || name === undefined || base === null || base === undefined)
        return undefined;
      if (name === 'route') {
        const path = argNodes(current)[0];
        if (path === undefined || path.type === 'object') return undefined;
        const pathVal = toVal(path, site.locals, site.cls);
        const rootName = receiverName(base);
        const rootRef = refOf(base, site);
        return (_holder, out) => emit(out, resolveRef(state, rootRef), rootName, [verb], pathVal);
      }
      if (ROUTE_VERBS[name] === undefined) return undefined;
      current = unwrap(base);
    }
    return undefined;
  }
  const name = receiverName(object);
  if (method === 'route' && list.length === 1 && list[0]?.type === 'object') {
    const options = toVal(list[0], site.locals, site.cls);
    if (options.k !== 'obj') return undefined;
    const path = options.props.get('url') ?? options.props.get('path');
    const methodVal = options.props.get('method');
    return (holder, out) => {
      const methods = (methodVal?.k === 'arr' ? methodVal.items : methodVal === undefined ? [] : [methodVal])
        .map((m) => resolveString(m, state.tables)?.value.toUpperCase())
        .filter((m): m is string => m !== undefined);
      if (methods.length > 0) emit(out, holder, name, methods, path);
    };
  }
  if (verb === undefined || list.length < 2 || list[0]?.type === 'object') return undefined;
  const path = toVal(list[0] as Node, site.locals, site.cls);
  return (holder, out) => emit(out, holder, name, [verb], path);
}

function refOf(object: Node, site: RouteSite): Ref | undefined {
  const n = unwrap(object);
  if (n.type === 'identifier') {
    const local = site.locals(n.text);
    if (local === undefined) return { r: 'var', name: n.text };
    return local.holder === undefined ? undefined : { r: 'holder', holder: local.holder };
  }
  const path = memberPath(n);
  if (path?.length === 2 && path[0] === 'this' && site.cls !== undefined)
    return { r: 'this', cls: site.cls, field: path[1] ?? '' };
  return undefined;
}

const NEXT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const SOURCE_EXTENSION = /\.(?:[mc]?[jt]sx?)$/;

/** `[id]` → `{id}`, `[...slug]` and `[[...slug]]` → `{slug}`. */
function nextSegment(segment: string): string {
  return segment.replace(/^\[\[?(?:\.\.\.)?([^\]]+?)\]?\]$/, '{$1}');
}

/** The route a Next.js file serves, from its path: pages router (`ANY`) or app router (`route.ts`). */
export function nextRoute(
  path: string,
): { readonly kind: 'pages' | 'app'; readonly path: string } | undefined {
  if (!SOURCE_EXTENSION.test(path)) return undefined;
  const segments = path.split('/');
  const file = (segments[segments.length - 1] ?? '').replace(SOURCE_EXTENSION, '');
  const pages = segments.findIndex((s, i) => s === 'pages' && segments[i + 1] === 'api');
  if (pages >= 0 && segments.length > pages + 2) {
    if (file.startsWith('_') || /\.(?:test|spec|d)$/.test(file)) return undefined;
    const parts = segments.slice(pages + 1, -1).concat(file === 'index' ? [] : [file]);
    return { kind: 'pages', path: normalizeHttpPath(parts.map(nextSegment).join('/')) };
  }
  const app = segments.lastIndexOf('app');
  if (app < 0 || file !== 'route') return undefined;
  // Route groups `(shop)` and parallel-route slots `@modal` are not part of the URL.
  const parts = segments.slice(app + 1, -1).filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith('@'));
  return { kind: 'app', path: normalizeHttpPath(parts.map(nextSegment).join('/')) };
}

export interface ExportedFunction {
  readonly name: string;
  readonly symbol?: number;
  readonly line: number;
}

/**
 * Route facts of a Next.js file: the default export (pages; one per method its `branches` name, else ANY)
 * or each exported HTTP-method handler (app).
 */
export function nextRouteFacts(
  path: string,
  defaultExport: ExportedFunction | undefined,
  exported: readonly ExportedFunction[],
  branches: () => readonly { readonly method: string; readonly line: number }[],
): ContractFact[] {
  const route = nextRoute(path);
  if (route === undefined) return [];
  const fact = (method: string, fn: ExportedFunction, via: string): ContractFact => ({
    kind: 'http_route',
    method,
    path: route.path,
    ...(fn.symbol === undefined ? {} : { symbol: fn.symbol }),
    line: fn.line,
    via,
  });
  if (route.kind === 'pages') {
    if (defaultExport === undefined) return [];
    // A handler branching on the method serves the methods it names; one that does not serves them all.
    const methods = branches();
    return methods.length === 0
      ? [fact('ANY', defaultExport, 'next pages/api')]
      : methods.map((m) => fact(m.method, { ...defaultExport, line: m.line }, 'next pages/api'));
  }
  return exported
    .filter((fn) => NEXT_METHODS.has(fn.name))
    .map((fn) => fact(fn.name, fn, 'next route handler'));
}

/** Identifiers passed to the wrapper calls of `f(g(handler), opts)`, innermost call first. */
export function wrappedHandlers(value: Node, depth = 0): string[] {
  const call = unwrap(value);
  if (call.type !== 'call_expression' || depth > 8) return [];
  const direct: string[] = [];
  const inner: string[] = [];
  for (const arg of argNodes(call)) {
    const a = unwrap(arg);
    if (a.type === 'identifier') direct.push(a.text);
    else inner.push(...wrappedHandlers(a, depth + 1));
  }
  // `connect(options)(Component)` is a call whose callee is a call: its own arguments come first.
  const callee = call.childForFieldName('function');
  const curried = callee === null ? [] : wrappedHandlers(callee, depth + 1);
  return [...inner, ...direct, ...curried];
}
