/**
 * Java contracts from the declaration walk's model: gRPC servers (`…ImplBase` subclasses) and stubs,
 * Kafka listeners and producers, Spring MVC / JAX-RS routes and Feign clients. HTTP client calls are in
 * `java-http.ts`. Nothing here reads the source text for patterns: every fact comes from a tree node.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { type ContractSink, StubUseTracker } from '../shared/jvm/grpc-stub-use.js';
import { isHealthService } from '../shared/grpc-health.js';
import { javaHttpCall, javaHttpContext } from './http.js';
import {
  argumentsOf,
  findField,
  type JavaVar,
  type JavaClass,
  javaAnnotation,
  type JavaFile,
  JavaResolver,
  type JavaScope,
  type JavaSite,
  plainType,
  receiverConfidence,
  varOf,
} from './model.js';
import {
  KAFKA_CONSUMERS,
  KAFKA_TEMPLATES,
  lastSegment,
  lineOf,
  NOT_RPC_METHODS,
  serviceOfGrpcClass,
  serviceOfStubType,
  STUB_CONFIG_METHODS,
  STUB_FACTORIES,
} from '../shared/jvm/common.js';
import { type AnnotationInfo, findAnnotation } from '../shared/jvm/annotations.js';
import { jvmClassContracts } from '../shared/jvm/class-contracts.js';
import { repositoryEntity } from '../shared/jvm/annotation-routes.js';
import { isForeignConstant, topicValuesIn, TopicValueResolver } from './cross-file-constants.js';
import { daprSubscriptions } from './dapr-subscribe.js';
import { servletContracts } from '../shared/jvm/servlets.js';

const LIST_FACTORIES: ReadonlySet<string> = new Set(['of', 'asList', 'singletonList', 'singleton', 'copyOf']);

export function javaContracts(file: JavaFile, builder: FactBuilder, path: string): void {
  const facts = new StubUseTracker(builder);
  const imports = builder.imports.map((fact) => fact.source);
  for (const cls of file.classes) {
    classContracts(file, cls, imports, facts);
    servletContracts(cls, new JavaResolver(file, cls), path, facts);
    daprSubscriptions(file, cls, facts);
  }
  // Assignments first: a stub or client assigned in the constructor is known to every method of the class.
  for (const site of file.sites) if (site.node.type === 'assignment_expression') recordAssignment(site);
  const http = javaHttpContext(file);
  for (const site of file.sites) {
    if (site.node.type === 'method_invocation') {
      if (!invocation(file, site, facts)) javaHttpCall(file, http, site, facts);
    } else if (site.node.type === 'object_creation_expression') {
      creation(file, site, facts);
      javaHttpCall(file, http, site, facts);
    }
  }
  facts.flush();
}

function classContracts(
  file: JavaFile,
  cls: JavaClass,
  imports: readonly string[],
  facts: ContractSink,
): void {
  jvmClassContracts(
    {
      cls,
      members: cls.methods,
      fields: cls.fields.values(),
      server: grpcServerOf(file, cls),
      isRpcHandler: isRpcHandler,
      resolver: new JavaResolver(file, cls),
      topicResolver: new TopicValueResolver(file, cls),
      nestedAnnotations,
      stubServiceOf: (type) => serviceOfStubType(type ?? '', file.imports.get(type ?? '')),
      inherited: file.classes
        .filter((other) => other !== cls && cls.interfaces.some((type) => lastSegment(type) === other.name))
        .flatMap((other) => other.methods),
      entity: repositoryEntity(cls.interfacesWritten),
      imports,
      clientApi: file.classes.some(
        (other) =>
          findAnnotation(other.annotations, 'FeignClient') !== undefined &&
          other.interfaces.some((type) => lastSegment(type) === cls.name),
      ),
    },
    facts,
  );
}

function nestedAnnotations(node: Node): readonly AnnotationInfo[] {
  if (node.type === 'annotation' || node.type === 'marker_annotation') return [javaAnnotation(node)];
  return node.namedChildren.flatMap((child) => (child === null ? [] : nestedAnnotations(child)));
}

/** `extends XGrpc.XImplBase` (also through an import of the nested class) or `implements XGrpc.AsyncService`. */
function grpcServerOf(file: JavaFile, cls: JavaClass): { service: string; via: string } | undefined {
  const candidates = [cls.superclass, ...cls.interfaces].filter((type): type is string => type !== undefined);
  for (const type of candidates) {
    const full = type.includes('.') ? type : (file.imports.get(type) ?? type);
    if (!full.includes('Grpc') || !/(?:ImplBase|AsyncService)$/.test(full)) continue;
    const outer = full.split('.').find((segment) => /Grpc(?:Kt)?$/.test(segment));
    const service = outer === undefined ? undefined : serviceOfGrpcClass(outer);
    if (service === undefined || isHealthService(service)) return undefined;
    const via =
      findAnnotation(cls.annotations, 'GrpcService') !== undefined
        ? '@GrpcService'
        : `extends ${lastSegment(type)}`;
    return { service, via: full.endsWith('AsyncService') ? 'implements AsyncService' : via };
  }
  return undefined;
}

