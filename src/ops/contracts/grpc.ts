import path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { Confidence } from '../../index/facts.js';
import type { ContractGraph, GraphEdge, GraphNode } from '../../index/graph/model.js';
import type { IndexedFile, Snapshot } from '../../index/snapshot.js';
import type { MeshServices } from '../services.js';
import { rejectedNote } from '../shared/rejected-note.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayPath, isTestPath } from '../shared/workspace-paths.js';
import { validateBase } from './git-show.js';
import { renderGrpcAnswer } from './grpc-render.js';
import type { WireCheck, WireCheckRequest } from './wire-check.js';
import { compareStrings as cmp } from '../../core/order.js';

/** One piece of code linked to a contract: a handler, a client, or a service-level client that may call it. */
export interface ContractRow {
  readonly role: 'handler' | 'client' | 'may_call';
  /** Whether the edge points at the method or at the whole service. */
  readonly level: 'method' | 'service';
  readonly root: string;
  /** As shown to agents (root-prefixed when the root is inside the workspace folder). */
  readonly path: string;
  /** Root-relative. */
  readonly file: string;
  readonly line: number;
  /** The enclosing declaration's qualified name, undefined for file-level code. */
  readonly symbol: string | undefined;
  readonly confidence: Confidence;
  readonly via: string;
}

export interface MethodTrace {
  /** `package.Service/Method`. */
  readonly name: string;
  readonly method: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  /** `rpc ProcessPayment(ProcessPaymentRequest) returns (stream Settlement)`. */
  readonly signature: string | undefined;
  readonly handlers: readonly ContractRow[];
  readonly clients: readonly ContractRow[];
}

export interface ServiceTrace {
  /** `package.Service`. */
  readonly name: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  /** Methods declared by the service. */
  readonly methodCount: number;
  /** The traced methods: all of them for a service target, the one asked for otherwise. */
  readonly methods: readonly MethodTrace[];
  /** Code registering the whole service (an `implements` edge into the service). */
  readonly serviceHandlers: readonly ContractRow[];
  /** Service-level clients: they hold a stub but which methods they call was not traced. */
  readonly mayCall: readonly ContractRow[];
  /** Files left out of `mayCall` because they call methods of this service by name. */
  readonly mayCallExcludedFiles: readonly string[];
}

export type MatchKind = 'qualified' | 'package' | 'name' | 'substring' | 'file';

export interface Candidate {
  readonly kind: 'service' | 'method';
  readonly name: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly signature: string | undefined;
}

export type Resolution =
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly match: MatchKind; readonly candidates: readonly Candidate[] }
  | {
      readonly kind: 'traced';
      readonly match: MatchKind;
      /** `method` when one method was asked for; `service` otherwise. */
      readonly scope: 'method' | 'service';
      readonly services: readonly ServiceTrace[];
      /** Contracts whose names only contain the target, left out because a name matched exactly. */
      readonly notTraced: readonly string[];
    };

export interface GrpcAnswer {
  readonly target: string;
  readonly proto: string | undefined;
  readonly includeTests: boolean;
  readonly resolution: Resolution;
  readonly testsLeftOut: number;
  /** What was searched, for an authoritative zero. */
  readonly searched: { readonly services: number; readonly methods: number; readonly protoFiles: number };
  readonly wireChecks: readonly WireCheck[];
  /** Why the wire check did not run at all (ambiguous target, nothing resolved). */
  readonly wireNote: string | undefined;
  readonly notIndexed: { readonly markdown: string; readonly json: readonly unknown[] };
}

const HEALTH_PACKAGE = 'grpc.health.v1';
/** Wire checks per call: a package spread over many files is checked file by file, up to this many. */
const MAX_WIRE_FILES = 8;

/** Case- and underscore-insensitive form of a name, as generated code respells proto names. */
const nameKey = (name: string): string => name.replace(/_/g, '').toLowerCase();
const packageOf = (service: string): string => service.split('.').slice(0, -1).join('.');
const bareOf = (service: string): string => service.split('.').pop() ?? service;

