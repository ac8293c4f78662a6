import type { Node } from 'web-tree-sitter';
import type { ContractSink } from './grpc-stub-use.js';
import {
  annotationArg,
  type AnnotationInfo,
  feignBaseOf,
  findAnnotation,
  methodRoutes,
  routePrefixes,
  type RouteSpec,
  type ValueResolver,
} from './annotations.js';
import {
  clientInterfaceCalls,
  micronautRoutes,
  quarkusRoutes,
  repositoryRoutes,
} from './annotation-routes.js';
import { joinPaths } from './route-paths.js';
import {
  type AnnotatedTopic,
  annotatedTopics,
  functionalBindings,
  injectedChannel,
} from './listener-annotations.js';

/** A declaration carrying annotations: a class, a Java method, a Kotlin function. */
export interface Annotated {
  readonly annotations: readonly AnnotationInfo[];
  readonly id: number;
  /** A method's return type without type arguments (`Consumer` for `Consumer<Order>`), when declared. */
  readonly returnType?: string;
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
  /** Resolves topic destinations when they may name what the file cannot (another file's constant). */
  readonly topicResolver?: ValueResolver;
  readonly nestedAnnotations: (node: Node) => readonly AnnotationInfo[];
  /** The gRPC service a stub type stands for. */
  readonly stubServiceOf: (type: string | undefined) => string | undefined;
  /** Members of the supertypes declared in the same file: a Feign client inherits their mappings. */
  readonly inherited?: readonly M[];
  /** The entity a Spring Data repository holds (`JpaRepository<Person, Long>` → `Person`). */
  readonly entity?: string;
  /** An interface a Feign client of the same file extends: its mappings are that client's calls, not routes. */
  readonly clientApi?: boolean;
  /** The file's import sources: messaging annotations count only where their library is imported. */
  readonly imports?: readonly string[];
}

/**
 * The class-level contracts of a JVM class, the same in Java and Kotlin: a saga named `…Saga`, the gRPC
 * service it serves and its handlers, Spring listeners, routes and Feign calls, and `@GrpcClient` fields.
 */
export function jvmClassContracts<M extends Annotated & { readonly name: string; readonly line: number }>(
  input: JvmClassInput<M>,
  facts: ContractSink,
): void {
  const { cls, server } = input;
  // Read twice (channel injections, then `@GrpcClient`): an iterator would be spent after the first.
  const fields = [...input.fields];
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
  springClassContracts({ ...input, fields }, facts);
  // grpc-spring-boot-starter injects stubs into `@GrpcClient("name")` fields: a service-level client.
  for (const field of fields) {
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
 * What annotations on a class and its methods declare, the same in Java and Kotlin: topic listeners
 * (`@KafkaListener`, `@RabbitListener`, …) on either; per method either the HTTP routes it serves (Spring
 * MVC, JAX-RS, Micronaut, Quarkus) or, in a client interface (`@FeignClient` with its inherited mappings,
 * `@RegisterRestClient`, Retrofit, `@RequestLine`, `@HttpExchange`), the HTTP calls it makes; the routes
 * of a Spring Data REST repository.
 */
function springClassContracts<M extends Annotated & { readonly name: string; readonly line: number }>(
  input: JvmClassInput<M>,
  facts: ContractSink,
): void {
  const { cls, resolver } = input;
  const listeners = topicEmitter(input, facts);
  listeners(cls, cls.nameLine);
  for (const route of repositoryRoutes(cls.annotations, input.entity, resolver)) {
    const { method, path, via } = route;
    facts.addContract({ kind: 'http_route', method, path, symbol: cls.id, line: cls.nameLine, via });
  }
  const client =
    findAnnotation(cls.annotations, 'FeignClient') ?? findAnnotation(cls.annotations, 'RegisterRestClient');
  const feignPath = client?.name === 'FeignClient' ? annotationArg(client, ['path']) : undefined;
  const prefixes =
    feignPath !== undefined ? (resolver.strings(feignPath) ?? []) : routePrefixes(cls.annotations, resolver);
  const base = client === undefined ? undefined : feignBaseOf(client, resolver);
  const call = (member: M, route: RouteSpec, via: string): void => {
    facts.addContract({
      kind: 'http_call',
      method: route.method,
      path: route.path,
      base,
      symbol: member.id,
      line: member.line,
      confidence: 'exact',
      via,
    });
  };
  for (const member of input.members) {
    listeners(member, member.line);
    for (const route of clientInterfaceCalls(cls.annotations, member.annotations, resolver))
      call(
        member,
        client === undefined ? route : { ...route, path: joinPaths(prefixes[0] ?? '', route.path) },
        route.via,
      );
    const routes = methodRoutes(prefixes, member.annotations, resolver);
    if (client !== undefined) {
      for (const route of routes) call(member, route, `@${client.name}`);
      continue;
    }
    if (input.clientApi === true) continue;
    routes.push(
      ...micronautRoutes(cls.annotations, member.annotations, resolver),
      ...quarkusRoutes(cls.annotations, member.name, member.annotations, resolver),
    );
    for (const route of routes) {
      const classPath = route.classPath === undefined ? '/' : joinPaths('', route.classPath);
      facts.addContract({
        kind: 'http_route',
        method: route.method,
        path: route.path,
        ...(classPath === '/' ? {} : { classPath }),
        symbol: member.id,
        line: member.line,
        via: route.via,
      });
    }
  }
  // A Feign interface extending an API interface of the same file calls the mappings it inherits.
  if (client === undefined) return;
  for (const member of input.inherited ?? []) {
    for (const route of methodRoutes(prefixes, member.annotations, resolver))
      call(member, route, `@${client.name}`);
  }
}

/**
 * The topic facts a declaration's annotations make (listeners, channels, functional bindings); the
 * fields' channel injections are emitted when the emitter is made.
 */
function topicEmitter<M extends Annotated & { readonly name: string; readonly line: number }>(
  input: JvmClassInput<M>,
  facts: ContractSink,
): (declaration: Annotated & { readonly name: string }, line: number) => void {
  const { resolver, nestedAnnotations } = input;
  const imports = input.imports ?? [];
  const topicFact = (found: AnnotatedTopic, symbol: number | undefined, line: number): void => {
    const { role, topic, broker, routingKey, queue, unresolved, confidence, via } = found;
    facts.addContract({
      kind: role === 'producer' ? 'topic_producer' : 'topic_consumer',
      topic,
      broker,
      ...(routingKey === undefined ? {} : { routingKey }),
      ...(queue === undefined ? {} : { queue }),
      ...(unresolved === undefined ? {} : { unresolved }),
      ...(symbol === undefined ? {} : { symbol }),
      line,
      confidence,
      via,
    });
  };
  const listeners = (declaration: Annotated & { readonly name: string }, line: number): void => {
    const context = {
      resolver,
      ...(input.topicResolver === undefined ? {} : { destinations: input.topicResolver }),
      nested: nestedAnnotations,
      imports,
    };
    for (const found of annotatedTopics(declaration.annotations, context))
      topicFact(found, declaration.id, line);
    const functional = functionalBindings(
      declaration.annotations,
      declaration.name,
      declaration.returnType,
      imports,
    );
    for (const found of functional) topicFact(found, declaration.id, line);
  };
  for (const field of input.fields) {
    for (const found of injectedChannel(field.annotations, field.type, imports, resolver))
      topicFact(found, field.symbol, field.line);
  }
  return listeners;
}
