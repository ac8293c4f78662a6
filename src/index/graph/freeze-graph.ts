import type {
  ContractGraph,
  EdgeKind,
  GraphEdge,
  GraphNode,
  NodeKind,
  UnresolvedCall,
  UnresolvedTopic,
} from './model.js';
import { lazy } from '../../core/lazy.js';

/** Groups items under a key, keeping their order within each group. */
function groupBy<K, T>(items: readonly T[], keyOf: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const NONE: readonly never[] = [];

/**
 * The query side of a graph: each lookup's index is built on its first use. The string keys below are this
 * file's own (no caller sees or builds one); their parts are joined with NUL, which no kind, root or path
 * holds, and only a key's last part can be a free-form name, so two keys never collide.
 */
export function freezeGraph(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  unresolved: readonly UnresolvedCall[] = NONE,
  unresolvedTopics: readonly UnresolvedTopic[] = NONE,
): ContractGraph {
  const firstOf = <K>(groups: Map<K, GraphNode[]>) =>
    new Map([...groups].map(([key, group]) => [key, group[0] as GraphNode]));
  const byName = lazy(() => firstOf(groupBy(nodes, (n) => `${n.kind}\u0000${n.name}`)));
  const byKind = lazy(() => groupBy<NodeKind, GraphNode>(nodes, (n) => n.kind));
  const byRootName = lazy(() =>
    firstOf(
      groupBy(nodes, (n) => (n.root === undefined ? undefined : `${n.kind}\u0000${n.root}\u0000${n.name}`)),
    ),
  );
  const byFile = lazy(() =>
    groupBy(nodes, (n) =>
      n.root === undefined || n.file === undefined ? undefined : `${n.root}\u0000${n.file}`,
    ),
  );
  const outgoing = lazy(() => groupBy(edges, (e) => e.from));
  const incoming = lazy(() => groupBy(edges, (e) => e.to));
  const evidenceKey = (e: GraphEdge) => `${e.kind}\u0000${e.root}\u0000${e.file}\u0000${e.line}`;
  const byEvidence = lazy(() => groupBy(edges, evidenceKey));
  const methods = new Map<string, readonly GraphNode[]>();
  const ofKind = (kind: NodeKind): readonly GraphNode[] => byKind().get(kind) ?? NONE;
  const filtered = (list: readonly GraphEdge[] | undefined, kind: EdgeKind | undefined) =>
    !list ? NONE : kind === undefined ? list : list.filter((e) => e.kind === kind);

  return {
    nodes,
    edges,
    unresolved,
    unresolvedTopics,
    node(id) {
      const node = nodes[id];
      if (!node) throw new Error(`no graph node ${id}`);
      return node;
    },
    nodeByName: (kind, name) => byName().get(`${kind}\u0000${name}`),
    nodesOfKind: ofKind,
    nodeInRoot: (kind, root, name) => byRootName().get(`${kind}\u0000${root}\u0000${name}`),
    nodesInFile: (root, file) => byFile().get(`${root}\u0000${file}`) ?? NONE,
    methodsOf(service) {
      let list = methods.get(service);
      if (!list) {
        list = ofKind('grpc_method').filter((m) => m.name.startsWith(`${service}/`));
        methods.set(service, list);
      }
      return list;
    },
    outgoing: (id, kind) => filtered(outgoing().get(id), kind),
    incoming: (id, kind) => filtered(incoming().get(id), kind),
    sameEvidence: (edge) => byEvidence().get(evidenceKey(edge)) ?? [edge],
  };
}
