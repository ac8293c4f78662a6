/**
 * Where the call graph meets the contract graph: every piece of contract evidence tied to the function that
 * holds it. A route handler, a topic consumer and a gRPC method implementation are *entry points* of their
 * root's service (a request or a message enters the code there); an HTTP call, a gRPC client call and a
 * producer are its *exits*. Each is mapped to its enclosing function: the declaration the fact names when it
 * is a function or method, else the innermost function or method holding the evidence line, else the
 * declaration itself (a class-level annotation), else the top of the file.
 *
 * No extractor records scheduled jobs (cron annotations, timers) yet, so they are no entry points here.
 */
import { compareStrings } from '../../core/order.js';
import { methodKey } from '../../core/contract-names.js';
import type {
  Confidence,
  ContractGraph,
  Derivation,
  EdgeKind,
  GraphEdge,
  GraphNode,
  IndexedFile,
  SnapshotReader,
  SymbolFact,
} from '../../index/reader.js';

/** Contract edges whose code side receives: the contract dispatches into the code. */
const ENTRY_KINDS: ReadonlySet<EdgeKind> = new Set(['serves_http', 'implements', 'consumes']);
/** Contract edges whose code side sends: the code reaches another service through the contract. */
const EXIT_KINDS: ReadonlySet<EdgeKind> = new Set(['calls_http', 'calls_rpc', 'produces']);
/** Contract edges a port is made of; `imports` links files, not code to contracts. */
const PORT_KINDS: ReadonlySet<EdgeKind> = new Set([...ENTRY_KINDS, ...EXIT_KINDS, 'proxies_http']);

const FUNCTION_KINDS: ReadonlySet<string> = new Set(['function', 'method']);
const TYPE_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'interface', 'trait', 'impl', 'type']);

/**
 * One piece of contract evidence and the code holding it.
 * - `entry`: the contract dispatches into `symbol` (a handler, a consumer, a method implementation);
 * - `exit`: `symbol` calls or produces into the contract;
 * - `binding`: evidence that is neither (a whole gRPC service registered by a function, a gateway route):
 *   shown as an edge, never followed as a request path.
 */
export interface Port {
  readonly side: 'entry' | 'exit' | 'binding';
  readonly kind: EdgeKind;
  readonly contract: GraphNode;
  readonly file: IndexedFile;
  /** The enclosing declaration (local id in `file`); undefined at the top of the file. */
  readonly symbol: number | undefined;
  /** The evidence (its root, file and line are the call site, handler or statement). */
  readonly edge: GraphEdge;
  readonly confidence: Confidence;
}

export interface ServicePorts {
  /** Every port, by root, file, line, then contract name. */
  readonly all: readonly Port[];
  /** Ports whose code is this declaration (`symbol` undefined: the top of the file). */
  of(file: IndexedFile, symbol: number | undefined): readonly Port[];
  /** Ports reaching one contract node. */
  to(contractId: number): readonly Port[];
  /** Entry points and exits of one root's service. */
  ofRoot(root: string): readonly Port[];
}

export const codeKey = (file: IndexedFile, symbol: number | undefined): string =>
  `${file.root}\u0000${file.path}\u0000${symbol ?? ''}`;

/** The innermost function or method whose lines hold `line` (the shortest span wins). */
export function innermostFunction(symbols: readonly SymbolFact[], line: number): SymbolFact | undefined {
  let best: SymbolFact | undefined;
  for (const s of symbols) {
    if (!FUNCTION_KINDS.has(s.kind) || s.startLine > line || s.endLine < line) continue;
    if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
  }
  return best;
}

/** The declaration a contract edge's code node stands for, found again in its file. */
function declaredSymbol(graph: ContractGraph, file: IndexedFile, edge: GraphEdge): SymbolFact | undefined {
  const node = graph.node(edge.from);
  if (node.kind !== 'symbol') return undefined;
  return file.facts.symbols.find((s) => s.qualifiedName === node.name && s.startLine === node.line);
}

/** The function holding an edge's evidence: the fact's own function, the innermost one, else the fact's declaration. */
function enclosingOf(graph: ContractGraph, file: IndexedFile, edge: GraphEdge): number | undefined {
  const declared = declaredSymbol(graph, file, edge);
  if (declared && FUNCTION_KINDS.has(declared.kind)) return declared.id;
  return innermostFunction(file.facts.symbols, edge.line)?.id ?? declared?.id;
}