interface Contracts {
  readonly services: readonly GraphNode[];
  readonly methods: readonly GraphNode[];
  readonly methodsOf: ReadonlyMap<string, readonly GraphNode[]>;
  readonly serviceByName: ReadonlyMap<string, GraphNode>;
}

function contractsOf(graph: ContractGraph): Contracts {
  const services = graph.nodes
    .filter((n) => n.kind === 'grpc_service' && packageOf(n.name) !== HEALTH_PACKAGE)
    .sort((a, b) => cmp(a.name, b.name));
  const serviceByName = new Map(services.map((s) => [s.name, s]));
  const methods: GraphNode[] = [];
  const methodsOf = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    if (node.kind !== 'grpc_method') continue;
    const service = node.name.slice(0, node.name.indexOf('/'));
    if (!serviceByName.has(service)) continue;
    methods.push(node);
    (methodsOf.get(service) ?? methodsOf.set(service, []).get(service))?.push(node);
  }
  methods.sort((a, b) => cmp(a.name, b.name));
  for (const list of methodsOf.values())
    list.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || cmp(a.name, b.name));
  return { services, methods, methodsOf, serviceByName };
}

const serviceOfMethod = (method: GraphNode): string => method.name.slice(0, method.name.indexOf('/'));
const methodBare = (method: GraphNode): string => method.name.slice(method.name.indexOf('/') + 1);

interface Matched {
  readonly services: GraphNode[];
  readonly methods: GraphNode[];
}

/** Drops methods whose service is matched too: tracing the service covers them. */
function subsume(found: Matched): Matched {
  const serviceNames = new Set(found.services.map((s) => s.name));
  return {
    services: [...new Set(found.services)].sort((a, b) => cmp(a.name, b.name)),
    methods: [...new Set(found.methods)]
      .filter((m) => !serviceNames.has(serviceOfMethod(m)))
      .sort((a, b) => cmp(a.name, b.name)),
  };
}

const isEmpty = (m: Matched): boolean => m.services.length === 0 && m.methods.length === 0;

/** `package.Service/Method`, `package.Service.Method`, `/package.Service/Method` → service part and method part. */
function splitQualified(target: string): { service: string; method: string } | undefined {
  const slash = target.lastIndexOf('/');
  const cut = slash !== -1 ? slash : target.lastIndexOf('.');
  if (cut <= 0 || cut === target.length - 1) return undefined;
  return { service: target.slice(0, cut), method: target.slice(cut + 1) };
}

/**
 * Name resolution, strictest first: exact qualified name (service, method, or proto package), then exact
 * bare name (case- and `_`-insensitive), then substring, only when nothing matched exactly.
 */
