import type { Confidence, ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { joinPaths } from './addresses.js';
import { codeNode, evidenceOf, weaker } from './code-nodes.js';
import type { GatewayRoute, GatewayTable } from './gateway-table.js';
import type { HttpTarget, HttpTargets } from './http-targets.js';
import type { GraphBuilder } from './node-table.js';
import { nearestTo } from './root-proximity.js';
import type { Route, RouteTable } from './route-table.js';

type CallFact = Extract<ContractFact, { kind: 'http_call' }>;

export interface HttpCall {
  readonly file: IndexedFile;
  readonly fact: CallFact;
}

/** The routes one call reaches, how sure that is, and the gateway it went through, if any. */
interface Reach {
  readonly routes: readonly Route[];
  readonly confidence: Confidence;
  /** The gateway route the call went through: how it was recognised and the gateway's root. */
  readonly through?: { readonly via: string; readonly root: string };
}

/** A path-only match that several services answer: nothing tells which one the call reaches. */
interface Undecided {
  readonly undecided: readonly string[];
}

interface Known {
  readonly routes: RouteTable;
  readonly gateways: GatewayTable;
  readonly targets: HttpTargets;
  /** Root name → folder, to prefer the nearest of same-named services. */
  readonly rootFolders: ReadonlyMap<string, string>;
}

/** Routes of the target's roots, else what the target's gateway routes forward the path to. */
function reachService(
  known: Known,
  call: HttpCall,
  target: Extract<HttpTarget, { kind: 'service' }>,
  path: string,
): Reach | undefined {
  const { method } = call.fact;
  // The service the name means is decided before its routes: the nearest of the roots answering to it.
  const roots = nearestTo(
    target.roots.map((root) => ({ root })),
    call.file.root,
    known.rootFolders,
  ).map((r) => r.root);
  const direct = known.routes.matching(method, path).filter((r) => roots.includes(r.root));
  if (direct.length > 0)
    return {
      routes: direct,
      confidence: weaker(call.fact.confidence, direct.length === 1 ? 'exact' : 'ambiguous'),
    };
  const forwarded = known.gateways.forward(path, roots).flatMap((f) =>
    known.routes
      .matching(method, f.path)
      .filter((r) => f.roots.includes(r.root))
      .map((route) => ({ route, via: f.via, sure: f.via.fact.confidence })),
  );
  if (forwarded.length === 0) return undefined;
  const gatewaySure = forwarded.reduce<Confidence>((c, f) => weaker(c, f.sure), 'exact');
  return {
    routes: forwarded.map((f) => f.route),
    confidence: weaker(
      weaker(call.fact.confidence, gatewaySure),
      forwarded.length === 1 ? 'exact' : 'ambiguous',
    ),
    ...throughOf(forwarded[0]?.via),
  };
}

const throughOf = (route: GatewayRoute | undefined): Pick<Reach, 'through'> =>
  route === undefined ? {} : { through: { via: route.fact.via, root: route.file.root } };

/**
 * A call whose host is unknown (or the machine itself): the routes of other roots with its path, else of
 * what some gateway forwards it to — heuristic when one service fits (ambiguous between its routes). When
 * several services fit, the path alone does not say which: the call is listed as unresolved, not fanned out.
 */
function reachByPath(known: Known, call: HttpCall, path: string): Reach | Undecided | undefined {
  const { file, fact } = call;
  // A path of parameters only (`/{name}`) names no route: by path alone it would match any of that depth.
  if (path !== '/' && path.split('/').every((segment) => segment === '' || /^\{[^}]*\}$/.test(segment)))
    return undefined;
  const candidates = known.routes.matching(fact.method, path);
  let routes = nearestTo(
    candidates.filter((r) => r.root !== file.root || candidates.length === 1),
    file.root,
    known.rootFolders,
  );
  let through: GatewayRoute | undefined;
  if (routes.length === 0) {
    const forwarded = known.gateways.forward(path).flatMap((f) =>
      known.routes
        .matching(fact.method, f.path)
        .filter((r) => f.roots.includes(r.root) && r.root !== file.root)
        .map((route) => ({ route, via: f.via })),
    );
    routes = [...new Set(forwarded.map((f) => f.route))];
    through = forwarded[0]?.via;
  }
  if (routes.length === 0) return undefined;
  const roots = [...new Set(routes.map((r) => r.root))].sort();
  if (roots.length > 1) return { undecided: roots };
  const confidence = weaker(fact.confidence, routes.length === 1 ? 'heuristic' : 'ambiguous');
  return { routes, confidence, ...throughOf(through) };
}

