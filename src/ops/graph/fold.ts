import type { Confidence, ContractGraph, GraphEdge } from '../../index/reader.js';
import type { Topology, TopologyLink, TopologyNode } from '../../render/topology.js';
import { isTestPath } from '../shared/workspace-paths.js';
import { ContractLists, type DisplayPath } from './contract-lists.js';
import { contractOwners, type OwnersOf } from './contract-owners.js';

const rank = (c: string) => (c === 'exact' ? 0 : c === 'heuristic' ? 1 : 2);
const weakest = (a: string, b: string): Confidence => (rank(a) >= rank(b) ? a : b) as Confidence;

/** A place in the folded view: `root:<root name>` for a service, `topic:<key>` for a topic. */
type Place = string;
const servicePlace = (root: string): Place => `root:${root}`;
const topicPlace = (topic: string): Place => `topic:${topic}`;
const isService = (place: Place): boolean => place.startsWith('root:');
const isTopic = (place: Place): boolean => place.startsWith('topic:');
/** The place `other`, where services left out of the drawing are folded. */
const FOLDED = 'other';

interface FoldedLink {
  from: Place;
  to: Place;
  kind: string;
  weight: number;
  confidence: string;
}

/** Links between places, one per (from, to, kind), weighted by how many edges fold into each. */
class LinkTable {
  private readonly byKey = new Map<string, FoldedLink>();

  add(from: Place, to: Place, kind: string, confidence: string, weight = 1): void {
    const key = `${from}\u0000${to}\u0000${kind}`;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.weight += weight;
      existing.confidence = weakest(existing.confidence, confidence);
    } else this.byKey.set(key, { from, to, kind, weight, confidence });
  }

  values(): IterableIterator<FoldedLink> {
    return this.byKey.values();
  }
}

interface FoldedEdges {
  readonly links: LinkTable;
  /** Ambiguous calls whose candidates belong to several services: counted, not drawn. */
  readonly ambiguousEdges: number;
}

/**
 * Whether an ambiguous edge's fan-out (the candidates of the same fact) spans several services; answered
 * once per fact, since every candidate asks.
 */
function spreadTest(graph: ContractGraph, ownersOf: OwnersOf): (edge: GraphEdge) => boolean {
  const answers = new Map<readonly GraphEdge[], boolean>();
  return (edge) => {
    const fanOut = graph.sameEvidence(edge);
    let spans = answers.get(fanOut);
    if (spans === undefined) {
      const candidates = fanOut.filter((e) => e.confidence === 'ambiguous');
      spans = new Set(candidates.flatMap((e) => ownersOf(graph.node(e.to)))).size > 1;
      answers.set(fanOut, spans);
    }
    return spans;
  };
}

/** Every edge outside test code, folded onto the roots holding its two ends. */
function foldEdges(graph: ContractGraph, ownersOf: OwnersOf, contracts: ContractLists): FoldedEdges {
  const links = new LinkTable();
  const spansServices = spreadTest(graph, ownersOf);
  let ambiguousEdges = 0;
  for (const edge of graph.edges) {
    // Test code (fakes, test clients) is not part of the running system's topology.
    if (isTestPath(edge.file)) continue;
    const target = graph.node(edge.to);
    const from = servicePlace(edge.root);
    switch (edge.kind) {
      case 'implements':
      case 'serves_http':
        contracts.add(edge.root, edge.kind === 'implements' ? 'implements' : 'serves', target);
        break;
      case 'produces':
        contracts.add(edge.root, edge.kind, target, edge);
        links.add(from, topicPlace(target.name), 'produces', edge.confidence);
        break;
      case 'consumes':
        contracts.add(edge.root, edge.kind, target, edge);
        links.add(topicPlace(target.name), from, 'consumes', edge.confidence);
        break;
      case 'calls_rpc':
      case 'calls_http': {
        if (edge.confidence === 'ambiguous' && spansServices(edge)) {
          ambiguousEdges++;
          break;
        }
        const owners =
          edge.kind === 'calls_http' ? (target.root !== undefined ? [target.root] : []) : ownersOf(target);
        const confidence = edge.confidence === 'ambiguous' ? 'heuristic' : edge.confidence;
        for (const owner of owners)
          if (owner !== edge.root) links.add(from, servicePlace(owner), edge.kind, confidence);
        break;
      }
    }
  }
  return { links, ambiguousEdges };
}