export function resolveTarget(
  contracts: Contracts,
  raw: string,
): { match: MatchKind; found: Matched; substringOnly: GraphNode[] } | undefined {
  const target = raw.trim().replace(/^\/+/, '').replace(/^\.+/, '');
  const qualified: Matched = { services: [], methods: [] };
  let packageMatch = false;
  const service = contracts.serviceByName.get(target);
  if (service) qualified.services.push(service);
  const parts = splitQualified(target);
  if (parts) {
    const owner = contracts.serviceByName.get(parts.service);
    const method = owner
      ? contracts.methodsOf.get(owner.name)?.find((m) => methodBare(m) === parts.method)
      : undefined;
    if (method) qualified.methods.push(method);
  }
  if (isEmpty(qualified)) {
    const inPackage = contracts.services.filter((s) => packageOf(s.name) === target);
    if (inPackage.length > 0) {
      qualified.services.push(...inPackage);
      packageMatch = true;
    }
  }

  const substringPool = (): GraphNode[] => {
    const dotted = /[./]/.test(target);
    const needle = dotted ? target.toLowerCase() : nameKey(target);
    const hay = (node: GraphNode) =>
      dotted
        ? node.name.toLowerCase()
        : nameKey(node.kind === 'grpc_method' ? methodBare(node) : bareOf(node.name));
    return [...contracts.services, ...contracts.methods].filter((node) => hay(node).includes(needle));
  };
  const leftovers = (found: Matched): GraphNode[] => {
    const covered = new Set([...found.services.map((s) => s.name), ...found.methods.map((m) => m.name)]);
    return substringPool().filter(
      (node) =>
        !covered.has(node.name) && !(node.kind === 'grpc_method' && covered.has(serviceOfMethod(node))),
    );
  };

  if (!isEmpty(qualified)) {
    const found = subsume(qualified);
    return { match: packageMatch ? 'package' : 'qualified', found, substringOnly: leftovers(found) };
  }

  const byName: Matched = { services: [], methods: [] };
  const key = nameKey(target);
  if (parts) {
    const serviceKey = nameKey(parts.service);
    const owners = contracts.services.filter(
      (s) => nameKey(s.name) === serviceKey || nameKey(bareOf(s.name)) === serviceKey,
    );
    for (const owner of owners) {
      const method = contracts.methodsOf
        .get(owner.name)
        ?.find((m) => nameKey(methodBare(m)) === nameKey(parts.method));
      if (method) byName.methods.push(method);
    }
  }
  byName.services.push(
    ...contracts.services.filter((s) => nameKey(s.name) === key || nameKey(bareOf(s.name)) === key),
  );
  byName.methods.push(
    ...contracts.methods.filter((m) => nameKey(methodBare(m)) === key || nameKey(m.name) === key),
  );
  if (isEmpty(byName)) {
    const inPackage = contracts.services.filter((s) => nameKey(packageOf(s.name)) === key);
    byName.services.push(...inPackage);
    if (inPackage.length > 0) {
      const found = subsume(byName);
      return { match: 'package', found, substringOnly: leftovers(found) };
    }
  }
  if (!isEmpty(byName)) {
    const found = subsume(byName);
    return { match: 'name', found, substringOnly: leftovers(found) };
  }

  const pool = substringPool();
  if (pool.length === 0) return undefined;
  const found = subsume({
    services: pool.filter((n) => n.kind === 'grpc_service'),
    methods: pool.filter((n) => n.kind === 'grpc_method'),
  });
  return { match: 'substring', found, substringOnly: [] };
}

interface TraceContext {
  readonly snapshot: Snapshot;
  readonly graph: ContractGraph;
  readonly contracts: Contracts;
  readonly includeTests: boolean;
  readonly filesByKey: ReadonlyMap<string, IndexedFile>;
  testsLeftOut: number;
}

const locationOf = (snapshot: Snapshot, node: GraphNode): string | undefined =>
  node.root !== undefined && node.file !== undefined
    ? displayPath(snapshot.roots, node.root, node.file)
    : undefined;

