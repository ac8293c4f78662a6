/**
 * Python route registrations made by a call rather than a decorator, as data: aiohttp's `web.get("/x", h)`
 * (inside `app.add_routes([...])`), `app.router.add_get("/x", h)` / `add_route("GET", "/x", h)`, and
 * Starlette's `Route("/x", endpoint, methods=[...])`. Decorator routes (Flask, FastAPI, aiohttp's
 * `RouteTableDef`) are read by `routeFromDecorator` in contracts.ts.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import type { Origin } from './contracts.js';
import { callArguments, literalString } from './values.js';
import { normalizeHttpPath } from '../shared/tree-utils.js';

interface RouteCall {
  readonly module: string;
  readonly names: ReadonlyMap<string, string | undefined>;
  /** Where the path is; the method is fixed by the name, or is the argument before the path. */
  readonly path: number;
  /** Keyword listing the methods (Starlette `methods=[...]`), GET when absent. */
  readonly methodsKeyword?: string;
  readonly via: string;
}

const AIOHTTP_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head'];

/** Module functions that declare a route (`web.get("/x", h)`, `Route("/x", h)`); `undefined` method: argument 0. */
const ROUTE_FUNCTIONS: readonly RouteCall[] = [
  {
    module: 'aiohttp.web',
    names: new Map([
      ...AIOHTTP_VERBS.map((verb): [string, string] => [verb, verb.toUpperCase()]),
      ['view', 'ANY'],
    ]),
    path: 0,
    via: 'aiohttp web',
  },
  { module: 'aiohttp.web', names: new Map([['route', undefined]]), path: 1, via: 'aiohttp web' },
  {
    module: 'starlette.routing',
    names: new Map([['Route', 'GET']]),
    path: 0,
    methodsKeyword: 'methods',
    via: 'starlette Route',
  },
];

/** aiohttp's router methods (`app.router.add_get("/x", h)`), read only in a file importing aiohttp. */
const ROUTER_METHODS: ReadonlyMap<string, string | undefined> = new Map([
  ...AIOHTTP_VERBS.map((verb): [string, string] => [`add_${verb}`, verb.toUpperCase()]),
  ['add_view', 'ANY'],
  ['add_route', undefined],
]);

function routeFacts(
  args: Node | null,
  fixed: string | undefined,
  pathAt: number,
  methodsKeyword: string | undefined,
  via: string,
  line: number,
): ContractFact[] {
  const { positional, keywords } = callArguments(args);
  const raw = literalString(positional[pathAt] ?? keywords.get('path'));
  if (raw === undefined || !raw.startsWith('/')) return [];
  let methods: string[];
  if (fixed === undefined) {
    const method = literalString(positional[0] ?? keywords.get('method'))?.toUpperCase();
    methods = method === undefined ? [] : [method === '*' ? 'ANY' : method];
  } else {
    const list = methodsKeyword === undefined ? undefined : keywords.get(methodsKeyword);
    const named = (list?.namedChildren ?? []).map((item) =>
      item === null ? undefined : literalString(item),
    );
    methods = named.filter((item): item is string => item !== undefined).map((item) => item.toUpperCase());
    if (methods.length === 0) methods = [fixed];
  }
  const path = normalizeHttpPath(raw);
  return methods.map((method) => ({ kind: 'http_route', method, path, line, via }));
}

/** The routes a call of an imported name declares (`web.get(…)`, `Route(…)`); empty for any other call. */
export function routeFunctionFacts(origin: Origin, args: Node | null, line: number): ContractFact[] {
  for (const entry of ROUTE_FUNCTIONS) {
    if (entry.module !== origin.module || !entry.names.has(origin.name)) continue;
    return routeFacts(args, entry.names.get(origin.name), entry.path, entry.methodsKeyword, entry.via, line);
  }
  return [];
}

/** The routes `<x>.router.add_get("/x", h)` declares; empty unless the method is one of aiohttp's. */
export function routerMethodFacts(method: string, args: Node | null, line: number): ContractFact[] {
  if (!ROUTER_METHODS.has(method)) return [];
  const fixed = ROUTER_METHODS.get(method);
  return routeFacts(args, fixed, fixed === undefined ? 1 : 0, undefined, `aiohttp router ${method}`, line);
}
