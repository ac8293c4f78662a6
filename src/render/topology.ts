/** The per-service view of the contract graph that the topology renderers draw. Plain data. */
export interface TopologyNode {
  /** Stable id, safe in any output format (`s0`, `t3`, `other`). */
  readonly id: string;
  /** `contracts`: a folder of contract declarations (.proto files), drawn apart from the services. */
  readonly kind: 'service' | 'contracts' | 'topic' | 'folded';
  /** As named in the workspace (untrusted text: renderers escape it). */
  readonly label: string;
  readonly root?: string;
  /** For a topic: the messaging systems carrying it (`amqp`, `kafka`, `dapr+kafka`). */
  readonly broker?: string;
  /**
   * Contracts this service implements, produces, consumes or serves, or a contracts folder declares (zoomed
   * views, JSON, HTML panel); `file` is workspace-relative.
   */
  readonly contracts?: readonly { kind: string; name: string; file?: string; line?: number }[];
  readonly weight: number;
}

export interface TopologyLink {
  readonly from: string;
  readonly to: string;
  /** `calls_rpc`, `calls_http`, `produces`, `consumes`. */
  readonly kind: string;
  readonly weight: number;
  /** The weakest confidence among the folded edges. */
  readonly confidence: string;
}

export interface Topology {
  readonly workspace: string;
  readonly zoom?: string;
  readonly nodes: readonly TopologyNode[];
  readonly links: readonly TopologyLink[];
  /** What was left out: services and topics folded away, ambiguous cross-service edges not drawn. */
  readonly hidden: {
    readonly services: readonly string[];
    readonly topics: number;
    readonly ambiguousEdges: number;
  };
}
