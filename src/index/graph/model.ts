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
}

export interface ContractGraph {
  readonly nodes: readonly GraphNode[];
  /** Sorted by (from, to, kind, root, file, line). */
  readonly edges: readonly GraphEdge[];
  nodeByName(kind: NodeKind, name: string): GraphNode | undefined;
  outgoing(nodeId: number): readonly GraphEdge[];
  incoming(nodeId: number): readonly GraphEdge[];
}
