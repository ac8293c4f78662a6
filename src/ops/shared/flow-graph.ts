/**
 * The call graph and the contract graph read as one: declarations and contracts (routes, gRPC methods and
 * services, topics) are nodes; calls and contract evidence are typed edges. Requests flow from a caller to
 * its callee, from a client or producer to the contract, and from the contract to the entry point that
 * serves it, so "what reaches this function" is one walk upstream across services.
 */
import type {
  CallEdge,
  Confidence,
  EdgeKind,
  GraphNode,
  IndexedFile,
  SnapshotReader,
  SymbolFact,
} from '../../index/reader.js';
import { weaker } from './confidence.js';
import { methodCallerFiles } from './graph-queries.js';
import { codeKey, SERVICE_PORTS, type Port, type ServicePorts } from './service-ports.js';
import { displayOf, displayPath } from './workspace-paths.js';

export type FlowNode =
  | {
      readonly kind: 'code';
      readonly file: IndexedFile;
      /** Local id of the declaration; undefined: the top of the file. */
      readonly symbol: number | undefined;
    }
  | { readonly kind: 'contract'; readonly node: GraphNode };

/** `call` (caller → callee) or a contract edge kind (code → contract, whichever way the request goes). */
export type StepKind = 'call' | EdgeKind;

/** One typed edge, written like the graphs write it: caller → callee, code → contract. */
export interface FlowStep {
  readonly from: FlowNode;
  readonly to: FlowNode;
  readonly kind: StepKind;
  readonly confidence: Confidence;
  /** Where the evidence is: the call site, the handler, the client call. */
  readonly file: IndexedFile;
  readonly line: number;
  /** A call reaching `to` through an interface or base method it implements: that method's name. */
  readonly through?: string;
}

/** A step upstream of a node, and the node it comes from. */
export interface Upstream {
  readonly step: FlowStep;
  readonly node: FlowNode;
}

export const codeNode = (file: IndexedFile, symbol: number | undefined): FlowNode => ({
  kind: 'code',
  file,
  symbol,
});

export const flowKey = (node: FlowNode): string =>
  node.kind === 'code' ? `c\u0000${codeKey(node.file, node.symbol)}` : `n\u0000${node.node.id}`;

const symbolOf = (node: FlowNode): SymbolFact | undefined =>
  node.kind === 'code' && node.symbol !== undefined ? node.file.facts.symbols[node.symbol] : undefined;

/** How a contract is named in answers: `route GET /x`, `rpc pkg.Svc/M`, `topic t`, `gRPC service pkg.Svc`. */
export function contractLabel(node: GraphNode): string {
  const prefix =
    { http_route: 'route', grpc_method: 'rpc', grpc_service: 'gRPC service', topic: 'topic' }[
      node.kind as string
    ] ?? node.kind;
  return `${prefix} ${node.name}`;
}

/** A declaration's qualified name, `(top of file)`, or a contract's label. */
export function nodeLabel(node: FlowNode): string {
  if (node.kind === 'contract') return contractLabel(node.node);
  return symbolOf(node)?.qualifiedName ?? '(top of file)';
}

/** Where a node is declared, `path:line` (workspace-relative), or `—` for a topic. */
export function nodeLocation(snapshot: SnapshotReader, node: FlowNode): string {
  if (node.kind === 'code') return `${displayOf(snapshot, node.file)}:${symbolOf(node)?.startLine ?? 1}`;
  const { root, file, line } = node.node;
  return root !== undefined && file !== undefined
    ? `${displayPath(snapshot.roots, root, file)}:${line}`
    : '—';
}

/** The root a node belongs to (a topic belongs to none). */
export const rootOf = (node: FlowNode): string | undefined =>
  node.kind === 'code' ? node.file.root : node.node.root;

/** Where a step's evidence is, `path:line`. */
export const stepLocation = (snapshot: SnapshotReader, step: FlowStep): string =>
  `${displayOf(snapshot, step.file)}:${step.line}`;

/** How a step is shown: `call`, `call via Repo.save`, or the contract edge kind. */
export const stepVia = (step: FlowStep): string =>
  step.kind === 'call' ? (step.through ? `call via ${step.through}` : 'call') : step.kind;

const portStep = (port: Port): FlowStep => ({
  from: codeNode(port.file, port.symbol),
  to: { kind: 'contract', node: port.contract },
  kind: port.kind,
  confidence: port.confidence,
  file: port.file,
  line: port.edge.line,
});