function sideOf(kind: EdgeKind, contract: GraphNode): Port['side'] {
  if (EXIT_KINDS.has(kind)) return 'exit';
  if (!ENTRY_KINDS.has(kind)) return 'binding';
  // A whole gRPC service registered by a function (`RegisterXServer(s, impl)`) is wiring, not a handler; a
  // type implementing the whole service is expanded to its methods (`memberEntries`).
  return kind === 'implements' && contract.kind === 'grpc_service' ? 'binding' : 'entry';
}

/**
 * The methods of a type implementing a whole gRPC service that carry one of its RPCs' names: the entry
 * points of those RPCs. Methods are looked for in the type's file, and for languages that declare methods
 * apart from their type (Go), in the files of the same folder, by qualified name.
 */
function memberEntries(
  snapshot: SnapshotReader,
  graph: ContractGraph,
  file: IndexedFile,
  type: SymbolFact,
  edge: GraphEdge,
): Port[] {
  const rpcs = new Map(
    graph.methodsOf(graph.node(edge.to).name).map((m) => [methodKey(m.name.split('/')[1] ?? ''), m]),
  );
  const folder = file.path.slice(0, file.path.lastIndexOf('/') + 1);
  const files = snapshot.files.filter(
    (f) => f.root === file.root && f.path.startsWith(folder) && !f.path.slice(folder.length).includes('/'),
  );
  const ports: Port[] = [];
  for (const candidate of files) {
    for (const s of candidate.facts.symbols) {
      if (s.kind !== 'method') continue;
      const member =
        candidate === file ? s.parent === type.id : s.qualifiedName === `${type.qualifiedName}.${s.name}`;
      const rpc = member ? rpcs.get(methodKey(s.name)) : undefined;
      if (rpc)
        ports.push({
          side: 'entry',
          kind: 'implements',
          contract: rpc,
          file: candidate,
          symbol: s.id,
          edge,
          confidence: edge.confidence,
        });
    }
  }
  return ports;
}

function portsOfEdge(snapshot: SnapshotReader, graph: ContractGraph, edge: GraphEdge): Port[] {
  if (!PORT_KINDS.has(edge.kind)) return [];
  const file = snapshot.fileOf(edge);
  if (!file) return [];
  const contract = graph.node(edge.to);
  const declared = declaredSymbol(graph, file, edge);
  const port: Port = {
    side: sideOf(edge.kind, contract),
    kind: edge.kind,
    contract,
    file,
    symbol: enclosingOf(graph, file, edge),
    edge,
    confidence: edge.confidence,
  };
  const members =
    edge.kind === 'implements' &&
    contract.kind === 'grpc_service' &&
    declared &&
    TYPE_KINDS.has(declared.kind)
      ? memberEntries(snapshot, graph, file, declared, edge)
      : [];
  return [port, ...members];
}

const portOrder = (a: Port, b: Port): number =>
  compareStrings(a.file.root, b.file.root) ||
  compareStrings(a.file.path, b.file.path) ||
  a.edge.line - b.edge.line ||
  compareStrings(a.contract.name, b.contract.name) ||
  compareStrings(a.kind, b.kind) ||
  (a.symbol ?? -1) - (b.symbol ?? -1);

function buildPorts(snapshot: SnapshotReader): ServicePorts {
  const graph = snapshot.contractGraph();
  const seen = new Set<string>();
  const all: Port[] = [];
  for (const edge of graph.edges) {
    for (const port of portsOfEdge(snapshot, graph, edge)) {
      const key = `${codeKey(port.file, port.symbol)}\u0000${port.contract.id}\u0000${port.kind}\u0000${port.side}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push(port);
    }
  }
  all.sort(portOrder);
  const byCode = groupBy(all, (p) => codeKey(p.file, p.symbol));
  const byContract = groupBy(all, (p) => String(p.contract.id));
  const byRoot = groupBy(all, (p) => p.file.root);
  return {
    all,
    of: (file, symbol) => byCode.get(codeKey(file, symbol)) ?? [],
    to: (contractId) => byContract.get(String(contractId)) ?? [],
    ofRoot: (root) => byRoot.get(root) ?? [],
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The ports of a snapshot, built on first request and kept with it. */
export const SERVICE_PORTS: Derivation<ServicePorts> = { build: buildPorts };
