/**
 * The gRPC contracts of a graph, indexed for lookup by name, and the parts a proto name splits into.
 */
import { compareStrings as cmp } from '../../core/order.js';
import type { ContractGraph, GraphNode } from '../../index/reader.js';

/** The standard gRPC health-check service: infrastructure every server registers, not a contract to trace. */
const HEALTH_PACKAGE = 'grpc.health.v1';

/** Case- and underscore-insensitive form of a name, as generated code respells proto names. */
export { nameKey } from '../../core/contract-names.js';
export const packageOf = (service: string): string => service.split('.').slice(0, -1).join('.');
export const bareOf = (service: string): string => service.split('.').pop() ?? service;
export const serviceOfMethod = (method: GraphNode): string => method.name.slice(0, method.name.indexOf('/'));
export const methodBare = (method: GraphNode): string => method.name.slice(method.name.indexOf('/') + 1);

export interface Contracts {
  readonly services: readonly GraphNode[];
  readonly methods: readonly GraphNode[];
  readonly methodsOf: ReadonlyMap<string, readonly GraphNode[]>;
  readonly serviceByName: ReadonlyMap<string, GraphNode>;
}

export function contractsOf(graph: ContractGraph): Contracts {
  const services = graph
    .nodesOfKind('grpc_service')
    .filter((n) => packageOf(n.name) !== HEALTH_PACKAGE)
    .sort((a, b) => cmp(a.name, b.name));
  const serviceByName = new Map(services.map((s) => [s.name, s]));
  const methods: GraphNode[] = [];
  const methodsOf = new Map<string, GraphNode[]>();
  for (const node of graph.nodesOfKind('grpc_method')) {
    const service = node.name.slice(0, node.name.indexOf('/'));
    if (!serviceByName.has(service)) continue;
    methods.push(node);
    (methodsOf.get(service) ?? methodsOf.set(service, []).get(service))?.push(node);
  }
  methods.sort((a, b) => cmp(a.name, b.name));
  for (const list of methodsOf.values())
    list.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || cmp(a.name, b.name));
  return { services, methods, methodsOf, serviceByName };
}
