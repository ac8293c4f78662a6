import type { Confidence } from '../../index/facts.js';
import type { GraphEdge, GraphNode } from '../../index/graph/model.js';
import type { SnapshotReader } from '../../index/reader.js';
import { methodCallerFiles } from '../shared/graph-queries.js';
import { isTestPath } from '../shared/workspace-paths.js';
import { compareStrings as cmp } from '../../core/order.js';

export type ImpactRole = 'client' | 'handler' | 'producer' | 'consumer' | 'topic';

export interface ImpactRow {
  readonly hop: number;
  readonly scope: 'INTERNAL' | 'EXTERNAL';
  readonly role: ImpactRole;
  /** The code (or topic) impacted. */
  readonly element: string;
  /** Root name, or undefined for a topic hub. */
  readonly root: string | undefined;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly confidence: Confidence;
  readonly via: string;
}

export interface ImpactResult {
  readonly owners: readonly string[];
  readonly rows: readonly ImpactRow[];
  readonly testRowsLeftOut: number;
  /** Topics reached with nobody producing / consuming them (outside tests). */
  readonly noProducer: readonly string[];
  readonly noConsumer: readonly string[];
  readonly fileLevelHops: number;
}

const ROLE_ORDER: Record<ImpactRole, number> = { client: 0, producer: 1, topic: 2, consumer: 3, handler: 4 };
const weaker = (a: Confidence, b: Confidence): Confidence =>
  a === 'ambiguous' || b === 'ambiguous'
    ? 'ambiguous'
    : a === 'heuristic' || b === 'heuristic'
      ? 'heuristic'
      : 'exact';

const shortName = (node: GraphNode): string => {
  if (node.kind === 'grpc_method') {
    const [service, method] = node.name.split('/');
    return `${service?.split('.').pop() ?? service}.${method}`;
  }
  if (node.kind === 'grpc_service') return node.name.split('.').pop() ?? node.name;
  return node.name;
};

interface Collector {
  add(row: Omit<ImpactRow, 'scope'>): void;
}

/**
 * Who is impacted when the target contracts change: clients and handlers of gRPC methods and services,
 * callers and handlers of HTTP routes, producers and consumers of topics; with `depth` > 1 the walk
 * follows what a reached handler or consumer produces, hop by hop, never visiting a topic twice.
 */
