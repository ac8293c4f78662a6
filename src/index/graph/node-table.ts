import type { Confidence } from '../facts.js';
import { freezeGraph } from './freeze-graph.js';
import type {
  ContractGraph,
  EdgeKind,
  GraphEdge,
  GraphNode,
  UnresolvedCall,
  UnresolvedTopic,
} from './model.js';
import { compareStrings as cmp } from '../../core/order.js';

type NodeInput = Omit<GraphNode, 'id'>;

const nodeIdentity = (n: NodeInput): string =>
  `${n.kind}|${n.root ?? ''}|${n.file ?? ''}|${n.name}|${n.line ?? ''}`;

/**
 * Collects nodes and edges while reconciling, then freezes them into a graph with ids assigned in sorted
 * order, so the ids (and everything derived from them) do not depend on the order facts were visited.
 */
export class GraphBuilder {
  private readonly nodes = new Map<string, NodeInput>();
  private readonly edges = new Map<
    string,
    { from: string; to: string; edge: Omit<GraphEdge, 'from' | 'to'> }
  >();
  private readonly unresolvedList: UnresolvedCall[] = [];
  private readonly unresolvedTopicList: UnresolvedTopic[] = [];

  /** Records an HTTP call or gateway route that reaches no route. */
  unresolved(call: UnresolvedCall): void {
    this.unresolvedList.push(call);
  }

  /** Records a topic producer or consumer whose destination is unknown. */
  unresolvedTopic(topic: UnresolvedTopic): void {
    this.unresolvedTopicList.push(topic);
  }

  /** Adds what is only known once every fact is read (a topic's brokers) to a node made earlier. */
  annotate(key: string, extra: Pick<GraphNode, 'broker'>): void {
    const node = this.nodes.get(key);
    if (node) this.nodes.set(key, { ...node, ...extra });
  }

  node(input: NodeInput): string {
    const key = nodeIdentity(input);
    if (!this.nodes.has(key)) this.nodes.set(key, input);
    return key;
  }

  edge(
    from: string,
    to: string,
    kind: EdgeKind,
    confidence: Confidence,
    evidence: {
      root: string;
      file: string;
      line: number;
      via: string;
      routingKey?: string;
      queue?: string;
      gateway?: string;
    },
  ): void {
    // One statement may reach a topic several ways (a queue bound with two keys): each is its own edge.
    const key = `${from}\u0000${to}\u0000${kind}\u0000${evidence.root}\u0000${evidence.file}\u0000${evidence.line}\u0000${evidence.routingKey ?? ''}\u0000${evidence.queue ?? ''}`;
    const existing = this.edges.get(key);
    // The same evidence found twice keeps its strongest reading.
    if (existing && rank(existing.edge.confidence) <= rank(confidence)) return;
    this.edges.set(key, { from, to, edge: { kind, confidence, ...evidence } });
  }

  build(): ContractGraph {
    const sortedKeys = [...this.nodes.keys()].sort();
    const idOf = new Map<string, number>();
    const nodes: GraphNode[] = sortedKeys.map((key, id) => {
      idOf.set(key, id);
      return { id, ...(this.nodes.get(key) as NodeInput) };
    });
    const edges: GraphEdge[] = [...this.edges.values()]
      .map(({ from, to, edge }) => ({ from: idOf.get(from) as number, to: idOf.get(to) as number, ...edge }))
      .sort(
        (a, b) =>
          a.from - b.from ||
          a.to - b.to ||
          cmp(a.kind, b.kind) ||
          cmp(a.root, b.root) ||
          cmp(a.file, b.file) ||
          a.line - b.line,
      );
    const unresolved = [...this.unresolvedList].sort(
      (a, b) => cmp(a.root, b.root) || cmp(a.file, b.file) || a.line - b.line || cmp(a.url, b.url),
    );
    const unresolvedTopics = [...this.unresolvedTopicList].sort(
      (a, b) => cmp(a.root, b.root) || cmp(a.file, b.file) || a.line - b.line || cmp(a.topic, b.topic),
    );
    return freezeGraph(nodes, edges, unresolved, unresolvedTopics);
  }
}

const rank = (c: Confidence): number => (c === 'exact' ? 0 : c === 'heuristic' ? 1 : 2);
