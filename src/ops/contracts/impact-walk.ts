import type { ContractGraph, GraphEdge, GraphNode, SnapshotReader } from '../../index/reader.js';
import { methodCallerFiles } from '../shared/graph-queries.js';
import { isTestPath } from '../shared/workspace-paths.js';
import { ImpactRows, type ImpactRow } from './impact-rows.js';
import { reachedBy } from './routing-keys.js';

export interface ImpactResult {
  readonly owners: readonly string[];
  readonly rows: readonly ImpactRow[];
  readonly testRowsLeftOut: number;
  /** Topics reached with nobody producing / consuming them (outside tests). */
  readonly noProducer: readonly string[];
  readonly noConsumer: readonly string[];
  readonly fileLevelHops: number;
  /** Consumers left out because their AMQP binding key matches no routing key the messages carry. */
  readonly unmatchedConsumers: number;
}

const shortName = (node: GraphNode): string => {
  if (node.kind === 'grpc_method') {
    const [service, method] = node.name.split('/');
    return `${service?.split('.').pop() ?? service}.${method}`;
  }
  if (node.kind === 'grpc_service') return node.name.split('.').pop() ?? node.name;
  return node.name;
};

interface Hop<T> {
  readonly node: T;
  readonly hop: number;
}

/** A topic to visit, with the AMQP routing keys its messages are known to carry (undefined: any). */
interface TopicHop extends Hop<GraphNode> {
  readonly keys?: readonly string[];
}

/** How a topic edge is shown: the topic, and the AMQP routing key and queue when the edge has them. */
const topicVia = (topic: GraphNode, edge: GraphEdge): string => {
  const detail = [
    edge.routingKey ? `key ${edge.routingKey}` : '',
    edge.queue ? `queue ${edge.queue}` : '',
  ].filter(Boolean);
  return detail.length > 0 ? `${topic.name} (${detail.join(', ')})` : topic.name;
};

/**
 * One impact query: the rows found so far, the owners of the targets, and the work left — handlers whose
 * re-emitted events are still to follow, and topics still to visit (each once).
 */
class ImpactWalk {
  private readonly graph: ContractGraph;
  readonly rows: ImpactRows;
  readonly owners = new Set<string>();
  private readonly downstream: Hop<GraphNode>[] = [];
  private readonly visitedTopics = new Set<number>();
  private readonly topicQueue: TopicHop[] = [];
  readonly noProducer = new Set<string>();
  readonly noConsumer = new Set<string>();
  fileLevelHops = 0;
  unmatchedConsumers = 0;

  constructor(
    private readonly snapshot: SnapshotReader,
    private readonly depth: number,
    private readonly includeTests: boolean,
    /** Only messages published with this AMQP routing key, when the target is an exchange. */
    private readonly routingKey?: string,
  ) {
    this.graph = snapshot.contractGraph();
    this.rows = new ImpactRows(this.graph, includeTests);
  }

  /** A handler in a test file (a fake server) does not make its root an owner of the contract. */
  private own(edge: GraphEdge): void {
    if (this.includeTests || !isTestPath(edge.file)) this.owners.add(edge.root);
  }

  private enqueueTopic(topic: GraphNode, hop: number, keys?: readonly string[]): void {
    if (this.visitedTopics.has(topic.id)) return;
    this.visitedTopics.add(topic.id);
    this.topicQueue.push(keys === undefined ? { node: topic, hop } : { node: topic, hop, keys });
  }

  /** The direct impact of one target contract. */
  start(target: GraphNode): void {
    if (target.kind === 'grpc_method' || target.kind === 'grpc_service') this.startAtGrpc(target);
    else if (target.kind === 'http_route') this.startAtRoute(target);
    else if (target.kind === 'topic') this.startAtTopic(target);
  }

  /** Handlers and clients of a method, or of every method of a service, then the service's own bindings. */
  private startAtGrpc(target: GraphNode): void {
    const graph = this.graph;
    const isMethod = target.kind === 'grpc_method';
    const service = isMethod ? graph.nodeByName('grpc_service', target.name.split('/')[0] ?? '') : target;
    for (const method of isMethod ? [target] : graph.methodsOf(target.name)) {
      for (const edge of graph.incoming(method.id)) {
        if (edge.kind === 'implements') {
          this.rows.addEdge(edge, 'handler', 1, shortName(method));
          this.own(edge);
          this.downstream.push({ node: graph.node(edge.from), hop: 1 });
        } else if (edge.kind === 'calls_rpc') this.rows.addEdge(edge, 'client', 1, shortName(method));
      }
    }
    if (service) this.serviceBindings(service);
    if (this.owners.size === 0 && target.root) this.owners.add(target.root);
  }

