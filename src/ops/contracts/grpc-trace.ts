/**
 * Tracing a resolved contract through the graph: the handlers and clients of each method, the service-level
 * clients that may call it, and the candidates listed when a name is ambiguous.
 */
import { compareStrings as cmp } from '../../core/order.js';
import type { ContractGraph, GraphEdge, GraphNode, SnapshotReader } from '../../index/reader.js';
import { methodCallerFiles } from '../shared/graph-queries.js';
import { displayPath, isTestPath } from '../shared/workspace-paths.js';
import type { Candidate, ContractRow, MethodTrace, Resolution, ServiceTrace } from './grpc-answer.js';
import { type Contracts, methodBare, serviceOfMethod } from './grpc-contracts.js';
import { resolveTarget } from './grpc-resolve.js';

export interface TraceContext {
  readonly snapshot: SnapshotReader;
  readonly graph: ContractGraph;
  readonly contracts: Contracts;
  readonly includeTests: boolean;
  testsLeftOut: number;
}

const locationOf = (snapshot: SnapshotReader, node: GraphNode): string | undefined =>
  node.root !== undefined && node.file !== undefined
    ? displayPath(snapshot.roots, node.root, node.file)
    : undefined;

/** The rpc line from the `.proto` facts: `rpc Pay(PayRequest) returns (stream PayEvent)`. */
function signatureOf(ctx: TraceContext, method: GraphNode): string | undefined {
  if (method.root === undefined || method.file === undefined) return undefined;
  const file = ctx.snapshot.fileOf(method);
  const serviceName = serviceOfMethod(method);
  for (const service of file?.facts.protoServices ?? []) {
    const full = service.package ? `${service.package}.${service.name}` : service.name;
    if (full !== serviceName) continue;
    const rpc = service.methods.find((m) => m.name === methodBare(method));
    if (!rpc) return undefined;
    const request = `${rpc.clientStreaming ? 'stream ' : ''}${rpc.requestType}`;
    const response = `${rpc.serverStreaming ? 'stream ' : ''}${rpc.responseType}`;
    return `rpc ${rpc.name}(${request}) returns (${response})`;
  }
  return undefined;
}

function rowOf(
  ctx: TraceContext,
  edge: GraphEdge,
  role: ContractRow['role'],
  level: ContractRow['level'],
): ContractRow {
  const from = ctx.graph.node(edge.from);
  return {
    role,
    level,
    root: edge.root,
    path: displayPath(ctx.snapshot.roots, edge.root, edge.file),
    file: edge.file,
    line: edge.line,
    symbol: from.kind === 'symbol' ? from.name : undefined,
    confidence: edge.confidence,
    via: edge.via,
  };
}

const rowOrder = (a: ContractRow, b: ContractRow): number =>
  cmp(a.path, b.path) || a.line - b.line || cmp(a.symbol ?? '', b.symbol ?? '');

/** Rows of one kind into a node, test files counted and left out unless asked for. */
function rowsInto(
  ctx: TraceContext,
  node: GraphNode,
  kind: GraphEdge['kind'],
  role: ContractRow['role'],
  level: ContractRow['level'],
  keep: (edge: GraphEdge) => boolean = () => true,
): ContractRow[] {
  const rows: ContractRow[] = [];
  for (const edge of ctx.graph.incoming(node.id)) {
    if (edge.kind !== kind || !keep(edge)) continue;
    if (!ctx.includeTests && isTestPath(edge.file)) {
      ctx.testsLeftOut++;
      continue;
    }
    rows.push(rowOf(ctx, edge, role, level));
  }
  return rows.sort(rowOrder);
}

function methodTrace(ctx: TraceContext, method: GraphNode): MethodTrace {
  return {
    name: method.name,
    method: methodBare(method),
    path: locationOf(ctx.snapshot, method),
    line: method.line,
    signature: signatureOf(ctx, method),
    handlers: rowsInto(ctx, method, 'implements', 'handler', 'method'),
    clients: rowsInto(ctx, method, 'calls_rpc', 'client', 'method'),
  };
}

export function serviceTrace(
  ctx: TraceContext,
  service: GraphNode,
  only: GraphNode | undefined,
): ServiceTrace {
  const all = ctx.contracts.methodsOf.get(service.name) ?? [];
  const methods = (only ? [only] : all).map((m) => methodTrace(ctx, m));
  // A file that calls methods of this service by name has its calls known method by method: its stub is not
  // a "may call" on top of that. Test files count here whether or not they are listed.
  const methodClientFiles = methodCallerFiles(ctx.snapshot, service.name);
  const excluded = new Set<string>();
  const mayCall = rowsInto(ctx, service, 'calls_rpc', 'may_call', 'service', (edge) => {
    const file = ctx.snapshot.fileOf(edge);
    if (!file || !methodClientFiles.has(file)) return true;
    if (ctx.includeTests || !isTestPath(edge.file))
      excluded.add(displayPath(ctx.snapshot.roots, edge.root, edge.file));
    return false;
  });
  return {
    name: service.name,
    path: locationOf(ctx.snapshot, service),
    line: service.line,
    methodCount: all.length,
    methods,
    serviceHandlers: rowsInto(ctx, service, 'implements', 'handler', 'service'),
    mayCall,
    mayCallExcludedFiles: [...excluded].sort(cmp),
  };
}

function candidateOf(ctx: TraceContext, node: GraphNode): Candidate {
  return {
    kind: node.kind === 'grpc_method' ? 'method' : 'service',
    name: node.name,
    path: locationOf(ctx.snapshot, node),
    line: node.line,
    signature: node.kind === 'grpc_method' ? signatureOf(ctx, node) : undefined,
  };
}

/** Traces what a name resolves to: one method, one service, or every service of a package. */
export function traceByName(ctx: TraceContext, target: string): Resolution {
  const resolved = resolveTarget(ctx.contracts, target);
  if (!resolved) return { kind: 'none' };
  const { match, found } = resolved;
  const total = found.services.length + found.methods.length;
  const notTraced = resolved.substringOnly.map((n) => n.name).sort(cmp);
  if (match === 'package' && found.methods.length === 0) {
    return {
      kind: 'traced',
      match,
      scope: 'service',
      services: found.services.map((s) => serviceTrace(ctx, s, undefined)),
      notTraced,
    };
  }
  if (total > 1) {
    return {
      kind: 'ambiguous',
      match,
      candidates: [...found.services, ...found.methods]
        .map((n) => candidateOf(ctx, n))
        .sort((a, b) => cmp(a.name, b.name)),
    };
  }
  const method = found.methods[0];
  if (method) {
    const service = ctx.contracts.serviceByName.get(serviceOfMethod(method));
    if (!service) return { kind: 'none' };
    return {
      kind: 'traced',
      match,
      scope: 'method',
      services: [serviceTrace(ctx, service, method)],
      notTraced,
    };
  }
  const service = found.services[0];
  if (!service) return { kind: 'none' };
  return {
    kind: 'traced',
    match,
    scope: 'service',
    services: [serviceTrace(ctx, service, undefined)],
    notTraced,
  };
}