/**
 * `host + ":" + port + "/orders"` with the host unknown leaves the port as the path's first segment
 * (`/:{DAPR_HTTP_PORT}/orders`, `/{daprHttpPort}/orders`, `/:8080/orders`); a port never decides which
 * route is called, so that segment is dropped.
 */
export function withoutPortSegment(path: string): string {
  const match = /^\/(:\d+|:\{[^}/]*\}|\{[^}/]*port\})(?=\/|$)/i.exec(path);
  if (!match) return path;
  const rest = path.slice(match[0].length);
  return rest === '' ? '/' : rest;
}

function unresolvedReason(target: HttpTarget, method: string, path: string): string {
  switch (target.kind) {
    case 'service':
      return `${target.host} is ${target.roots.join(', ')}, which serves no ${method} ${path}`;
    case 'external':
      return `external host ${target.host}`;
    case 'local':
      return `local host; no route ${method} ${path} in another root`;
    default:
      return `host unknown; no route ${method} ${path} in another root`;
  }
}

/**
 * HTTP calls → routes by method and path template. The base names the service when it resolves (by any of
 * the service's names, through environment and configuration); a base path prefixes the call's path; a
 * call reaching a gateway follows its routes. A call whose host is unknown matches by path alone. A call
 * that reaches nothing is recorded as unresolved.
 */
export function linkHttpCalls(builder: GraphBuilder, known: Known, calls: readonly HttpCall[]): void {
  for (const call of calls) {
    const { file, fact } = call;
    const target = known.targets.resolve(fact.base, file.root, file);
    const path = joinPaths(target.path, withoutPortSegment(fact.path));
    // A path known only in part is no template: it is listed, never matched.
    const reach =
      fact.unresolved !== undefined
        ? undefined
        : target.kind === 'service'
          ? reachService(known, call, target, path)
          : target.kind === 'external'
            ? undefined
            : reachByPath(known, call, path);
    if (!reach || 'undecided' in reach) {
      const undecided = reach === undefined ? undefined : reach.undecided;
      builder.unresolved({
        root: file.root,
        file: file.path,
        line: fact.line,
        method: fact.method,
        path,
        ...(fact.unresolved === undefined ? {} : { partial: true }),
        ...(fact.base === undefined ? {} : { base: fact.base }),
        url: fact.unresolved ?? (fact.base === undefined ? fact.path : `${fact.base} ${fact.path}`),
        via: fact.via,
        reason:
          fact.unresolved !== undefined
            ? 'path not resolved'
            : undecided !== undefined
              ? `${undecided.length} services serve ${fact.method} ${path} and the host does not say which`
              : unresolvedReason(target, fact.method, path),
        ...(target.kind === 'service' ? { roots: target.roots } : undecided ? { roots: undecided } : {}),
      });
      continue;
    }
    const { through } = reach;
    const via = through === undefined ? fact.via : `${fact.via} → ${through.via}`;
    const gateway = through === undefined || through.root === file.root ? {} : { gateway: through.root };
    const from = codeNode(builder, file, fact.symbol);
    for (const route of reach.routes)
      builder.edge(from, route.id, 'calls_http', reach.confidence, {
        ...evidenceOf(file, fact),
        via,
        ...gateway,
      });
  }
}
