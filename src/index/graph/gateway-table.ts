import type { ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { joinPaths } from './addresses.js';
import { codeNode, evidenceOf, serviceNode, weaker } from './code-nodes.js';
import type { HttpTarget, HttpTargets } from './http-targets.js';
import type { GraphBuilder } from './node-table.js';
import { segmentsOf, underPrefix, type Route, type RouteTable } from './route-table.js';

type ProxyFact = Extract<ContractFact, { kind: 'http_proxy' }>;

/** The placeholder a discovery gateway's prefix and target carry for each service's name. */
const DISCOVERED = '{service}';

/** A gateway route: requests under `prefix` go to `target`, their prefix rewritten to `forward`. */
export interface GatewayRoute {
  readonly file: IndexedFile;
  readonly fact: ProxyFact;
  readonly target: HttpTarget;
  readonly prefix: readonly string[];
  /** The path the target receives in place of the prefix (the target URL's own path included). */
  readonly forward: string;
}

/** Where a request path goes through one gateway route, and what path the target then sees. */
export interface Forwarded {
  readonly via: GatewayRoute;
  readonly path: string;
  readonly roots: readonly string[];
}

/**
 * The gateways of the workspace (Zuul, Spring Cloud Gateway, nginx, Envoy, Ingress, Traefik routes, read
 * as `http_proxy` facts): each route's target resolved like a call's base, from the gateway's root.
 */
export class GatewayTable {
  private readonly byRoot = new Map<string, GatewayRoute[]>();
  /** Gateways routing to every service by its name (Spring Cloud Gateway's discovery locator). */
  private readonly discovery: { file: IndexedFile; fact: ProxyFact }[] = [];

  constructor(private readonly targets: HttpTargets) {}

  add(file: IndexedFile, fact: ProxyFact): void {
    if (fact.target.includes(DISCOVERED)) {
      this.discovery.push({ file, fact });
      return;
    }
    const target = this.targets.resolve(fact.target, file.root, file);
    const forward = joinPaths(target.path, fact.rewrite ?? fact.prefix);
    const route: GatewayRoute = { file, fact, target, prefix: segmentsOf(fact.prefix), forward };
    (this.byRoot.get(file.root) ?? this.byRoot.set(file.root, []).get(file.root))?.push(route);
  }

  /** Whether any root holds gateway routes. */
  get empty(): boolean {
    return this.byRoot.size === 0;
  }

  /**
   * Gateway code → every route of the target under the rewritten prefix (`calls_http`); a target with no
   * such route gets one `proxies_http` edge to its service node; a target that names no service is listed
   * as unresolved.
   */
  link(builder: GraphBuilder, routes: RouteTable): void {
    this.expandDiscovery(routes);
    for (const list of this.byRoot.values())
      for (const route of list) linkGatewayRoute(builder, routes, route);
  }

  /**
   * A discovery gateway (`prefix: /{service}`, `target: service:{service}`) routes `/<name>/**` to each
   * service serving routes, by each of its names: one gateway route per (service, name).
   */
  private expandDiscovery(routes: RouteTable): void {
    for (const { file, fact } of this.discovery) {
      for (const root of routes.roots()) {
        if (root === file.root) continue;
        for (const name of this.targets.namesOf(root)) {
          const prefix = fact.prefix.replace(DISCOVERED, name);
          const target: HttpTarget = { kind: 'service', host: name, roots: [root], path: '' };
          const forward = fact.rewrite === undefined ? prefix : fact.rewrite.replace(DISCOVERED, name);
          const route: GatewayRoute = {
            file,
            fact: { ...fact, prefix },
            target,
            prefix: segmentsOf(prefix),
            forward,
          };
          (this.byRoot.get(file.root) ?? this.byRoot.set(file.root, []).get(file.root))?.push(route);
        }
      }
    }
  }

  /**
   * A request path as the gateways in `roots` (every gateway when undefined) forward it: per gateway, its
   * longest matching prefix. Targets that name no service are left out.
   */
  forward(path: string, roots?: readonly string[]): Forwarded[] {
    const segments = segmentsOf(path);
    const out: Forwarded[] = [];
    for (const root of roots ?? [...this.byRoot.keys()]) {
      const best = (this.byRoot.get(root) ?? [])
        .filter((g) => g.target.kind === 'service' && underPrefix(segments, g.prefix))
        .sort((a, b) => b.prefix.length - a.prefix.length)[0];
      if (!best || best.target.kind !== 'service') continue;
      const rest = segments.slice(best.prefix.length).join('/');
      out.push({
        via: best,
        path: joinPaths(best.forward, rest === '' ? '/' : `/${rest}`),
        roots: best.target.roots,
      });
    }
    return out;
  }
}

function linkGatewayRoute(builder: GraphBuilder, routes: RouteTable, gateway: GatewayRoute): void {
  const { file, fact, target } = gateway;
  if (target.kind !== 'service') {
    builder.unresolved({
      root: file.root,
      file: file.path,
      line: fact.line,
      method: 'ANY',
      path: fact.prefix,
      base: fact.target,
      url: `${fact.prefix} → ${fact.target}`,
      via: fact.via,
      reason: target.kind === 'external' ? `external host ${target.host}` : 'target names no service',
    });
    return;
  }
  const from = codeNode(builder, file, fact.symbol);
  const roots = target.roots.filter((r) => r !== file.root);
  const confidence = weaker(fact.confidence, roots.length > 1 ? 'ambiguous' : 'exact');
  for (const root of roots) {
    const reached: Route[] = routes.under(root, gateway.forward);
    if (reached.length === 0) {
      builder.edge(from, serviceNode(builder, root), 'proxies_http', confidence, evidenceOf(file, fact));
      continue;
    }
    for (const route of reached)
      builder.edge(from, route.id, 'calls_http', confidence, evidenceOf(file, fact));
  }
}
