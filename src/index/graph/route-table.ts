import type { ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { joinPaths } from './addresses.js';
import { codeNode, evidenceOf } from './code-nodes.js';
import { routeShape } from './names.js';
import type { GraphBuilder } from './node-table.js';

type RouteFact = Extract<ContractFact, { kind: 'http_route' }>;

export interface Route {
  readonly id: string;
  readonly method: string;
  readonly root: string;
  /** As served: the root's context path, then the route's own path. */
  readonly path: string;
  /** Path segments, lower-case, parameters as `{}`. */
  readonly segments: readonly string[];
}

const WILDCARD = '{}';

export const segmentsOf = (path: string): string[] => {
  const shape = routeShape(path.replace(/[?#].*$/, ''));
  return shape === '' ? [] : shape.split('/');
};

const sameMethod = (a: string, b: string): boolean => a === 'ANY' || b === 'ANY' || a === b;

/** Two segment lists match when every segment is equal or either side is a parameter. */
const segmentsMatch = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i] || s === WILDCARD || b[i] === WILDCARD);

/** Whether `path` starts with `prefix`, segment by segment (a parameter matches any segment). */
export const underPrefix = (path: readonly string[], prefix: readonly string[]): boolean =>
  prefix.length <= path.length &&
  prefix.every((s, i) => s === path[i] || s === WILDCARD || path[i] === WILDCARD);

/**
 * The HTTP routes served in the workspace. A route is served under its root's context path (Spring's
 * `server.servlet.context-path` and kin), which `contextPath` gives; lookups go by exact path shape first
 * (a hash join), then by segments with parameters matching anything.
 */
export class RouteTable {
  private readonly byShape = new Map<string, Route[]>();
  private readonly byLength = new Map<number, Route[]>();
  private readonly byRoot = new Map<string, Route[]>();

  constructor(private readonly contextPath: (root: string) => string = () => '') {}

  /** Adds a route node and the `serves_http` edge from the code serving it. */
  add(builder: GraphBuilder, file: IndexedFile, fact: RouteFact): void {
    const path = joinPaths(this.contextPath(file.root), fact.path);
    const id = builder.node({
      kind: 'http_route',
      name: `${fact.method} ${path}`,
      root: file.root,
      file: file.path,
      line: fact.line,
    });
    builder.edge(codeNode(builder, file, fact.symbol), id, 'serves_http', 'exact', evidenceOf(file, fact));
    const segments = segmentsOf(path);
    const route: Route = { id, method: fact.method, root: file.root, path, segments };
    const push = <K>(map: Map<K, Route[]>, key: K) =>
      (map.get(key) ?? map.set(key, []).get(key))?.push(route);
    push(this.byShape, segments.join('/'));
    push(this.byLength, segments.length);
    push(this.byRoot, file.root);
  }

  /** Routes a call can reach: same path shape (else segments matching through parameters), and method. */
  matching(method: string, path: string): Route[] {
    const segments = segmentsOf(path);
    const exact = (this.byShape.get(segments.join('/')) ?? []).filter((r) => sameMethod(r.method, method));
    if (exact.length > 0) return exact;
    return (this.byLength.get(segments.length) ?? []).filter(
      (r) => sameMethod(r.method, method) && segmentsMatch(r.segments, segments),
    );
  }

  /** The roots serving at least one route. */
  roots(): string[] {
    return [...this.byRoot.keys()];
  }

  /** The routes of one root whose path starts with `prefix` (every route for `/`). */
  under(root: string, prefix: string): Route[] {
    const head = segmentsOf(prefix);
    return (this.byRoot.get(root) ?? []).filter((r) => underPrefix(r.segments, head));
  }
}