export function collectImpact(
  snapshot: SnapshotReader,
  targets: readonly GraphNode[],
  depth: number,
  includeTests: boolean,
): ImpactResult {
  const graph = snapshot.contractGraph();
  const raw: Omit<ImpactRow, 'scope'>[] = [];
  const seen = new Set<string>();
  let testRowsLeftOut = 0;
  const collector: Collector = {
    add(row) {
      if (row.file !== undefined && isTestPath(row.file)) {
        if (!includeTests) {
          const key = `test|${row.role}|${row.root}|${row.file}|${row.line}|${row.via}`;
          if (!seen.has(key)) {
            seen.add(key);
            testRowsLeftOut++;
          }
          return;
        }
      }
      const key = `${row.element}|${row.role}|${row.via}|${row.root ?? ''}|${row.file ?? ''}|${row.line ?? ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      raw.push(row);
    },
  };
  const codeOf = (edge: GraphEdge) => graph.node(edge.from);
  const rowFromEdge = (edge: GraphEdge, role: ImpactRole, hop: number, via: string, cap?: Confidence) => {
    const code = codeOf(edge);
    collector.add({
      hop,
      role,
      element: code.name,
      root: edge.root,
      file: edge.file,
      line: edge.line,
      confidence: cap ? weaker(edge.confidence, cap) : edge.confidence,
      via,
    });
  };

  const owners = new Set<string>();
  // A handler in a test file (a fake server) does not make its root an owner of the contract.
  const own = (edge: GraphEdge) => {
    if (includeTests || !isTestPath(edge.file)) owners.add(edge.root);
  };
  const downstream: { node: GraphNode; hop: number }[] = [];
  const visitedTopics = new Set<number>();
  const topicQueue: { topic: GraphNode; hop: number }[] = [];
  let fileLevelHops = 0;

  for (const target of targets) {
    if (target.kind === 'grpc_method' || target.kind === 'grpc_service') {
      const service =
        target.kind === 'grpc_method'
          ? graph.nodeByName('grpc_service', target.name.split('/')[0] ?? '')
          : target;
      const methods = target.kind === 'grpc_method' ? [target] : graph.methodsOf(target.name);
      for (const method of methods) {
        for (const edge of graph.incoming(method.id)) {
          if (edge.kind === 'implements') {
            rowFromEdge(edge, 'handler', 1, shortName(method));
            own(edge);
            downstream.push({ node: codeOf(edge), hop: 1 });
          } else if (edge.kind === 'calls_rpc') rowFromEdge(edge, 'client', 1, shortName(method));
        }
      }
      if (service) {
        // A file whose calls into this service are known method by method says by itself whether it calls
        // the target: its service-level binding (a stub built, a client injected) adds only noise.
        const tracedFiles = methodCallerFiles(snapshot, service.name);
        const traced = (edge: GraphEdge) => {
          const file = snapshot.fileOf(edge);
          return file !== undefined && tracedFiles.has(file);
        };
        for (const edge of graph.incoming(service.id)) {
          if (edge.kind === 'implements') {
            rowFromEdge(edge, 'handler', 1, shortName(service));
            own(edge);
          } else if (edge.kind === 'calls_rpc' && !traced(edge)) {
            rowFromEdge(edge, 'client', 1, shortName(service), 'heuristic');
          }
        }
      }
      if (owners.size === 0 && target.root) owners.add(target.root);
    } else if (target.kind === 'http_route') {
      for (const edge of graph.incoming(target.id)) {
        if (edge.kind === 'serves_http') {
          rowFromEdge(edge, 'handler', 1, target.name);
          downstream.push({ node: codeOf(edge), hop: 1 });
        } else if (edge.kind === 'calls_http') rowFromEdge(edge, 'client', 1, target.name);
      }
      if (target.root) owners.add(target.root);
    } else if (target.kind === 'topic') {
      for (const edge of graph.incoming(target.id)) if (edge.kind === 'produces') own(edge);
      visitedTopics.add(target.id);
      topicQueue.push({ topic: target, hop: 1 });
    }
  }

  const noProducer = new Set<string>();
  const noConsumer = new Set<string>();
  const producesOf = (code: GraphNode) => graph.outgoing(code.id).filter((e) => e.kind === 'produces');
  const reEmissions = (code: GraphNode, hop: number) => {
    // The consumer itself produces (exact), or something in its file does (a file-level hop, heuristic).
    const direct = producesOf(code);
    const sameFile =
      direct.length > 0 || code.file === undefined
        ? []
        : graph
            .nodesInFile(code.root ?? '', code.file)
            .filter((n) => n.id !== code.id)
            .flatMap((n) => producesOf(n));
    if (sameFile.length > 0) fileLevelHops++;
    for (const edge of [...direct, ...sameFile]) {
      const topic = graph.node(edge.to);
      rowFromEdge(edge, 'producer', hop, topic.name, direct.includes(edge) ? undefined : 'heuristic');
      if (!visitedTopics.has(topic.id)) {
        visitedTopics.add(topic.id);
        topicQueue.push({ topic, hop });
      }
    }
  };
  for (const { node, hop } of downstream) if (hop < depth) reEmissions(node, hop + 1);

  while (topicQueue.length > 0) {
    const { topic, hop } = topicQueue.shift() as { topic: GraphNode; hop: number };
    collector.add({
      hop,
      role: 'topic',
      element: topic.name,
      root: undefined,
      file: undefined,
      line: undefined,
      confidence: 'exact',
      via: topic.name,
    });
    let producers = 0;
    let consumers = 0;
    for (const edge of graph.incoming(topic.id)) {
      if (edge.kind === 'produces') {
        if (!isTestPath(edge.file)) producers++;
        rowFromEdge(edge, 'producer', hop, topic.name);
      } else if (edge.kind === 'consumes') {
        if (!isTestPath(edge.file)) consumers++;
        rowFromEdge(edge, 'consumer', hop, topic.name);
        if (hop < depth) reEmissions(codeOf(edge), hop + 1);
      }
    }
    if (producers === 0) noProducer.add(topic.name);
    if (consumers === 0) noConsumer.add(topic.name);
  }

  const ownerList = [...owners].sort();
  const rows = raw
    .map((row): ImpactRow => ({
      ...row,
      scope: row.root !== undefined && owners.has(row.root) ? 'INTERNAL' : 'EXTERNAL',
    }))
    .sort(
      (a, b) =>
        a.hop - b.hop ||
        ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
        (a.scope === b.scope ? 0 : a.scope === 'EXTERNAL' ? -1 : 1) ||
        cmp(a.root ?? '', b.root ?? '') ||
        cmp(a.file ?? '', b.file ?? '') ||
        (a.line ?? 0) - (b.line ?? 0) ||
        cmp(a.element, b.element) ||
        cmp(a.via, b.via),
    );
  return {
    owners: ownerList,
    rows,
    testRowsLeftOut,
    noProducer: [...noProducer].sort(),
    noConsumer: [...noConsumer].sort(),
    fileLevelHops,
  };
}
