/**
 * Route and client annotations beyond Spring MVC and JAX-RS, as tables: Micronaut (`@Controller("/x")` +
 * `@Get("/y")`), Quarkus reactive routes (`@RouteBase` + `@Route`), Spring Data REST repositories, and the
 * requests of annotated client interfaces (Feign `@RequestLine`, Retrofit `@GET("x")`, Spring
 * `@GetExchange`, MicroProfile `@RegisterRestClient`).
 */
import type { Node } from 'web-tree-sitter';
import {
  annotationArg,
  type AnnotationInfo,
  findAnnotation,
  type RouteSpec,
  type ValueResolver,
} from './annotations.js';
import { EXCHANGE_VERBS, RETROFIT_VERBS } from './http-clients.js';
import { joinPaths } from './route-paths.js';

/** Micronaut method annotations → HTTP method. */
const MICRONAUT_VERBS: Readonly<Record<string, string>> = {
  Get: 'GET',
  Post: 'POST',
  Put: 'PUT',
  Delete: 'DELETE',
  Patch: 'PATCH',
  Head: 'HEAD',
  Options: 'OPTIONS',
};

function stringsOf(
  ann: AnnotationInfo,
  names: readonly (string | undefined)[],
  resolver: ValueResolver,
): readonly string[] | undefined {
  const node = annotationArg(ann, names);
  return node === undefined ? [''] : resolver.strings(node);
}

/**
 * Micronaut routes: a method's `@Get("/y")`… under its class's `@Controller("/x")` (Spring's `@Controller`
 * takes a bean name, but Spring methods carry `@GetMapping`, never `@Get`).
 */
export function micronautRoutes(
  classAnns: readonly AnnotationInfo[],
  methodAnns: readonly AnnotationInfo[],
  resolver: ValueResolver,
): RouteSpec[] {
  const controller = findAnnotation(classAnns, 'Controller');
  if (controller === undefined) return [];
  const prefixes = stringsOf(controller, [undefined, 'value'], resolver) ?? [];
  const routes: RouteSpec[] = [];
  for (const ann of methodAnns) {
    const method = MICRONAUT_VERBS[ann.name];
    if (method === undefined) continue;
    for (const path of stringsOf(ann, [undefined, 'value', 'uri', 'uris'], resolver) ?? []) {
      for (const prefix of prefixes)
        routes.push({ method, path: joinPaths(prefix, path), via: `Micronaut @${ann.name}` });
    }
  }
  return routes;
}

/**
 * Quarkus reactive routes: `@Route(path = "/x", methods = Route.HttpMethod.GET)` under `@RouteBase(path =
 * "/p")`; without `methods` a route answers any method, without `path` the method's name is its path.
 */
export function quarkusRoutes(
  classAnns: readonly AnnotationInfo[],
  methodName: string,
  methodAnns: readonly AnnotationInfo[],
  resolver: ValueResolver,
): RouteSpec[] {
  const route = findAnnotation(methodAnns, 'Route');
  // `@Route` of other libraries (Vaadin views) take no `path`/`methods` pair with `regex`: require one of them.
  if (route === undefined || route.args.every((arg) => arg.name === undefined)) return [];
  const base = findAnnotation(classAnns, 'RouteBase');
  const prefixNode = base === undefined ? undefined : annotationArg(base, ['path', undefined, 'value']);
  const prefix = prefixNode === undefined ? '' : (resolver.strings(prefixNode)?.[0] ?? '');
  const pathNode = annotationArg(route, ['path', 'value']);
  if (pathNode === undefined && annotationArg(route, ['regex']) !== undefined) return [];
  const paths = pathNode === undefined ? [methodName] : (resolver.strings(pathNode) ?? []);
  const methodsNode = annotationArg(route, ['methods']);
  const methods =
    methodsNode === undefined ? ['ANY'] : resolver.names(methodsNode).map((name) => name.toUpperCase());
  return paths.flatMap((path) =>
    methods.map((method) => ({ method, path: joinPaths(prefix, path), via: 'Quarkus @Route' })),
  );
}