/** Every root is a service place (weight 0 until linked); topics appear when something links to them. */
function placeWeights(graph: ContractGraph, links: LinkTable): Map<Place, number> {
  const weight = new Map<Place, number>();
  for (const node of graph.nodesOfKind('service')) weight.set(servicePlace(node.name), 0);
  for (const l of links.values()) {
    weight.set(l.from, (weight.get(l.from) ?? 0) + l.weight);
    weight.set(l.to, (weight.get(l.to) ?? 0) + l.weight);
  }
  return weight;
}

/**
 * The places worth drawing: a root with no contract and no link (a docs or deploy folder) is not a service,
 * and a contracts folder is drawn only when something links to it (its declarations alone say nothing about
 * the running system).
 */
function connectedPlaces(
  weight: ReadonlyMap<Place, number>,
  contracts: ContractLists,
  isContracts: (place: Place) => boolean,
): Place[] {
  return [...weight.keys()].filter(
    (place) =>
      !isService(place) ||
      (weight.get(place) ?? 0) > 0 ||
      (!isContracts(place) && contracts.count(place.slice('root:'.length)) > 0),
  );
}

/** What a contracts folder declares (gRPC services, routes), listed on its node. */
function addDeclarations(
  graph: ContractGraph,
  contracts: ContractLists,
  contractRoots: ReadonlySet<string>,
): void {
  for (const kind of ['grpc_service', 'http_route'] as const)
    for (const node of graph.nodesOfKind(kind))
      if (node.root !== undefined && contractRoots.has(node.root) && !isTestPath(node.file ?? ''))
        contracts.add(node.root, 'declares', node);
}

/** The zoomed service, its neighbours, and the services on the other side of the topics it touches. */
function zoomedPlaces(weight: ReadonlyMap<Place, number>, links: LinkTable, zoom: string): Place[] {
  const center = servicePlace(zoom);
  const neighbours = new Set([center]);
  for (const l of links.values()) {
    if (l.from === center) neighbours.add(l.to);
    if (l.to === center) neighbours.add(l.from);
  }
  for (const l of links.values()) if (neighbours.has(l.from) && isTopic(l.from)) neighbours.add(l.to);
  for (const l of links.values()) if (neighbours.has(l.to) && isTopic(l.to)) neighbours.add(l.from);
  return [...weight.keys()].filter((k) => neighbours.has(k));
}