/** A call as a step; `to` and `through` when it reaches its target through an interface method. */
function callStep(edge: CallEdge, to?: FlowNode, through?: string): FlowStep {
  return {
    from: codeNode(edge.from, edge.caller),
    to: to ?? codeNode(edge.to, edge.callee),
    kind: 'call',
    confidence: through ? weaker(edge.confidence, 'heuristic') : edge.confidence,
    file: edge.from,
    line: edge.line,
    ...(through ? { through } : {}),
  };
}

const callerOf = (edge: CallEdge, to?: FlowNode, through?: string): Upstream => {
  const step = callStep(edge, to, through);
  return { step, node: step.from };
};

export class FlowGraph {
  private readonly ports: ServicePorts;
  /** Per gRPC service: the files calling its methods by name (their service-level clients add nothing). */
  private readonly traced = new Map<string, ReadonlySet<IndexedFile>>();

  constructor(private readonly snapshot: SnapshotReader) {
    this.ports = snapshot.derived(SERVICE_PORTS);
  }

  /** The contracts a declaration is an entry point of. */
  entriesOf(node: FlowNode): readonly Port[] {
    return node.kind === 'code'
      ? this.ports.of(node.file, node.symbol).filter((p) => p.side === 'entry')
      : [];
  }

  /**
   * What a request reaching `node` comes from: the callers of a declaration (and the callers of the
   * interface or base methods it implements, heuristic), the contracts it is an entry point of; the clients
   * and producers of a contract (and, for an RPC, the service-level clients of its service whose file names
   * no method of it, heuristic).
   */
  upstream(node: FlowNode): Upstream[] {
    return node.kind === 'code'
      ? this.codeUpstream(node.file, node.symbol)
      : this.contractUpstream(node.node);
  }

  private codeUpstream(file: IndexedFile, symbol: number | undefined): Upstream[] {
    const out: Upstream[] = [];
    if (symbol !== undefined) {
      const calls = this.snapshot.callGraph();
      const ref = { file, symbol };
      for (const edge of calls.callersOf(ref)) out.push(callerOf(edge));
      for (const method of calls.overridden(ref)) {
        const through = method.file.facts.symbols[method.symbol]?.qualifiedName ?? '';
        for (const edge of calls.callersOf(method)) out.push(callerOf(edge, codeNode(file, symbol), through));
      }
    }
    for (const port of this.ports.of(file, symbol))
      if (port.side === 'entry')
        out.push({ node: { kind: 'contract', node: port.contract }, step: portStep(port) });
    return out;
  }

  private contractUpstream(contract: GraphNode): Upstream[] {
    const out: Upstream[] = [];
    const exits = (id: number) => this.ports.to(id).filter((p) => p.side === 'exit');
    for (const port of exits(contract.id)) out.push({ node: portStep(port).from, step: portStep(port) });
    if (contract.kind !== 'grpc_method') return out;
    const graph = this.snapshot.contractGraph();
    const service = graph.nodeByName('grpc_service', contract.name.split('/')[0] ?? '');
    if (!service) return out;
    let traced = this.traced.get(service.name);
    if (!traced) this.traced.set(service.name, (traced = methodCallerFiles(this.snapshot, service.name)));
    for (const port of exits(service.id)) {
      if (traced.has(port.file)) continue;
      const step = {
        ...portStep(port),
        to: { kind: 'contract', node: contract } as FlowNode,
        confidence: weaker(port.confidence, 'heuristic'),
      };
      out.push({ node: step.from, step });
    }
    return out;
  }

  /** Every typed edge touching a node, as the graphs write them. */
  around(node: FlowNode): { readonly incoming: FlowStep[]; readonly outgoing: FlowStep[] } {
    if (node.kind === 'contract')
      return { incoming: this.ports.to(node.node.id).map(portStep), outgoing: [] };
    const calls = this.snapshot.callGraph();
    const incoming =
      node.symbol === undefined
        ? []
        : calls.callersOf({ file: node.file, symbol: node.symbol }).map((e) => callStep(e));
    const outgoing = [
      ...calls.calleesOf(node.file, node.symbol).map((e) => callStep(e)),
      ...this.ports.of(node.file, node.symbol).map(portStep),
    ];
    return { incoming, outgoing };
  }
}
