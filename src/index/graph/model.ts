import type { Confidence, SymbolKind } from '../facts.js';

/**
 * The contract graph: what the reconciler derives from the facts of all files. Nodes are contracts
 * (services, methods, messages, topics, routes), declarations and modules; edges are the evidence linking
 * code to contracts. Everything is rebuilt from facts on each snapshot, deterministically and in linear time.
 */

export const NODE_KINDS = [
  'service',
  'grpc_service',
  'grpc_method',
  'proto_message',
  'topic',
  'http_route',
  'module',
  'symbol',
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const EDGE_KINDS = [
  'implements',
  'calls_rpc',
  'produces',
  'consumes',
  'serves_http',
  'calls_http',
  'proxies_http',
  'imports',
  'dispatches_to',
] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export interface GraphNode {
  /** Dense index into `ContractGraph.nodes`; stable for a given snapshot content. */
  readonly id: number;
  readonly kind: NodeKind;
  /**
   * gRPC service `package.Service`; method `package.Service/Method`; topic: its resolved key; HTTP route
   * `METHOD /path` with `{name}` parameters; service: the root name; symbol: its qualified name.
   */
  readonly name: string;
  /** For `symbol` nodes, the declaration kind. */
  readonly symbolKind?: SymbolKind;
  /** Root name, or undefined for workspace-wide nodes (a topic hub). */
  readonly root: string | undefined;
  /** Relative to the root; undefined for nodes without a single location (topics). */
  readonly file: string | undefined;
  readonly line: number | undefined;
  /** For `topic` nodes: the messaging systems facts named for it (`amqp`, `kafka+dapr`), when any did. */
  readonly broker?: string;
}

export interface GraphEdge {
  readonly from: number;
  readonly to: number;
  readonly kind: EdgeKind;
  readonly confidence: Confidence;
  /** Root and file (root-relative) and line of the evidence: the call site, the handler, the statement. */
  readonly root: string;
  readonly file: string;
  readonly line: number;
  /** How it was recognised, e.g. `getService<PaymentServiceClient>`, `@KafkaListener`, `pattern:outbox`. */
  readonly via: string;
  /** AMQP `produces`: the routing key published with; `consumes`: the binding key of the queue read. */
  readonly routingKey?: string;
  /** AMQP `consumes`: the queue read, when the topic is the exchange it is bound to. */
  readonly queue?: string;
  /**
   * `calls_http`: the root of the gateway or proxy the call goes through to reach the route. The route is
   * the service's; on the network the caller talks to the gateway.
   */
  readonly gateway?: string;
}

/** A topic producer or consumer whose destination could not be resolved: kept and listed, never dropped. */
export interface UnresolvedTopic {
  readonly root: string;
  /** Root-relative. */
  readonly file: string;
  readonly line: number;
  readonly role: 'producer' | 'consumer';
  /** The destination as written: an expression, or a placeholder nothing configures. */
  readonly topic: string;
  readonly broker?: string;
  readonly via: string;
  readonly reason: string;
}

/**
 * An HTTP call (or a gateway route) that reaches no known route: kept and listed, never dropped. `url` is
 * what is known of its target as one line: the expression as written when the path was not resolved,
 * else the base and the path.
 */
export interface UnresolvedCall {
  readonly root: string;
  /** Root-relative. */
  readonly file: string;
  readonly line: number;
  readonly method: string;
  /** The path as extracted, after the base's path (`/` when nothing of it is known). */
  readonly path: string;
  /** The path is only the known start of the real one (the URL expression was not resolved). */
  readonly partial?: boolean;
  readonly base?: string;
  readonly url: string;
  readonly via: string;
  /** The roots the call's host resolved to, when it named a service. */
  readonly roots?: readonly string[];
  /** Why nothing matched, e.g. `host orders resolved, no route GET /x`, `no route matches`, `external host`. */
  readonly reason: string;
}

/**
 * The contract graph of one snapshot, frozen: its nodes and edges, and the lookups operations need. Lookups
 * answer in id order (nodes) or edge order (edges), so a query never depends on how its index was built;
 * each index is built on its first query and lives as long as the graph.
 */
export interface ContractGraph {
  readonly nodes: readonly GraphNode[];
  /** Sorted by (from, to, kind, root, file, line). */
  readonly edges: readonly GraphEdge[];
  /** HTTP calls and gateway routes that reach no route, sorted by (root, file, line). */
  readonly unresolved: readonly UnresolvedCall[];
  /** Topic producers and consumers whose destination is unknown, sorted by (root, file, line). */
  readonly unresolvedTopics: readonly UnresolvedTopic[];
  /** The node with this id (ids index `nodes`). */
  node(id: number): GraphNode;
  /** The first node of this kind and name. */
  nodeByName(kind: NodeKind, name: string): GraphNode | undefined;
  /** Every node of one kind. */
  nodesOfKind(kind: NodeKind): readonly GraphNode[];
  /** The node of this kind and name in one root: a `module` node is named by its file path, or `dir/` for a folder. */
  nodeInRoot(kind: NodeKind, root: string, name: string): GraphNode | undefined;
  /** Every node located in one file (root-relative). */
  nodesInFile(root: string, file: string): readonly GraphNode[];
  /** The `grpc_method` nodes of a gRPC service (`package.Service`). */
  methodsOf(service: string): readonly GraphNode[];
  /** Edges leaving a node, of any kind or of one. */
  outgoing(nodeId: number, kind?: EdgeKind): readonly GraphEdge[];
  /** Edges reaching a node, of any kind or of one. */
  incoming(nodeId: number, kind?: EdgeKind): readonly GraphEdge[];
  /**
   * Edges of the same kind with the same evidence place (root, file, line) as `edge`, itself included: the
   * candidates one fact fanned out to.
   */
  sameEvidence(edge: GraphEdge): readonly GraphEdge[];
}
