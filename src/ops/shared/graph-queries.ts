import type { ContractGraph, GraphNode, IndexedFile, SnapshotReader } from '../../index/reader.js';

import { methodKey, nameKey } from '../../core/contract-names.js';

export { methodKey };

/** Topic keys compared with separators ignored: `orders.created`, `orders-created`, `ORDERS_CREATED`. */
export const topicKey = (name: string): string => name.replace(/[.:\-/]/g, '_').toLowerCase();

export interface ResolvedTarget {
  readonly nodes: readonly GraphNode[];
  /** How the target matched: exact name, normalised name, or substring (a heuristic). */
  readonly match: 'exact' | 'normalised' | 'substring';
}

/**
 * gRPC methods for `pkg.Service/Method`, `Service.Method`, `Service/Method` or a bare `Method`; services for
 * `pkg.Service` or `Service`. Exact spellings win; a bare name matches case- and `_`-insensitively.
 */
export function resolveGrpc(graph: ContractGraph, target: string): ResolvedTarget {
  const trimmed = target.trim();
  const methods = graph.nodesOfKind('grpc_method');
  const services = graph.nodesOfKind('grpc_service');
  const exact = [...methods, ...services].filter((n) => n.name === trimmed);
  if (exact.length > 0) return { nodes: exact, match: 'exact' };
  // `Service.Method`, `pkg.Service/Method`, `Service Method`, `shipping-service GetQuote`.
  const split = /^(.*?)(?:[./]|\s+)([^./\s]+)$/.exec(trimmed);
  if (split?.[1] && split[2]) {
    const [, servicePart, methodPart] = split;
    const serviceBare = nameKey(servicePart.split('.').pop() ?? servicePart);
    const byServiceMethod = methods.filter((n) => {
      const [qualified, method] = n.name.split('/');
      const bare = nameKey(qualified?.split('.').pop() ?? '');
      return bare === serviceBare && methodKey(method ?? '') === methodKey(methodPart);
    });
    if (byServiceMethod.length > 0) return { nodes: byServiceMethod, match: 'normalised' };
  }
  const bare = trimmed.toLowerCase();
  const serviceMatches = services.filter((n) => nameKey(n.name.split('.').pop() ?? '') === nameKey(bare));
  if (serviceMatches.length > 0) return { nodes: serviceMatches, match: 'normalised' };
  const methodMatches = methods.filter((n) => methodKey(n.name.split('/')[1] ?? '') === methodKey(trimmed));
  if (methodMatches.length > 0) return { nodes: methodMatches, match: 'normalised' };
  return { nodes: [], match: 'exact' };
}

/** Topics: the exact key wins; then the separator-normalised key; then (heuristic) keys containing it. */
export function resolveTopic(graph: ContractGraph, target: string): ResolvedTarget {
  const topics = graph.nodesOfKind('topic');
  const exact = topics.filter((n) => n.name === target.trim());
  if (exact.length > 0) return { nodes: exact, match: 'exact' };
  const key = topicKey(
    target.trim().split('.').length > 1 && /^[A-Z]\w*\.[A-Z_]+$/.test(target.trim())
      ? (target.trim().split('.').pop() ?? '')
      : target.trim(),
  );
  const normalised = topics.filter((n) => topicKey(n.name) === key);
  if (normalised.length > 0) return { nodes: normalised, match: 'normalised' };
  if (key.length < 3) return { nodes: [], match: 'exact' };
  const contains = topics.filter((n) => topicKey(n.name).includes(key));
  return { nodes: contains, match: 'substring' };
}

/** HTTP routes: `GET /orders/{id}` or a bare path; parameters match whatever their names. */
export function resolveRoute(graph: ContractGraph, target: string): ResolvedTarget {
  const match = /^(?:(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|ANY)\s+)?(\/\S*)$/i.exec(target.trim());
  if (!match?.[2]) return { nodes: [], match: 'exact' };
  const method = match[1]?.toUpperCase();
  const shape = (p: string) =>
    p
      .split('/')
      .filter(Boolean)
      .map((s) => (/^\{.*\}$|^:/.test(s) ? '{}' : s.toLowerCase()))
      .join('/');
  const wanted = shape(match[2]);
  const nodes = graph.nodesOfKind('http_route').filter((n) => {
    const [routeMethod, routePath] = n.name.split(' ');
    return shape(routePath ?? '') === wanted && (!method || routeMethod === method || routeMethod === 'ANY');
  });
  return { nodes, match: 'exact' };
}

/** A contract by any of its spellings: an HTTP route first, then a gRPC method or service, then a topic. */
export function resolveContract(
  graph: ContractGraph,
  target: string,
): { kind: 'HTTP route' | 'gRPC' | 'topic'; resolved: ResolvedTarget } {
  const route = resolveRoute(graph, target);
  if (route.nodes.length > 0) return { kind: 'HTTP route', resolved: route };
  const grpc = resolveGrpc(graph, target);
  if (grpc.nodes.length > 0) return { kind: 'gRPC', resolved: grpc };
  return { kind: 'topic', resolved: resolveTopic(graph, target) };
}

/**
 * Files that call methods of a gRPC service (`package.Service`) by name. Their calls are known method by
 * method, so a service-level binding in the same file (a stub built, a client injected) adds nothing.
 */
export function methodCallerFiles(snapshot: SnapshotReader, service: string): ReadonlySet<IndexedFile> {
  const graph = snapshot.contractGraph();
  const files = new Set<IndexedFile>();
  for (const method of graph.methodsOf(service)) {
    for (const edge of graph.incoming(method.id, 'calls_rpc')) {
      const file = snapshot.fileOf(edge);
      if (file) files.add(file);
    }
  }
  return files;
}
