/**
 * Spring MVC, JAX-RS and Spring Kafka annotation semantics, shared by Java and Kotlin: each language reads
 * its annotations into the small model below and supplies a resolver for argument values (literals,
 * same-file constants, arrays), so the rules about paths, verbs and topics live in one place.
 */
import type { Node } from 'web-tree-sitter';
import { joinPaths } from './route-paths.js';

/** One annotation argument: `name = value`, or a positional value (`name` undefined). */
export interface AnnotationArg {
  readonly name: string | undefined;
  readonly value: Node;
}

export interface AnnotationInfo {
  /** Last segment of the annotation's name: `KafkaListener` for `@org.springframework…KafkaListener`. */
  readonly name: string;
  /** As written, on one line. */
  readonly text: string;
  readonly args: readonly AnnotationArg[];
}

/** How a language turns an annotation argument into values; undefined when it cannot be resolved. */
export interface ValueResolver {
  /** Every string an expression denotes (a literal, a constant, an array of those). */
  strings(node: Node): readonly string[] | undefined;
  /** The last identifier of an enum-like reference: `RequestMethod.GET` → `GET`; arrays flattened. */
  names(node: Node): readonly string[];
}

export const findAnnotation = (anns: readonly AnnotationInfo[], name: string): AnnotationInfo | undefined =>
  anns.find((ann) => ann.name === name);

/** Values of the first argument among `names` (`undefined` in the list stands for a positional value). */
export function annotationArg(ann: AnnotationInfo, names: readonly (string | undefined)[]): Node | undefined {
  for (const wanted of names) {
    const arg = ann.args.find((candidate) => candidate.name === wanted);
    if (arg !== undefined) return arg.value;
  }
  return undefined;
}

const SPRING_VERBS: Readonly<Record<string, string>> = {
  GetMapping: 'GET',
  PostMapping: 'POST',
  PutMapping: 'PUT',
  DeleteMapping: 'DELETE',
  PatchMapping: 'PATCH',
  RequestMapping: 'ANY',
};

const JAXRS_VERBS: ReadonlySet<string> = new Set([
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
]);

export interface RouteSpec {
  readonly method: string;
  readonly path: string;
  readonly via: string;
  /** The class prefix `path` was joined with (Spring MVC and JAX-RS routes), as written. */
  readonly classPath?: string;
}

/** Paths of a Spring mapping annotation (`value`, `path` or positional; arrays give several); `['']` when none. */
function mappingPaths(ann: AnnotationInfo, resolver: ValueResolver): readonly string[] | undefined {
  const node = annotationArg(ann, [undefined, 'value', 'path']);
  if (node === undefined) return [''];
  return resolver.strings(node);
}

/** Class-level prefixes: Spring `@RequestMapping` and JAX-RS `@Path`. */
export function routePrefixes(
  classAnns: readonly AnnotationInfo[],
  resolver: ValueResolver,
): readonly string[] {
  const spring = findAnnotation(classAnns, 'RequestMapping');
  if (spring !== undefined) return mappingPaths(spring, resolver) ?? [];
  const jaxrs = findAnnotation(classAnns, 'Path');
  if (jaxrs !== undefined) {
    const node = annotationArg(jaxrs, [undefined, 'value']);
    return node === undefined ? [''] : (resolver.strings(node) ?? []);
  }
  return [''];
}

/**
 * The routes a method's annotations declare, joined with the class prefixes. A path that cannot be resolved
 * (a constant from another file) yields no route rather than a guessed one.
 */
export function methodRoutes(
  prefixes: readonly string[],
  methodAnns: readonly AnnotationInfo[],
  resolver: ValueResolver,
): RouteSpec[] {
  const routes: RouteSpec[] = [];
  for (const ann of methodAnns) {
    const verb = SPRING_VERBS[ann.name];
    if (verb === undefined) continue;
    const paths = mappingPaths(ann, resolver);
    if (paths === undefined) continue;
    let methods: readonly string[] = [verb];
    if (ann.name === 'RequestMapping') {
      const methodNode = annotationArg(ann, ['method']);
      const named =
        methodNode === undefined ? [] : resolver.names(methodNode).map((name) => name.toUpperCase());
      if (named.length > 0) methods = named;
    }
    for (const prefix of prefixes) {
      for (const path of paths) {
        for (const method of methods)
          routes.push({ method, path: joinPaths(prefix, path), via: `@${ann.name}`, classPath: prefix });
      }
    }
  }
  // Retrofit's `@GET("users")` names its path in the verb; JAX-RS verbs take no argument.
  const jaxrsVerb = methodAnns.find((ann) => JAXRS_VERBS.has(ann.name) && ann.args.length === 0);
  if (jaxrsVerb !== undefined) {
    const pathAnn = findAnnotation(methodAnns, 'Path');
    const node = pathAnn === undefined ? undefined : annotationArg(pathAnn, [undefined, 'value']);
    const paths = node === undefined ? [''] : resolver.strings(node);
    for (const prefix of prefixes) {
      for (const path of paths ?? []) {
        routes.push({
          method: jaxrsVerb.name,
          path: joinPaths(prefix, path),
          via: `JAX-RS @${jaxrsVerb.name}`,
          classPath: prefix,
        });
      }
    }
  }
  return routes;
}

/**
 * Topics of a `@KafkaListener`: `topics` (literal, constant, array, placeholder kept verbatim) and the
 * `topic` of each nested `@TopicPartition`. `topicPattern` is a regex and a SpEL `#{…}` is code, not topics:
 * they yield nothing.
 */
export function kafkaListenerTopics(
  ann: AnnotationInfo,
  resolver: ValueResolver,
  nested: (node: Node) => readonly AnnotationInfo[],
): readonly string[] {
  const topics: string[] = [];
  const topicsNode = annotationArg(ann, ['topics']);
  if (topicsNode !== undefined) topics.push(...(resolver.strings(topicsNode) ?? []));
  const partitions = annotationArg(ann, ['topicPartitions']);
  if (partitions !== undefined) {
    for (const partition of nested(partitions)) {
      const topic = annotationArg(partition, ['topic']);
      if (topic !== undefined) topics.push(...(resolver.strings(topic) ?? []));
    }
  }
  // A SpEL expression (`#{'${topics}'.split(',')}`) is evaluated at run time: its text is not a topic.
  return [...new Set(topics)].filter((topic) => !topic.startsWith('#{'));
}

/**
 * Where an annotated client interface sends its calls: a Feign client's `url`, else the service its
 * `value`/`name` names (`service:orders`); a MicroProfile `@RegisterRestClient`'s `baseUri`, else its
 * `configKey`.
 */
export function feignBaseOf(
  feign: AnnotationInfo,
  resolver: ValueResolver & { string(node: Node): string | undefined },
): string | undefined {
  const microProfile = feign.name === 'RegisterRestClient';
  const url = annotationArg(feign, microProfile ? ['baseUri'] : ['url']);
  const urlValue = url === undefined ? undefined : resolver.string(url);
  if (urlValue !== undefined && urlValue !== '') return urlValue;
  const name = annotationArg(feign, microProfile ? ['configKey'] : [undefined, 'value', 'name']);
  const nameValue = name === undefined ? undefined : resolver.string(name);
  return nameValue === undefined || nameValue === '' ? undefined : `service:${nameValue}`;
}