function isRpcHandler(method: JavaClass['methods'][number]): boolean {
  if (method.isConstructor || method.keywords.has('static') || method.keywords.has('private')) return false;
  if (NOT_RPC_METHODS.has(method.name)) return false;
  return (
    findAnnotation(method.annotations, 'Override') !== undefined ||
    lastSegment(method.lastParamType ?? '') === 'StreamObserver'
  );
}

function recordAssignment(site: JavaSite): void {
  const left = site.node.childForFieldName('left');
  const right = site.node.childForFieldName('right');
  if (left === null || right === null) return;
  // `this.x = …` always names the field, even where a parameter of the same name shadows it.
  const target =
    left.type === 'field_access'
      ? varOf(left, site.scope)
      : left.type === 'identifier'
        ? (site.scope.vars.get(left.text) ?? findField(left.text, site.scope.cls))
        : undefined;
  target?.assigned.push({ node: right, scope: site.scope });
}

/** The service of the stub an expression evaluates to, when it provably is one. */
export function stubOf(file: JavaFile, expr: Node, scope: JavaScope, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  if (expr.type === 'parenthesized_expression') {
    const inner = expr.namedChildren[0];
    return inner ? stubOf(file, inner, scope, depth + 1) : undefined;
  }
  if (expr.type === 'method_invocation') {
    const name = expr.childForFieldName('name')?.text ?? '';
    const object = expr.childForFieldName('object');
    if (object === null) return undefined;
    if (STUB_FACTORIES.has(name)) {
      const service = serviceOfGrpcClass(object.text.replace(/\s+/g, ''));
      return service === undefined || !/Grpc$/.test(object.text) || isHealthService(service)
        ? undefined
        : service;
    }
    return /^with[A-Z]/.test(name) ? stubOf(file, object, scope, depth + 1) : undefined;
  }
  const variable = varOf(expr, scope);
  if (variable === undefined) return undefined;
  if (variable.stub === undefined) {
    variable.stub = null;
    variable.stub = stubOfVar(file, variable, scope, depth) ?? null;
  }
  return variable.stub ?? undefined;
}

function stubOfVar(file: JavaFile, variable: JavaVar, scope: JavaScope, depth: number): string | undefined {
  const type = variable.type;
  const fromType = type === undefined ? undefined : serviceOfStubType(type, file.imports.get(type));
  if (fromType !== undefined) return fromType;
  for (const value of [
    ...(variable.init === undefined ? [] : [{ node: variable.init, scope }]),
    ...variable.assigned,
  ]) {
    const service = stubOf(file, value.node, value.scope, depth + 1);
    if (service !== undefined) return service;
  }
  return undefined;
}

