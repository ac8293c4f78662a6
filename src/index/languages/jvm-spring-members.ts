import type { Node } from 'web-tree-sitter';
import {
  annotationArg,
  type AnnotationInfo,
  feignBaseOf,
  findAnnotation,
  listenerTopics,
  methodRoutes,
  routePrefixes,
  type ValueResolver,
} from './jvm-annotations.js';
import type { ContractSink } from './jvm-common.js';

/** A declaration carrying annotations: a class, a Java method, a Kotlin function. */
export interface Annotated {
  readonly annotations: readonly AnnotationInfo[];
  readonly id: number;
}

/**
 * What Spring annotations on a class and its methods declare, the same in Java and Kotlin: topic listeners
 * (`@KafkaListener`, `@RabbitListener`, …) on either, and per method either the HTTP routes it serves or,
 * in a `@FeignClient` interface, the HTTP calls it makes (with the client's base URL).
 */
export function springClassContracts(
  cls: Annotated & { readonly nameLine: number },
  members: readonly (Annotated & { readonly line: number })[],
  resolver: ValueResolver & { string(node: Node): string | undefined },
  nestedAnnotations: (node: Node) => readonly AnnotationInfo[],
  sink: ContractSink,
): void {
  const listeners = (declaration: Annotated, line: number) => {
    for (const { topic, via } of listenerTopics(declaration.annotations, resolver, nestedAnnotations)) {
      sink.add({ kind: 'topic_consumer', topic, symbol: declaration.id, line, confidence: 'exact', via });
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
        sink.add({
          kind: 'http_route',
          method: route.method,
          path: route.path,
          symbol: member.id,
          line: member.line,
          via: route.via,
        });
      } else {
        sink.add({
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