/** The rpc line from the `.proto` facts: `rpc Pay(PayRequest) returns (stream PayEvent)`. */
function signatureOf(ctx: TraceContext, method: GraphNode): string | undefined {
  if (method.root === undefined || method.file === undefined) return undefined;
  const file = ctx.filesByKey.get(`${method.root}\u0000${method.file}`);
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
  const from = ctx.graph.nodes[edge.from];
  return {
    role,
    level,
    root: edge.root,
    path: displayPath(ctx.snapshot.roots, edge.root, edge.file),
    file: edge.file,
    line: edge.line,
    symbol: from?.kind === 'symbol' ? from.name : undefined,
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

function serviceTrace(ctx: TraceContext, service: GraphNode, only: GraphNode | undefined): ServiceTrace {
  const all = ctx.contracts.methodsOf.get(service.name) ?? [];
  const methods = (only ? [only] : all).map((m) => methodTrace(ctx, m));
  // A file that calls methods of this service by name has its calls known method by method: its stub is not
  // a "may call" on top of that. Test files count here whether or not they are listed.
  const methodClientFiles = new Set<string>();
  for (const method of all) {
    for (const edge of ctx.graph.incoming(method.id)) {
      if (edge.kind === 'calls_rpc') methodClientFiles.add(`${edge.root}\u0000${edge.file}`);
    }
  }
  const excluded = new Set<string>();
  const mayCall = rowsInto(ctx, service, 'calls_rpc', 'may_call', 'service', (edge) => {
    if (!methodClientFiles.has(`${edge.root}\u0000${edge.file}`)) return true;
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
function traceByName(ctx: TraceContext, target: string): Resolution {
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

/** The display path of an absolute path inside the roots (the most specific root wins). */
function displayOfAbsolute(snapshot: Snapshot, absolute: string): string {
  const root = [...snapshot.roots]
    .filter((r) => absolute === r.path || absolute.startsWith(`${r.path}${path.sep}`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!root) return absolute;
  return displayPath(snapshot.roots, root.name, path.relative(root.path, absolute).split(path.sep).join('/'));
}

const absoluteOf = (snapshot: Snapshot, root: string, file: string): string | undefined => {
  const info = snapshot.roots.find((r) => r.name === root);
  return info ? path.join(info.path, ...file.split('/')) : undefined;
};

export const contractsGrpc = defineOperation({
  domain: 'contracts',
  mode: 'grpc',
  flatName: 'analyze_grpc',
  title: 'Trace a gRPC contract',
  description:
    'Traces a gRPC service or method from its .proto declaration to the server handlers and clients across all services (zero is authoritative), and checks the .proto for wire-format breaking changes against a git base — e.g. target "PaymentService.ProcessPayment" or proto "proto/payment.proto". DO NOT USE for HTTP routes, event topics or plain symbols (use contracts dependents or code search).',
  args: {
    target: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        'What to trace, by name: a service, a method, Service.Method, package.Service/Method or a proto package, e.g. "PaymentService", "ProcessPayment", "shop.payment.v1.PaymentService/ProcessPayment" or "shop.payment.v1". Give this or `proto`.',
      ),
    proto: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A .proto file inside the roots: traces every service it declares and wire-checks it, e.g. "proto/payment.proto". Give this or `target`.',
      ),
    base: z
      .string()
      .optional()
      .describe(
        'Git revision to wire-check the .proto against, e.g. "origin/main", a tag or a commit SHA; default: the merge base of HEAD with origin/HEAD, origin/main or main, else HEAD.',
      ),
    include_tests: z
      .boolean()
      .default(false)
      .describe(
        'List handlers and clients in test files too, e.g. true; by default they are left out and counted.',
      ),
  },
  capabilities: { requiresIndex: true, idempotent: true },
  pathFields: ['proto'],
  subject: (args) => args.proto ?? args.target,
  truncationHint: (args) =>
    `The trace of \`${args.target ?? args.proto ?? ''}\` was too large: pass one method as \`package.Service/Method\`${args.include_tests ? ' and leave `include_tests` off' : ''}.`,
  async run(args, ctx: OperationContext<MeshServices>) {
    if (args.base !== undefined) validateBase(args.base);
    const target = args.target?.trim();
    if ((target === undefined || target === '') && args.proto === undefined) {
      throw new ToolError(
        'invalid_argument',
        'Pass `target` (a service, method or package name, e.g. "PaymentService.ProcessPayment") or `proto` (a .proto file, e.g. "proto/payment.proto").',
      );
    }
    if (target !== undefined && args.proto !== undefined) {
      throw new ToolError(
        'invalid_argument',
        'Pass either `target` or `proto`, not both: `proto` already traces every service the file declares.',
      );
    }
    if (target !== undefined && /\.proto$/i.test(target)) {
      throw new ToolError(
        'invalid_argument',
        `\`target\` takes a contract name; for a file pass \`proto: ${JSON.stringify(target)}\` instead.`,
      );
    }
    if (args.proto !== undefined && !/\.proto$/i.test(args.proto)) {
      throw new ToolError(
        'invalid_argument',
        `\`proto\` must name a .proto file, got ${JSON.stringify(path.basename(args.proto))}.`,
      );
    }

    const snapshot = requireSnapshot(ctx.services);
    const graph = snapshot.graph;
    const contracts = contractsOf(graph);
    const filesByKey = new Map(snapshot.files.map((f) => [`${f.root}\u0000${f.path}`, f]));
    const trace: TraceContext = {
      snapshot,
      graph,
      contracts,
      includeTests: args.include_tests,
      filesByKey,
      testsLeftOut: 0,
    };
    const protoFiles = new Set(contracts.services.map((s) => `${s.root}\u0000${s.file}`)).size;

    let resolution: Resolution;
    let wireFiles: { absolute: string; display: string }[] = [];
    if (args.proto !== undefined) {
      const display = displayOfAbsolute(snapshot, args.proto);
      const file = snapshot.files.find((f) => f.absolutePath === args.proto);
      const declared = file
        ? contracts.services.filter((s) => s.root === file.root && s.file === file.path)
        : [];
      resolution = {
        kind: 'traced',
        match: 'file',
        scope: 'service',
        services: declared.map((s) => serviceTrace(trace, s, undefined)),
        notTraced: [],
      };
      wireFiles = [{ absolute: args.proto, display }];
    } else {
      resolution = traceByName(trace, target as string);
      if (resolution.kind === 'traced') {
        const seen = new Set<string>();
        for (const service of resolution.services) {
          const node = contracts.serviceByName.get(service.name);
          if (!node?.root || !node.file) continue;
          const absolute = absoluteOf(snapshot, node.root, node.file);
          if (!absolute || seen.has(absolute)) continue;
          seen.add(absolute);
          wireFiles.push({ absolute, display: displayPath(snapshot.roots, node.root, node.file) });
        }
      }
    }

    let wireNote: string | undefined;
    const wireChecks: WireCheck[] = [];
    if (wireFiles.length > 0) {
      // Loaded on demand: protobufjs is only needed when a .proto is compared.
      const { checkWireFormat } = await import('./wire-check.js');
      const baseCache: NonNullable<WireCheckRequest['baseCache']> = new Map();
      for (const file of wireFiles.slice(0, MAX_WIRE_FILES)) {
        wireChecks.push(
          await checkWireFormat({
            absolutePath: file.absolute,
            display: file.display,
            base: args.base,
            signal: ctx.signal,
            baseCache,
          }),
        );
      }
      if (wireFiles.length > MAX_WIRE_FILES) {
        wireNote = `${wireFiles.length - MAX_WIRE_FILES} more .proto file(s) not wire-checked; pass \`proto\` to check one.`;
      }
    } else if (resolution.kind === 'ambiguous') {
      wireNote = 'Wire check not run: the target is ambiguous; pass a qualified name.';
    } else if (args.base !== undefined) {
      wireNote = 'Wire check not run: no .proto file declares the target.';
    }

    const answer: GrpcAnswer = {
      target: target ?? '',
      proto: args.proto !== undefined ? displayOfAbsolute(snapshot, args.proto) : undefined,
      includeTests: args.include_tests,
      resolution,
      testsLeftOut: trace.testsLeftOut,
      searched: { services: contracts.services.length, methods: contracts.methods.length, protoFiles },
      wireChecks,
      wireNote,
      notIndexed:
        resolution.kind === 'none' && target
          ? rejectedNote(snapshot, undefined, target)
          : { markdown: '', json: [] },
    };
    const rendered = renderGrpcAnswer(answer);
    return {
      data: rendered.data,
      markdown: rendered.markdown,
      filesRead: wireChecks.map((c) => c.file),
    };
  },
});