/** gRPC stubs and Kafka producers/consumers; true when the call was recognised (no HTTP check needed). */
function invocation(file: JavaFile, site: JavaSite, facts: ContractSink): boolean {
  const { node, scope, nameNode, name, object } = site;
  if (nameNode === null || object === null) return false;
  const line = lineOf(nameNode);
  if (STUB_FACTORIES.has(name)) {
    const service = stubOf(file, node, scope);
    if (service === undefined) return false;
    facts.addContract(
      { kind: 'grpc_client', service, symbol: scope.symbol, line, confidence: 'exact', via: name },
      { at: nameNode.startIndex },
    );
    return true;
  }
  if (!STUB_CONFIG_METHODS.has(name)) {
    const service = stubOf(file, object, scope);
    if (service !== undefined) {
      facts.addContract(
        {
          kind: 'grpc_client',
          service,
          method: name,
          symbol: scope.symbol,
          line,
          confidence: 'exact',
          via: 'stub call',
        },
        { at: nameNode.startIndex },
      );
      return true;
    }
  }
  const args = argumentsOf(node);
  const first = args[0];
  if (name === 'send' && first !== undefined && args.length >= 2) {
    const confidence = receiverConfidence(object, scope, KAFKA_TEMPLATES, /kafkatemplate$/i);
    if (confidence === undefined) return false;
    const topic = topicValuesIn(file, scope).string(first);
    if (topic !== undefined) {
      facts.addContract({
        kind: 'topic_producer',
        broker: 'kafka',
        topic,
        symbol: scope.symbol,
        line,
        confidence: isForeignConstant(topic) ? 'heuristic' : confidence,
        via: 'KafkaTemplate.send',
      });
    }
    return true;
  }
  if (name === 'subscribe' && first !== undefined) {
    const confidence = receiverConfidence(object, scope, KAFKA_CONSUMERS, /consumer$/i);
    if (confidence === undefined) return false;
    for (const topic of topicList(file, first, scope)) {
      facts.addContract({
        kind: 'topic_consumer',
        broker: 'kafka',
        topic,
        symbol: scope.symbol,
        line,
        confidence: isForeignConstant(topic) ? 'heuristic' : confidence,
        via: 'KafkaConsumer.subscribe',
      });
    }
    return true;
  }
  return false;
}

/** Topics of `subscribe(List.of("a"))`, `Arrays.asList(…)`, `Collections.singletonList(…)`, a constant or a local list. */
function topicList(file: JavaFile, arg: Node, scope: JavaScope, depth = 0): readonly string[] {
  const resolver = topicValuesIn(file, scope);
  if (arg.type === 'method_invocation') {
    if (!LIST_FACTORIES.has(arg.childForFieldName('name')?.text ?? '')) return [];
    const out: string[] = [];
    for (const item of argumentsOf(arg)) {
      const values = resolver.strings(item);
      if (values === undefined) return [];
      out.push(...values);
    }
    return out;
  }
  const variable = arg.type === 'identifier' ? scope.vars.get(arg.text) : undefined;
  if (variable !== undefined && !variable.isParam && variable.init !== undefined && depth < 3) {
    return topicList(file, variable.init, scope, depth + 1);
  }
  return resolver.strings(arg) ?? [];
}

function creation(file: JavaFile, site: JavaSite, facts: ContractSink): void {
  const { node, scope } = site;
  const type = plainType(node.childForFieldName('type'));
  if (type === undefined || lastSegment(type) !== 'ProducerRecord') return;
  const first = argumentsOf(node)[0];
  const topic = first === undefined ? undefined : topicValuesIn(file, scope).string(first);
  if (topic === undefined) return;
  facts.addContract({
    kind: 'topic_producer',
    broker: 'kafka',
    topic,
    symbol: scope.symbol,
    line: lineOf(node),
    confidence: isForeignConstant(topic) ? 'heuristic' : 'exact',
    via: 'new ProducerRecord',
  });
}
