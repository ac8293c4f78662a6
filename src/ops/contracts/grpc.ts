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
    const graph = snapshot.contractGraph();
    const contracts = contractsOf(graph);
    const trace: TraceContext = {
      snapshot,
      graph,
      contracts,
      includeTests: args.include_tests,
      testsLeftOut: 0,
    };
    const protoFiles = new Set(contracts.services.map((s) => snapshot.fileOf(s))).size;

    let resolution: Resolution;
    let wireFiles: { absolute: string; display: string }[] = [];
    if (args.proto !== undefined) {
      const display = displayOfAbsolute(snapshot, args.proto);
      const file = snapshot.fileAt(args.proto);
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