/** `Person` → `persons`, `Address` → `addresses`, `Company` → `companies` (Spring Data REST's Evo Inflector, simplified). */
export function pluralPath(entity: string): string {
  const name = entity.charAt(0).toLowerCase() + entity.slice(1);
  if (/(?:s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/**
 * The routes Spring Data REST exports for a `@RepositoryRestResource` repository: the collection (`GET`,
 * `POST`) and item (`GET`, `PUT`, `PATCH`, `DELETE`) resources at its `path`, by default the uncapitalised
 * plural of its entity. `exported = false` exports nothing.
 */
export function repositoryRoutes(
  classAnns: readonly AnnotationInfo[],
  entity: string | undefined,
  resolver: ValueResolver & { string(node: Node): string | undefined },
): RouteSpec[] {
  const ann = findAnnotation(classAnns, 'RepositoryRestResource');
  if (ann === undefined) return [];
  const exported = annotationArg(ann, ['exported']);
  if (exported?.text === 'false') return [];
  const pathNode = annotationArg(ann, ['path']);
  const path =
    pathNode === undefined
      ? entity === undefined
        ? undefined
        : pluralPath(entity)
      : resolver.string(pathNode);
  if (path === undefined || path === '') return [];
  const via = '@RepositoryRestResource';
  const collection = joinPaths('', path);
  const item = joinPaths(collection, '{id}');
  return [
    { method: 'GET', path: collection, via },
    { method: 'POST', path: collection, via },
    { method: 'GET', path: item, via },
    { method: 'PUT', path: item, via },
    { method: 'PATCH', path: item, via },
    { method: 'DELETE', path: item, via },
  ];
}

/** The entity of a Spring Data repository: the first type argument of `JpaRepository<Person, Long>` & co. */
export function repositoryEntity(supertypes: readonly string[]): string | undefined {
  for (const written of supertypes) {
    const match = /^\s*(?:[\w.]+\.)?\w*Repository\s*<\s*([\w.]+)/.exec(written);
    if (match?.[1] !== undefined) return match[1].slice(match[1].lastIndexOf('.') + 1);
  }
  return undefined;
}

/**
 * The requests an annotated client interface method declares beyond Spring MVC mappings: Feign
 * `@RequestLine("GET /x/{id}")`, Retrofit `@GET("x")` / `@HTTP(method = "GET", path = "x")`, Spring
 * `@GetExchange("/x")` under an interface-level `@HttpExchange("/p")`. A JAX-RS `@GET` takes no argument:
 * it is not Retrofit's.
 */
export function clientInterfaceCalls(
  classAnns: readonly AnnotationInfo[],
  methodAnns: readonly AnnotationInfo[],
  resolver: ValueResolver & { string(node: Node): string | undefined },
): RouteSpec[] {
  const calls: RouteSpec[] = [];
  const exchange = findAnnotation(classAnns, 'HttpExchange');
  const exchangePrefixes =
    exchange === undefined ? [''] : (stringsOf(exchange, [undefined, 'value', 'url'], resolver) ?? []);
  for (const ann of methodAnns) {
    const first = ann.args[0];
    if (ann.name === 'RequestLine' && first !== undefined) {
      const line = resolver.string(first.value);
      const match = line === undefined ? null : /^\s*([A-Z]+)\s+(\S+)/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined)
        calls.push({ method: match[1], path: joinPaths('', match[2]), via: '@RequestLine' });
    } else if (RETROFIT_VERBS.has(ann.name) && first !== undefined) {
      const path = resolver.string(first.value);
      if (path !== undefined)
        calls.push({ method: ann.name, path: joinPaths('', path), via: `Retrofit @${ann.name}` });
    } else if (ann.name === 'HTTP') {
      const method = annotationArg(ann, ['method']);
      const path = annotationArg(ann, ['path']);
      const verb = method === undefined ? undefined : resolver.string(method);
      const value = path === undefined ? '' : resolver.string(path);
      if (verb !== undefined && value !== undefined)
        calls.push({ method: verb.toUpperCase(), path: joinPaths('', value), via: 'Retrofit @HTTP' });
    } else if (EXCHANGE_VERBS[ann.name] !== undefined) {
      const verb = ann.name === 'HttpExchange' ? undefined : EXCHANGE_VERBS[ann.name];
      const methodNode = annotationArg(ann, ['method']);
      const method = verb ?? (methodNode === undefined ? 'ANY' : resolver.string(methodNode)?.toUpperCase());
      for (const path of stringsOf(ann, [undefined, 'value', 'url'], resolver) ?? []) {
        for (const prefix of exchangePrefixes)
          if (method !== undefined)
            calls.push({ method, path: joinPaths(prefix, path), via: `@${ann.name}` });
      }
    }
  }
  return calls;
}