  /**
   * Code registering the whole service, and service-level clients. A file whose calls into this service are
   * known method by method says by itself whether it calls the target: its service-level binding (a stub
   * built, a client injected) adds only noise.
   */
  private serviceBindings(service: GraphNode): void {
    const traced = methodCallerFiles(this.snapshot, service.name);
    const isTraced = (edge: GraphEdge) => {
      const file = this.snapshot.fileOf(edge);
      return file !== undefined && traced.has(file);
    };
    for (const edge of this.graph.incoming(service.id)) {
      if (edge.kind === 'implements') {
        this.rows.addEdge(edge, 'handler', 1, shortName(service));
        this.own(edge);
      } else if (edge.kind === 'calls_rpc' && !isTraced(edge)) {
        this.rows.addEdge(edge, 'client', 1, shortName(service), 'heuristic');
      }
    }
  }

  private startAtRoute(target: GraphNode): void {
    for (const edge of this.graph.incoming(target.id)) {
      if (edge.kind === 'serves_http') {
        this.rows.addEdge(edge, 'handler', 1, target.name);
        this.downstream.push({ node: this.graph.node(edge.from), hop: 1 });
      } else if (edge.kind === 'calls_http') this.rows.addEdge(edge, 'client', 1, target.name);
    }
    if (target.root) this.owners.add(target.root);
  }

  private startAtTopic(target: GraphNode): void {
    for (const edge of this.graph.incoming(target.id)) if (edge.kind === 'produces') this.own(edge);
    this.enqueueTopic(target, 1, this.routingKey === undefined ? undefined : [this.routingKey]);
  }

  /** What the handlers reached first re-emit, within the depth. */
  followHandlers(): void {
    for (const { node, hop } of this.downstream) if (hop < this.depth) this.reEmissions(node, hop + 1);
  }

  /**
   * What a handler or consumer produces: itself (exact), else something in its file (a file-level hop,
   * heuristic). The topics it reaches join the queue.
   */
  private reEmissions(code: GraphNode, hop: number): void {
    const producesOf = (node: GraphNode) => this.graph.outgoing(node.id, 'produces');
    const direct = producesOf(code);
    const sameFile =
      direct.length > 0 || code.file === undefined
        ? []
        : this.graph
            .nodesInFile(code.root ?? '', code.file)
            .filter((n) => n.id !== code.id)
            .flatMap((n) => producesOf(n));
    if (sameFile.length > 0) this.fileLevelHops++;
    for (const edge of [...direct, ...sameFile]) {
      const topic = this.graph.node(edge.to);
      this.rows.addEdge(
        edge,
        'producer',
        hop,
        topicVia(topic, edge),
        direct.includes(edge) ? undefined : 'heuristic',
      );
      this.enqueueTopic(topic, hop, edge.routingKey ? [edge.routingKey] : undefined);
    }
  }

  /** Topics in the order they were reached: their producers and consumers, and what the consumers re-emit. */
  visitTopics(): void {
    for (let next = this.topicQueue.shift(); next; next = this.topicQueue.shift()) {
      this.visitTopic(next.node, next.hop, next.keys);
    }
  }

  /**
   * A topic's producers and consumers. With routing keys known (the target's, or those of the producer the
   * walk came through), only consumers whose binding matches one of them are reached; with the target's
   * key, only producers publishing with it are listed.
   */
  private visitTopic(topic: GraphNode, hop: number, keys?: readonly string[]): void {
    this.rows.add({
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
    for (const edge of this.graph.incoming(topic.id)) {
      if (edge.kind === 'produces') {
        if (hop === 1 && this.routingKey !== undefined && !reachedBy(edge.routingKey, [this.routingKey]))
          continue;
        if (!isTestPath(edge.file)) producers++;
        this.rows.addEdge(edge, 'producer', hop, topicVia(topic, edge));
      } else if (edge.kind === 'consumes') {
        if (!reachedBy(edge.routingKey, keys)) {
          this.unmatchedConsumers++;
          continue;
        }
        if (!isTestPath(edge.file)) consumers++;
        this.rows.addEdge(edge, 'consumer', hop, topicVia(topic, edge));
        if (hop < this.depth) this.reEmissions(this.graph.node(edge.from), hop + 1);
      }
    }
    if (producers === 0) this.noProducer.add(topic.name);
    if (consumers === 0) this.noConsumer.add(topic.name);
  }
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
  routingKey?: string,
): ImpactResult {
  const walk = new ImpactWalk(snapshot, depth, includeTests, routingKey);
  for (const target of targets) walk.start(target);
  walk.followHandlers();
  walk.visitTopics();
  return {
    owners: [...walk.owners].sort(),
    rows: walk.rows.scoped(walk.owners),
    testRowsLeftOut: walk.rows.testRowsLeftOut,
    noProducer: [...walk.noProducer].sort(),
    noConsumer: [...walk.noConsumer].sort(),
    fileLevelHops: walk.fileLevelHops,
    unmatchedConsumers: walk.unmatchedConsumers,
  };
}
