/**
 * Helpers shared by the Java, Kotlin and Scala extractors: doc comments, signatures, gRPC naming
 * conventions and string escapes. Annotation semantics are in `annotations.ts`, HTTP paths and URLs in
 * `http.ts`; grammar-specific node shapes stay in each language's files.
 */
import type { Node } from 'web-tree-sitter';
import { isHealthService } from '../grpc-health.js';
import { searchTree, type TreeSearch } from '../tree-search.js';

/** 1-based line of a node's first row. */
export const lineOf = (node: Node): number => node.startPosition.row + 1;
export const endLineOf = (node: Node): number => node.endPosition.row + 1;

/** The text of a `/** … *\/` comment without its delimiters and leading asterisks; undefined otherwise. */
export function docText(text: string): string | undefined {
  if (!text.startsWith('/**') || text === '/**/') return undefined;
  const lines = text
    .slice(3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? undefined : lines.join('\n');
}

/**
 * The doc comment directly above a declaration starting at `start`: a `/** … *\/` separated from it by
 * whitespace with at most one line break (a blank line detaches it). Read from the source text: asking the
 * tree for the previous sibling costs more than the whole scan.
 */
export function docBefore(source: string, start: number): string | undefined {
  let i = start - 1;
  let breaks = 0;
  while (i >= 0 && (source[i] === ' ' || source[i] === '\t' || source[i] === '\n' || source[i] === '\r')) {
    if (source[i] === '\n' && ++breaks > 1) return undefined;
    i--;
  }
  if (i < 3 || source[i] !== '/' || source[i - 1] !== '*') return undefined;
  const open = source.lastIndexOf('/*', i - 2);
  return open === -1 ? undefined : docText(source.slice(open, i + 1));
}

/** A body whose call sites belong to `scope`; bodies never nest (see {@link sitesInBodies}). */
export interface BodyRange<S> {
  readonly start: number;
  readonly end: number;
  readonly scope: S;
}

/**
 * Hands each node of the given types to the body containing it. One `descendantsOfType` call collects the
 * nodes of the whole file inside the wasm module, which costs a fraction of walking every node from
 * JavaScript; nodes come in document order, so a single pointer over the (disjoint) bodies places them.
 */
export function sitesInBodies<S>(
  root: Node | TreeSearch,
  types: readonly string[],
  bodies: readonly BodyRange<S>[],
  visit: (node: Node, scope: S, type: string) => void,
): void {
  if (bodies.length === 0) return;
  const sorted = [...bodies].sort((a, b) => a.start - b.start);
  let index = 0;
  const found = searchTree(root, types);
  for (let at = 0; at < found.nodes.length; at++) {
    const node = found.nodes[at] as Node;
    const start = node.startIndex;
    while (index < sorted.length && (sorted[index]?.end ?? 0) <= start) index++;
    const body = sorted[index];
    if (body === undefined) break;
    if (start >= body.start && node.endIndex <= body.end) visit(node, body.scope, found.types[at] as string);
  }
}

/** An initializer short enough to belong in a signature (a constant's value helps; a builder chain does not). */
export function shortValue(text: string): string | undefined {
  return text.includes('\n') || text.length > 80 ? undefined : text;
}

/** `PaymentServiceGrpc` / `PaymentServiceGrpcKt` / `a.b.PaymentServiceGrpc` → `PaymentService`. */
export function serviceOfGrpcClass(name: string): string | undefined {
  const last = name.slice(name.lastIndexOf('.') + 1);
  const match = /^(\w+?)Grpc(?:Kt)?$/.exec(last);
  return match?.[1];
}

/**
 * The service a stub type belongs to: `PaymentServiceGrpc.PaymentServiceBlockingStub` (also `…Stub`,
 * `…FutureStub`, `…BlockingV2Stub`) and `PaymentServiceGrpcKt.PaymentServiceCoroutineStub` name it through
 * their outer class. A bare `PaymentServiceBlockingStub` counts only when an import ties it to a `…Grpc`
 * class (`importedFrom` is that import's source), since `FooStub` is also the name of many test doubles.
 */
export function serviceOfStubType(type: string, importedFrom?: string): string | undefined {
  const segments = type.split('.');
  const last = segments[segments.length - 1] ?? '';
  if (!/(?:Stub)$/.test(last)) return undefined;
  const outer =
    segments.length >= 2 ? segments[segments.length - 2] : importedFrom?.split('.').slice(-2, -1)[0];
  if (outer === undefined) return undefined;
  const service = serviceOfGrpcClass(outer);
  return service === undefined || isHealthService(service) ? undefined : service;
}

/** Methods of a gRPC stub that configure it (and return a new stub) rather than call an RPC. */
export const STUB_CONFIG_METHODS: ReadonlySet<string> = new Set([
  'withDeadline',
  'withDeadlineAfter',
  'withInterceptors',
  'withCallCredentials',
  'withWaitForReady',
  'withCompression',
  'withExecutor',
  'withOption',
  'withMaxInboundMessageSize',
  'withMaxOutboundMessageSize',
  'withOnReadyThreshold',
  'withChannel',
  'getChannel',
  'getCallOptions',
  'toString',
  'hashCode',
  'equals',
  'getClass',
]);

export const STUB_FACTORIES: ReadonlySet<string> = new Set([
  'newBlockingStub',
  'newStub',
  'newFutureStub',
  'newBlockingV2Stub',
]);

/** Methods of an `ImplBase` that are not RPC handlers even when overridden. */
export const NOT_RPC_METHODS: ReadonlySet<string> = new Set([
  'bindService',
  'toString',
  'equals',
  'hashCode',
  'finalize',
  'clone',
  'close',
]);

/** Decodes the escapes of a Java/Kotlin string literal body. */
export function unescapeJvm(body: string): string {
  return body.replace(/\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_all, esc: string) => {
    if (esc.startsWith('u')) return String.fromCharCode(parseInt(esc.replace(/^u+/, ''), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    switch (esc) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 's':
        return ' ';
      default:
        return esc;
    }
  });
}

/** Spring Kafka templates: a `send` on one of these produces to its first argument's topic. */
export const KAFKA_TEMPLATES: ReadonlySet<string> = new Set([
  'KafkaTemplate',
  'KafkaOperations',
  'ReplyingKafkaTemplate',
  'RoutingKafkaTemplate',
  'ReactiveKafkaProducerTemplate',
]);
/** kafka-clients consumers: a `subscribe` on one of these consumes the listed topics. */
export const KAFKA_CONSUMERS: ReadonlySet<string> = new Set(['KafkaConsumer', 'Consumer', 'MockConsumer']);

/** `a.b.C` → `C`: the simple name of a qualified JVM name. */
export const lastSegment = (name: string): string => name.slice(name.lastIndexOf('.') + 1);
