import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../fact-builder.js';
import {
  annotationArg,
  type AnnotationInfo,
  feignBaseOf,
  findAnnotation,
  listenerTopics,
  methodRoutes,
  routePrefixes,
  type ValueResolver,
} from './annotations.js';

/** A declaration carrying annotations: a class, a Java method, a Kotlin function. */
export interface Annotated {
  readonly annotations: readonly AnnotationInfo[];
  readonly id: number;
}

/** A field that may carry `@GrpcClient` (grpc-spring-boot-starter injects a stub there). */
export interface AnnotatedField {
  readonly annotations: readonly AnnotationInfo[];
  readonly isParam?: boolean;
  readonly type?: string;
  readonly symbol?: number;
  readonly line: number;
}

/** What a Java or Kotlin class gives the contract extractor; only how each language reads it differs. */
export interface JvmClassInput<M extends Annotated & { readonly name: string; readonly line: number }> {
  readonly cls: Annotated & { readonly name: string; readonly nameLine: number };
  readonly members: readonly M[];
  readonly fields: Iterable<AnnotatedField>;
  /** The gRPC service the class implements (`extends XImplBase`, a Kotlin coroutine base, …), if any. */
  readonly server: { readonly service: string; readonly via: string } | undefined;
  /** Whether a member of a gRPC server class is one of its RPC handlers. */
  readonly isRpcHandler: (member: M) => boolean;
  readonly resolver: ValueResolver & { string(node: Node): string | undefined };
  readonly nestedAnnotations: (node: Node) => readonly AnnotationInfo[];
  /** The gRPC service a stub type stands for. */
  readonly stubServiceOf: (type: string | undefined) => string | undefined;
}

/**
 * The class-level contracts of a JVM class, the same in Java and Kotlin: a saga named `…Saga`, the gRPC
 * service it serves and its handlers, Spring listeners, routes and Feign calls, and `@GrpcClient` fields.
 */
export function jvmClassContracts<M extends Annotated & { readonly name: string; readonly line: number }>(
  input: JvmClassInput<M>,
  facts: FactBuilder,
): void {
  const { cls, server } = input;
  if (cls.name.length > 4 && cls.name.endsWith('Saga')) {
    facts.addContract({
      kind: 'saga',
      name: cls.name,
      symbol: cls.id,
      line: cls.nameLine,
      via: 'class name',
    });
  }
  if (server !== undefined) {
    facts.addContract({
      kind: 'grpc_server',
      service: server.service,
      symbol: cls.id,
      line: cls.nameLine,
      confidence: 'exact',
      via: server.via,
    });
    for (const member of input.members) {
      if (!input.isRpcHandler(member)) continue;
      facts.addContract({
        kind: 'grpc_server',
        service: server.service,
        method: member.name,
        symbol: member.id,
        line: member.line,
        confidence: 'exact',
        via: server.via,
      });
    }
  }
  springClassContracts(cls, input.members, input.resolver, input.nestedAnnotations, facts);
  // grpc-spring-boot-starter injects stubs into `@GrpcClient("name")` fields: a service-level client.
  for (const field of input.fields) {
    if (field.isParam || findAnnotation(field.annotations, 'GrpcClient') === undefined) continue;
    const service = input.stubServiceOf(field.type);
    if (service === undefined) continue;
    facts.addContract({
      kind: 'grpc_client',
      service,
      symbol: field.symbol,
      line: field.line,
      confidence: 'exact',
      via: '@GrpcClient',
    });
  }
}

/**
 * What Spring annotations on a class and its methods declare, the same in Java and Kotlin: topic listeners
 * (`@KafkaListener`, `@RabbitListener`, …) on either, and per method either the HTTP routes it serves or,
 * in a `@FeignClient` interface, the HTTP calls it makes (with the client's base URL).
 */
function springClassContracts(
  cls: Annotated & { readonly nameLine: number },
  members: readonly (Annotated & { readonly line: number })[],
  resolver: ValueResolver & { string(node: Node): string | undefined },
  nestedAnnotations: (node: Node) => readonly AnnotationInfo[],
  facts: FactBuilder,
): void {
  const listeners = (declaration: Annotated, line: number) => {
    for (const { topic, via } of listenerTopics(declaration.annotations, resolver, nestedAnnotations)) {
      facts.addContract({
        kind: 'topic_consumer',
        topic,
        symbol: declaration.id,
        line,
        confidence: 'exact',
        via,
      });
    }
  };
  listeners(cls, cls.nameLine);
  const feign = findAnnotation(cls.annotations, 'FeignClient');
  const feignPath = feign === undefined ? undefined : annotationArg(feign, ['path']);
  const prefixes =
    feignPath !== undefined ? (resolver.strings(feignPath) ?? []) : routePrefixes(cls.annotations, resolver);
  const feignBase = feign === undefined ? undefined : feignBaseOf(feign, resolver);
  for (const member of members) {
    listeners(member, member.line);
    for (const route of methodRoutes(prefixes, member.annotations, resolver)) {
      if (feign === undefined) {
        facts.addContract({
          kind: 'http_route',
          method: route.method,
          path: route.path,
          symbol: member.id,
          line: member.line,
          via: route.via,
        });
      } else {
        facts.addContract({
          kind: 'http_call',
          method: route.method,
          path: route.path,
          base: feignBase,
          symbol: member.id,
          line: member.line,
          confidence: 'exact',
          via: '@FeignClient',
        });
      }
    }
  }
}