/** The best-connected services (and the zoomed one) are drawn; the rest are folded into `other`. */
function chooseServices(
  services: readonly Place[],
  weight: ReadonlyMap<Place, number>,
  options: FoldOptions,
): { shown: Set<Place>; hidden: string[] } {
  const byWeight = (a: string, b: string) =>
    (weight.get(b) ?? 0) - (weight.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
  const shown = new Set([...services].sort(byWeight).slice(0, options.maxServices));
  if (options.zoom !== undefined) shown.add(servicePlace(options.zoom));
  const hidden = services
    .filter((s) => !shown.has(s))
    .map((s) => s.slice('root:'.length))
    .sort();
  return { shown, hidden };
}

export interface FoldOptions {
  readonly workspace: string;
  readonly maxServices: number;
  /** Root name to zoom on. */
  readonly zoom?: string;
  /**
   * Roots holding contract declarations only (a folder of .proto files): drawn as `contracts`, never as a
   * service. An RPC whose implementation is not indexed links to the folder declaring it.
   */
  readonly contractRoots?: ReadonlySet<string>;
  /** How contract locations are shown; absent: root-relative. */
  readonly displayPath?: DisplayPath;
}

/**
 * The contract graph folded into services: one node per root, topics as nodes of their own, and one
 * weighted link per (from, to, kind). An RPC call links the caller's root to the roots implementing the
 * method (else the root declaring the proto). Ambiguous edges that point at several services are not drawn
 * (they are counted), since a guess drawn as a dependency misleads more than a gap.
 */
export function foldTopology(graph: ContractGraph, options: FoldOptions): Topology {
  const contractRoots = options.contractRoots ?? new Set<string>();
  const isContracts = (place: Place) => isService(place) && contractRoots.has(place.slice('root:'.length));
  const contracts = new ContractLists(options.displayPath ?? ((_root, file) => file));
  const folded = foldEdges(graph, contractOwners(graph), contracts);
  addDeclarations(graph, contracts, contractRoots);
  const weight = placeWeights(graph, folded.links);
  const places =
    options.zoom !== undefined
      ? zoomedPlaces(weight, folded.links, options.zoom)
      : connectedPlaces(weight, contracts, isContracts);
  // Contracts folders are always drawn: folded into "other services" they would be counted as services.
  const services = places.filter((p) => isService(p) && !isContracts(p));
  const { shown, hidden } = chooseServices(services, weight, options);
  // A Set: zooming on a contracts folder puts it among the shown services too.
  const drawn = [
    ...new Set([
      ...[...shown].sort(),
      ...places.filter(isContracts).sort(),
      ...places.filter(isTopic).sort(),
    ]),
  ];
  if (hidden.length > 0) drawn.push(FOLDED);
  const ids = new Map<Place, string>();
  drawn.forEach((place, i) =>
    ids.set(
      place,
      place === FOLDED ? FOLDED : `${isContracts(place) ? 'c' : isService(place) ? 's' : 't'}${i}`,
    ),
  );
  return {
    workspace: options.workspace,
    ...(options.zoom !== undefined ? { zoom: options.zoom } : {}),
    nodes: drawn.map((place) => {
      const node = topologyNode(place, ids, weight, contracts, hidden.length, isContracts(place));
      const broker = isTopic(place) ? graph.nodeByName('topic', node.label)?.broker : undefined;
      return broker === undefined ? node : { ...node, broker };
    }),
    links: topologyLinks(folded.links, ids, (place) =>
      isService(place) && !isContracts(place) && !shown.has(place) ? FOLDED : place,
    ),
    hidden: { services: hidden, topics: 0, ambiguousEdges: folded.ambiguousEdges },
  };
}

function topologyNode(
  place: Place,
  ids: ReadonlyMap<Place, string>,
  weight: ReadonlyMap<Place, number>,
  contracts: ContractLists,
  hiddenServices: number,
  contractsFolder: boolean,
): TopologyNode {
  if (place === FOLDED)
    return { id: FOLDED, kind: 'folded', label: `${hiddenServices} other services`, weight: 0 };
  const service = isService(place);
  const name = place.slice(service ? 'root:'.length : 'topic:'.length);
  return {
    id: ids.get(place) as string,
    kind: contractsFolder ? 'contracts' : service ? 'service' : 'topic',
    label: name,
    ...(service ? { root: name, contracts: contracts.sorted(name) } : {}),
    weight: weight.get(place) ?? 0,
  };
}

/** Links between drawn places, those of folded services merged into `other`'s, in a stable order. */
function topologyLinks(
  links: LinkTable,
  ids: ReadonlyMap<Place, string>,
  placeOf: (place: Place) => Place,
): TopologyLink[] {
  const merged = new LinkTable();
  for (const l of links.values()) {
    const from = placeOf(l.from);
    const to = placeOf(l.to);
    if (!ids.has(from) || !ids.has(to) || from === to) continue;
    merged.add(from, to, l.kind, l.confidence, l.weight);
  }
  return [...merged.values()]
    .map((l) => ({
      from: ids.get(l.from) as string,
      to: ids.get(l.to) as string,
      kind: l.kind,
      weight: l.weight,
      confidence: l.confidence,
    }))
    .sort((a, b) => (a.from + a.to + a.kind < b.from + b.to + b.kind ? -1 : 1));
}
