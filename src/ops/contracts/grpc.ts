import path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { rejectedNote } from '../shared/rejected-note.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayPath } from '../shared/workspace-paths.js';
import { validateBase } from './git-show.js';
import type { GrpcAnswer, Resolution } from './grpc-answer.js';
import { contractsOf } from './grpc-contracts.js';
import { renderGrpcAnswer } from './grpc-render.js';
import { serviceTrace, traceByName, type TraceContext } from './grpc-trace.js';
import type { WireCheck, WireCheckRequest } from './wire-check.js';
import { notIndexedField } from '../shared/output-shapes.js';

/** Wire checks per call: a package spread over many files is checked file by file, up to this many. */
const MAX_WIRE_FILES = 8;

/** The display path of an absolute path inside the roots (the most specific root wins). */
function displayOfAbsolute(snapshot: SnapshotReader, absolute: string): string {
  const root = [...snapshot.roots]
    .filter((r) => absolute === r.path || absolute.startsWith(`${r.path}${path.sep}`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!root) return absolute;
  return displayPath(snapshot.roots, root.name, path.relative(root.path, absolute).split(path.sep).join('/'));
}

const absoluteOf = (snapshot: SnapshotReader, root: string, file: string): string | undefined => {
  const info = snapshot.roots.find((r) => r.name === root);
  return info ? path.join(info.path, ...file.split('/')) : undefined;
};

interface GrpcArgs {
  readonly target?: string | undefined;
  readonly proto?: string | undefined;
  readonly base?: string | undefined;
}

/** Checks that exactly one of `target` (a name) and `proto` (a .proto file) is given; returns the trimmed target. */
function validateArgs(args: GrpcArgs): string | undefined {
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
  return target;
}

function traceContextOf(snapshot: SnapshotReader, includeTests: boolean): TraceContext {
  const graph = snapshot.contractGraph();
  return { snapshot, graph, contracts: contractsOf(graph), includeTests, testsLeftOut: 0 };
}

interface WireFile {
  readonly absolute: string;
  readonly display: string;
}

/** What was traced, and the .proto files to wire-check for it. */
interface Traced {
  readonly resolution: Resolution;
  readonly wireFiles: readonly WireFile[];
}

/** Every service a .proto file declares (none when the file is not indexed); the file itself is wire-checked. */
function resolveProtoFile(trace: TraceContext, proto: string): Traced {
  const display = displayOfAbsolute(trace.snapshot, proto);
  const file = trace.snapshot.fileAt(proto);
  const declared = file
    ? trace.contracts.services.filter((s) => s.root === file.root && s.file === file.path)
    : [];
  const resolution: Resolution = {
    kind: 'traced',
    match: 'file',
    scope: 'service',
    services: declared.map((s) => serviceTrace(trace, s, undefined)),
    notTraced: [],
  };
  return { resolution, wireFiles: [{ absolute: proto, display }] };
}

/** The contracts a name resolves to; the .proto files declaring the traced services are wire-checked. */
function resolveName(trace: TraceContext, target: string): Traced {
  const resolution = traceByName(trace, target);
  const wireFiles: WireFile[] = [];
  if (resolution.kind !== 'traced') return { resolution, wireFiles };
  const { snapshot, contracts } = trace;
  const seen = new Set<string>();
  for (const service of resolution.services) {
    const node = contracts.serviceByName.get(service.name);
    if (!node?.root || !node.file) continue;
    const absolute = absoluteOf(snapshot, node.root, node.file);
    if (!absolute || seen.has(absolute)) continue;
    seen.add(absolute);
    wireFiles.push({ absolute, display: displayPath(snapshot.roots, node.root, node.file) });
  }
  return { resolution, wireFiles };
}

/** The wire checks run, and why some or all of them were not. */
interface WireOutcome {
  readonly checks: WireCheck[];
  readonly note: string | undefined;
}

async function checkWire(
  wireFiles: readonly WireFile[],
  resolution: Resolution,
  base: string | undefined,
  signal: AbortSignal,
): Promise<WireOutcome> {
  if (wireFiles.length === 0) {
    if (resolution.kind === 'ambiguous')
      return { checks: [], note: 'Wire check not run: the target is ambiguous; pass a qualified name.' };
    if (base !== undefined)
      return { checks: [], note: 'Wire check not run: no .proto file declares the target.' };
    return { checks: [], note: undefined };
  }
  // Loaded on demand: protobufjs is only needed when a .proto is compared.
  const { checkWireFormat } = await import('./wire-check.js');
  const baseCache: NonNullable<WireCheckRequest['baseCache']> = new Map();
  const checks: WireCheck[] = [];
  for (const file of wireFiles.slice(0, MAX_WIRE_FILES)) {
    checks.push(
      await checkWireFormat({ absolutePath: file.absolute, display: file.display, base, signal, baseCache }),
    );
  }
  const note =
    wireFiles.length > MAX_WIRE_FILES
      ? `${wireFiles.length - MAX_WIRE_FILES} more .proto file(s) not wire-checked; pass \`proto\` to check one.`
      : undefined;
  return { checks, note };
}

/** The answer to render; read after tracing, which counts the test files it leaves out. */
function answerOf(
  trace: TraceContext,
  target: string | undefined,
  proto: string | undefined,
  resolution: Resolution,
  wire: WireOutcome,
): GrpcAnswer {
  const { snapshot, contracts } = trace;
  return {
    target: target ?? '',
    proto: proto !== undefined ? displayOfAbsolute(snapshot, proto) : undefined,
    includeTests: trace.includeTests,
    resolution,
    testsLeftOut: trace.testsLeftOut,
    searched: {
      services: contracts.services.length,
      methods: contracts.methods.length,
      protoFiles: new Set(contracts.services.map((s) => snapshot.fileOf(s))).size,
    },
    wireChecks: wire.checks,
    wireNote: wire.note,
    notIndexed:
      resolution.kind === 'none' && target
        ? rejectedNote(snapshot, undefined, target)
        : { markdown: '', json: [] },
  };
}

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
  output: z.looseObject({
    target: z.string().nullable(),
    proto: z.string().nullable(),
    status: z.string().describe('traced, ambiguous or none.'),
    match: z.string().nullable(),
    services: z.array(z.looseObject({ name: z.string(), path: z.string(), line: z.number().int() })),
    candidates: z.array(z.looseObject({ kind: z.string(), name: z.string() })),
    totals: z.looseObject({
      handlers: z.number().int(),
      clients: z.number().int(),
      may_call: z.number().int(),
    }),
    tests_left_out: z.number().int(),
    wire_checks: z.array(z.looseObject({ file: z.string(), status: z.string() })),
    wire_note: z.string().nullable(),
    not_indexed: notIndexedField,
  }),
  capabilities: { requiresIndex: true, idempotent: true },
  pathFields: ['proto'],
  subject: (args) => args.proto ?? args.target,
  truncationHint: (args) =>
    `The trace of \`${args.target ?? args.proto ?? ''}\` was too large: pass one method as \`package.Service/Method\`${args.include_tests ? ' and leave `include_tests` off' : ''}.`,
  async run(args, ctx: OperationContext<MeshServices>) {
    const target = validateArgs(args);
    const snapshot = requireSnapshot(ctx.services);
    const trace = traceContextOf(snapshot, args.include_tests);
    const { resolution, wireFiles } =
      args.proto !== undefined ? resolveProtoFile(trace, args.proto) : resolveName(trace, target as string);
    const wire = await checkWire(wireFiles, resolution, args.base, ctx.signal);
    const answer = answerOf(trace, target, args.proto, resolution, wire);
    const rendered = renderGrpcAnswer(answer);
    return {
      data: rendered.data,
      markdown: rendered.markdown,
      filesRead: wire.checks.map((c) => c.file),
      failing: wire.checks.some((c) => 'findings' in c && c.findings.some((f) => f.severity === 'breaking')),
    };
  },
});
