/**
 * Which contract nodes a `contracts dependents` target names: a gRPC service or proto message by its name
 * or its last segment in any case, a method as `pkg.Service/Method`, `Service.Method` or its method name
 * however cased, a topic or HTTP route by its name. Looked up in an index of those spellings built once per
 * contract graph, so a call does not test every node of a workspace (248,000 files hold about as many).
 */
import type { ContractGraph, GraphNode } from '../../index/reader.js';
import { methodKey } from '../shared/graph-queries.js';

const indexes = new WeakMap<ContractGraph, Map<string, GraphNode[]>>();

/** The spellings a node answers to, each prefixed by how it is compared. */
function spellingsOf(node: GraphNode): readonly string[] {
  switch (node.kind) {
    case 'grpc_service':
    case 'proto_message':
      return [`=${node.name}`, `~${(node.name.split('.').pop() ?? '').toLowerCase()}`];
    case 'grpc_method': {
      const [service, method] = node.name.split('/');
      const bare = service?.split('.').pop() ?? '';
      return [`=${node.name}`, `=${bare}.${method}`, `m${methodKey(method ?? '')}`];
    }
    case 'topic':
    case 'http_route':
      return [`=${node.name}`];
    default:
      return [];
  }
}

function indexOf(graph: ContractGraph): Map<string, GraphNode[]> {
  let index = indexes.get(graph);
  if (index) return index;
  index = new Map();
  for (const node of graph.nodes)
    for (const spelling of new Set(spellingsOf(node))) {
      const list = index.get(spelling);
      if (list) list.push(node);
      else index.set(spelling, [node]);
    }
  indexes.set(graph, index);
  return index;
}

/** The contract nodes `target` names, in the graph's node order. */
export function contractsNamed(graph: ContractGraph, target: string): GraphNode[] {
  const index = indexOf(graph);
  const found = new Set<GraphNode>();
  for (const spelling of [`=${target}`, `~${target.toLowerCase()}`, `m${methodKey(target)}`])
    for (const node of index.get(spelling) ?? []) found.add(node);
  return [...found].sort((a, b) => a.id - b.id);
}
