import type { Confidence } from '../../index/facts.js';
import type { ContractGraph, GraphEdge, GraphNode } from '../../index/graph/model.js';
import type { Topology, TopologyLink, TopologyNode } from '../../render/topology.js';
import { isTestPath } from '../shared/workspace-paths.js';

const rank = (c: string) => (c === 'exact' ? 0 : c === 'heuristic' ? 1 : 2);
const weakest = (a: string, b: string): Confidence => (rank(a) >= rank(b) ? a : b) as Confidence;

interface FoldedLink {
  from: string;
  to: string;
  kind: string;
  weight: number;
  confidence: string;
}

export interface FoldOptions {
  readonly workspace: string;
  readonly maxServices: number;
  /** Root name to zoom on. */
  readonly zoom?: string;
}

/**
 * The contract graph folded into services: one node per root, topics as nodes of their own, and one
 * weighted link per (from, to, kind). An RPC call links the caller's root to the roots implementing the
 * method (else the root declaring the proto). Ambiguous edges that point at several services are not drawn
 * (they are counted), since a guess drawn as a dependency misleads more than a gap.
 */
export function foldTopology(graph: ContractGraph, options: FoldOptions): Topology {
  const implementers = new Map<number, Set<string>>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'implements' || isTestPath(edge.file)) continue;
    const set = implementers.get(edge.to) ?? implementers.set(edge.to, new Set()).get(edge.to);
    set?.add(edge.root);
  }
  const ownersOf = (node: GraphNode): string[] => {
    const direct = implementers.get(node.id);
    if (direct && direct.size > 0) return [...direct];
    if (node.kind === 'grpc_method') {
      const service = graph.nodeByName('grpc_service', node.name.split('/')[0] ?? '');
      const viaService = service ? implementers.get(service.id) : undefined;
      if (viaService && viaService.size > 0) return [...viaService];
    }
    if (node.kind === 'grpc_service') {
      // Handlers often implement the methods, not the service: they own it too.
      const viaMethods = new Set<string>();
      for (const method of graph.nodes) {
        if (method.kind === 'grpc_method' && method.name.startsWith(`${node.name}/`)) {
          for (const root of implementers.get(method.id) ?? []) viaMethods.add(root);
        }
      }
      if (viaMethods.size > 0) return [...viaMethods].sort();
    }
    return node.root !== undefined ? [node.root] : [];
  };

  const links = new Map<string, FoldedLink>();
  const contracts = new Map<
    string,
    Map<string, { kind: string; name: string; file?: string; line?: number }>
  >();
  const addContract = (root: string, kind: string, node: GraphNode) => {
    const map = contracts.get(root) ?? contracts.set(root, new Map()).get(root);
    map?.set(`${kind}|${node.name}`, {
      kind,
      name: node.name,
      ...(node.file ? { file: node.file, line: node.line ?? 0 } : {}),
    });
  };
  const link = (from: string, to: string, kind: string, confidence: string) => {
    const key = `${from}\u0000${to}\u0000${kind}`;
    const existing = links.get(key);
    if (existing) {
      existing.weight++;
      existing.confidence = weakest(existing.confidence, confidence);
    } else links.set(key, { from, to, kind, weight: 1, confidence });
  };
  const ambiguousTargets = new Map<string, Set<string>>();
  let ambiguousEdges = 0;

  const byEvidence = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    if (edge.confidence !== 'ambiguous') continue;
    const key = `${edge.kind}|${edge.root}|${edge.file}|${edge.line}`;
    (byEvidence.get(key) ?? byEvidence.set(key, []).get(key))?.push(edge);
  }
  for (const [key, edges] of byEvidence) {
    const roots = new Set(edges.flatMap((e) => ownersOf(graph.nodes[e.to] as GraphNode)));
    ambiguousTargets.set(key, roots);
  }

  for (const edge of graph.edges) {
    // Test code (fakes, test clients) is not part of the running system's topology.
    if (isTestPath(edge.file)) continue;
    const target = graph.nodes[edge.to] as GraphNode;
    if (edge.kind === 'implements' || edge.kind === 'serves_http') {
      addContract(edge.root, edge.kind === 'implements' ? 'implements' : 'serves', target);
      continue;
    }
    if (edge.kind === 'produces' || edge.kind === 'consumes') {
      addContract(edge.root, edge.kind, target);
      const topic = `topic:${target.name}`;
      if (edge.kind === 'produces') link(`root:${edge.root}`, topic, 'produces', edge.confidence);
      else link(topic, `root:${edge.root}`, 'consumes', edge.confidence);
      continue;
    }
    if (edge.kind !== 'calls_rpc' && edge.kind !== 'calls_http') continue;
    const owners =
      edge.kind === 'calls_http' ? (target.root !== undefined ? [target.root] : []) : ownersOf(target);
    if (edge.confidence === 'ambiguous') {
      const spread = ambiguousTargets.get(`${edge.kind}|${edge.root}|${edge.file}|${edge.line}`);
      if (spread && spread.size > 1) {
        ambiguousEdges++;
        continue;
      }
    }
    for (const owner of owners) {
      if (owner === edge.root) continue;
      link(
        `root:${edge.root}`,
        `root:${owner}`,
        edge.kind,
        edge.confidence === 'ambiguous' ? 'heuristic' : edge.confidence,
      );
    }
  }

  // Every root is a service node, linked or not; topics appear when something produces or consumes them.
  const weight = new Map<string, number>();
  for (const node of graph.nodes) if (node.kind === 'service') weight.set(`root:${node.name}`, 0);
  for (const l of links.values()) {
    weight.set(l.from, (weight.get(l.from) ?? 0) + l.weight);
    weight.set(l.to, (weight.get(l.to) ?? 0) + l.weight);
  }
  // A root with no contract and no link (a docs or deploy folder) is not a service worth drawing.
  let keys = [...weight.keys()].filter(
    (key) =>
      !key.startsWith('root:') || (weight.get(key) ?? 0) > 0 || (contracts.get(key.slice(5))?.size ?? 0) > 0,
  );
  if (options.zoom !== undefined) {
    const center = `root:${options.zoom}`;
    const neighbours = new Set([center]);
    for (const l of links.values()) {
      if (l.from === center) neighbours.add(l.to);
      if (l.to === center) neighbours.add(l.from);
    }
    // A topic the zoomed service touches brings the services on its other side.
    for (const l of links.values())
      if (neighbours.has(l.from) && l.from.startsWith('topic:')) neighbours.add(l.to);
    for (const l of links.values())
      if (neighbours.has(l.to) && l.to.startsWith('topic:')) neighbours.add(l.from);
    keys = [...weight.keys()].filter((k) => neighbours.has(k));
  }
  const services = keys.filter((k) => k.startsWith('root:'));
  const topics = keys.filter((k) => k.startsWith('topic:'));
  const byWeight = (a: string, b: string) =>
    (weight.get(b) ?? 0) - (weight.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
  const shownServices = new Set([...services].sort(byWeight).slice(0, options.maxServices));
  if (options.zoom !== undefined) shownServices.add(`root:${options.zoom}`);
  const hiddenServices = services
    .filter((s) => !shownServices.has(s))
    .map((s) => s.slice(5))
    .sort();
  const folded = 'other';
  const placeOf = (key: string) => (key.startsWith('root:') && !shownServices.has(key) ? folded : key);

  const ids = new Map<string, string>();
  const shownKeys = [...[...shownServices].sort(), ...topics.sort()];
  if (hiddenServices.length > 0) shownKeys.push(folded);
  shownKeys.forEach((key, i) =>
    ids.set(key, key === folded ? 'other' : `${key.startsWith('root:') ? 's' : 't'}${i}`),
  );
  const nodes: TopologyNode[] = shownKeys.map((key) => {
    if (key === folded)
      return { id: 'other', kind: 'folded', label: `${hiddenServices.length} other services`, weight: 0 };
    const isService = key.startsWith('root:');
    const name = key.slice(isService ? 5 : 6);
    const list = isService
      ? [...(contracts.get(name)?.values() ?? [])].sort((a, b) =>
          a.kind + a.name < b.kind + b.name ? -1 : 1,
        )
      : undefined;
    return {
      id: ids.get(key) as string,
      kind: isService ? 'service' : 'topic',
      label: name,
      ...(isService ? { root: name, contracts: list } : {}),
      weight: weight.get(key) ?? 0,
    };
  });
  const merged = new Map<string, FoldedLink>();
  for (const l of links.values()) {
    const from = placeOf(l.from);
    const to = placeOf(l.to);
    if (!ids.has(from) || !ids.has(to) || from === to) continue;
    const key = `${from}\u0000${to}\u0000${l.kind}`;
    const existing = merged.get(key);
    if (existing) {
      existing.weight += l.weight;
      existing.confidence = weakest(existing.confidence, l.confidence);
    } else merged.set(key, { ...l, from, to });
  }
  const topologyLinks: TopologyLink[] = [...merged.values()]
    .map((l) => ({
      from: ids.get(l.from) as string,
      to: ids.get(l.to) as string,
      kind: l.kind,
      weight: l.weight,
      confidence: l.confidence,
    }))
    .sort((a, b) => (a.from + a.to + a.kind < b.from + b.to + b.kind ? -1 : 1));
  return {
    workspace: options.workspace,
    ...(options.zoom !== undefined ? { zoom: options.zoom } : {}),
    nodes,
    links: topologyLinks,
    hidden: { services: hiddenServices, topics: 0, ambiguousEdges },
  };
}
