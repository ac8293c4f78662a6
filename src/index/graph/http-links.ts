import type { Confidence, ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { codeNode, evidenceOf, weaker } from './code-nodes.js';
import { routeShape } from './names.js';
import type { GraphBuilder } from './node-table.js';
import type { PropertyValues } from './property-values.js';

type RouteFact = Extract<ContractFact, { kind: 'http_route' }>;
type CallFact = Extract<ContractFact, { kind: 'http_call' }>;

export interface HttpCall {
  readonly file: IndexedFile;
  readonly fact: CallFact;
}

interface Route {
  readonly id: string;
  readonly method: string;
  readonly root: string;
}

/** The HTTP routes served in the workspace, by path shape (parameters as wildcards). */
export class RouteTable {
  private readonly byShape = new Map<string, Route[]>();

  /** Adds a route node and the `serves_http` edge from the code serving it. */
  add(builder: GraphBuilder, file: IndexedFile, fact: RouteFact): void {
    const id = builder.node({
      kind: 'http_route',
      name: `${fact.method} ${fact.path}`,
      root: file.root,
      file: file.path,
      line: fact.line,
    });
    builder.edge(codeNode(builder, file, fact.symbol), id, 'serves_http', 'exact', evidenceOf(file, fact));
    const shape = routeShape(fact.path);
    (this.byShape.get(shape) ?? this.byShape.set(shape, []).get(shape))?.push({
      id,
      method: fact.method,
      root: file.root,
    });
  }

  /** Routes a call can reach: same path shape, and same method unless either side is `ANY`. */
  matching(call: CallFact): Route[] {
    return (this.byShape.get(routeShape(call.path)) ?? []).filter(
      (route) => route.method === 'ANY' || call.method === 'ANY' || route.method === call.method,
    );
  }
}

/** Host names a service answers to: its service name and its root's last folder name. */
function hostIndex(services: ReadonlyMap<string, string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [root, service] of services) {
    for (const name of new Set([service.toLowerCase(), (root.split('/').pop() ?? root).toLowerCase()])) {
      const roots = index.get(name) ?? index.set(name, []).get(name);
      if (!roots?.includes(root)) roots?.push(root);
    }
  }
  return index;
}

/**
 * Which of the matching routes a call reaches: when the base URL's host names a service, that service's
 * routes; otherwise the routes of other roots than the caller's (heuristic), unless its own is the only one.
 */
function chooseRoutes(
  candidates: readonly Route[],
  call: HttpCall,
  hostRoots: readonly string[] | undefined,
): { routes: readonly Route[]; confidence: Confidence } | undefined {
  if (hostRoots) {
    const matched = candidates.filter((route) => hostRoots.includes(route.root));
    if (matched.length === 0) return undefined;
    return {
      routes: matched,
      confidence: matched.length === 1 ? weaker(call.fact.confidence, 'exact') : 'ambiguous',
    };
  }
  const targets = candidates.filter((route) => route.root !== call.file.root || candidates.length === 1);
  if (targets.length === 0) return undefined;
  return {
    routes: targets,
    confidence: targets.length === 1 ? weaker(call.fact.confidence, 'heuristic') : 'ambiguous',
  };
}

/** HTTP calls → routes: same method and path shape; the base URL's host picks the service when it can. */
export function linkHttpCalls(
  builder: GraphBuilder,
  routes: RouteTable,
  calls: readonly HttpCall[],
  services: ReadonlyMap<string, string>,
  values: PropertyValues,
): void {
  const rootByHost = hostIndex(services);
  for (const call of calls) {
    const { file, fact } = call;
    // A call whose path is not known names no route: `/` is a placeholder, not the root.
    if (fact.unresolved !== undefined) continue;
    const candidates = routes.matching(fact);
    if (candidates.length === 0) continue;
    const host = values.hostOf(fact.base, file.root);
    const chosen = chooseRoutes(candidates, call, host ? rootByHost.get(host) : undefined);
    if (!chosen) continue;
    for (const route of chosen.routes)
      builder.edge(
        codeNode(builder, file, fact.symbol),
        route.id,
        'calls_http',
        chosen.confidence,
        evidenceOf(file, fact),
      );
  }
}
