import type { ContractGraph, GraphNode } from '../../index/reader.js';
import { isTestPath } from '../shared/workspace-paths.js';

/** The roots that own a contract node. */
export type OwnersOf = (node: GraphNode) => string[];

/**
 * Who owns a contract: the roots implementing it outside test code; for a method, else the roots
 * implementing its service; for a service, else the roots implementing any of its methods (handlers often
 * implement the methods, not the service); else the root declaring it.
 */
export function contractOwners(graph: ContractGraph): OwnersOf {
  const implementers = new Map<number, Set<string>>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'implements' || isTestPath(edge.file)) continue;
    const set = implementers.get(edge.to) ?? implementers.set(edge.to, new Set()).get(edge.to);
    set?.add(edge.root);
  }
  return (node) => {
    const direct = implementers.get(node.id);
    if (direct && direct.size > 0) return [...direct];
    if (node.kind === 'grpc_method') {
      const service = graph.nodeByName('grpc_service', node.name.split('/')[0] ?? '');
      const viaService = service ? implementers.get(service.id) : undefined;
      if (viaService && viaService.size > 0) return [...viaService];
    }
    if (node.kind === 'grpc_service') {
      const viaMethods = new Set<string>();
      for (const method of graph.methodsOf(node.name))
        for (const root of implementers.get(method.id) ?? []) viaMethods.add(root);
      if (viaMethods.size > 0) return [...viaMethods].sort();
    }
    return node.root !== undefined ? [node.root] : [];
  };
}
