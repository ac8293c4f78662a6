/**
 * Kotlin contracts from the declaration walk's model: Spring routes, Feign clients and Kafka listeners
 * (annotations), kafka-clients producers/consumers and KafkaTemplate sends, gRPC servers (grpc-java
 * `…ImplBase` and grpc-kotlin `…CoroutineImplBase` subclasses) and stubs, Ktor routes found by the walk,
 * and Spring HTTP client calls (`kotlin-http.ts`).
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { type ContractSink, StubUseTracker } from '../shared/jvm/grpc-stub-use.js';
import { isHealthService } from '../shared/grpc-health.js';
import {
  callOf,
  findField,
  type KtCall,
  type KtClass,
  type KtFile,
  type KtScope,
  type KtSite,
  type KtVar,
  ktAnnotation,
  namedChildren,
  varOf,
} from './model.js';
import { KtResolver } from './values.js';
import type { Confidence } from '../../facts.js';
import { isForeignConstant } from '../shared/jvm/foreign-constants.js';
import { annotationTopicValues, topicValues, variableIn } from './cross-file-constants.js';
import { type KtCallSite, kotlinHttpCall, kotlinHttpContext } from './http.js';
import type { KtRoute } from './ktor.js';
import { effectiveReceiver, receiverConfidence } from './receivers.js';
import {
  lastSegment,
  NOT_RPC_METHODS,
  serviceOfGrpcClass,
  serviceOfStubType,
  STUB_CONFIG_METHODS,
  STUB_FACTORIES,
  KAFKA_TEMPLATES,
  KAFKA_CONSUMERS,
} from '../shared/jvm/common.js';
import { type AnnotationInfo, findAnnotation } from '../shared/jvm/annotations.js';
import { jvmClassContracts } from '../shared/jvm/class-contracts.js';
import { repositoryEntity } from '../shared/jvm/annotation-routes.js';
import { servletContracts } from '../shared/jvm/servlets.js';

export function kotlinContracts(
  file: KtFile,
  routes: readonly KtRoute[],
  builder: FactBuilder,
  path: string,
): void {
  const facts = new StubUseTracker(builder);
  const imports = builder.imports.map((fact) => fact.source);
  for (const cls of file.classes) {
    classContracts(file, cls, imports, facts);
    servletContracts({ ...cls, methods: cls.functions }, new KtResolver(file, cls), path, facts);
  }
  for (const route of routes) {
    facts.addContract({
      kind: 'http_route',
      method: route.method,
      path: route.path,
      symbol: route.symbol,
      line: route.line,
      via: 'Ktor routing',
    });
  }
  for (const site of file.sites) if (site.node.type === 'assignment') recordAssignment(site);
  const calls: KtCallSite[] = [];
  for (const site of file.sites) {
    const call = site.node.type === 'call_expression' ? callOf(site.node) : undefined;
    if (call !== undefined) calls.push({ ...site, call });
  }
  const http = kotlinHttpContext(file, calls);
  for (const site of calls) {
    callSite(file, site.scope, site.call, facts);
    kotlinHttpCall(http, site, facts);
  }
  facts.flush();
}

function classContracts(file: KtFile, cls: KtClass, imports: readonly string[], facts: ContractSink): void {
  jvmClassContracts(
    {
      cls,
      members: cls.functions,
      fields: cls.fields.values(),
      server: grpcServerOf(file, cls),
      isRpcHandler: (fn) => fn.keywords.has('override') && !NOT_RPC_METHODS.has(fn.name),
      resolver: new KtResolver(file, cls),
      topicResolver: annotationTopicValues(file, cls),
      nestedAnnotations,
      stubServiceOf: (type) => stubOfType(file, type),
      inherited: file.classes
        .filter((other) => other !== cls && cls.supertypes.some((type) => lastSegment(type) === other.name))
        .flatMap((other) => other.functions),
      entity: repositoryEntity(cls.supertypesWritten),
      imports,
      clientApi: file.classes.some(
        (other) =>
          findAnnotation(other.annotations, 'FeignClient') !== undefined &&
          other.supertypes.some((type) => lastSegment(type) === cls.name),
      ),
    },
    facts,
  );
}

/** `@TopicPartition(…)` values, bare (`[TopicPartition(topic = "x")]`) or with `@`. */
function nestedAnnotations(node: Node): readonly AnnotationInfo[] {
  if (node.type === 'annotation') return [ktAnnotation(node)];
  if (node.type === 'call_expression') {
    const call = callOf(node);
    if (call !== undefined && call.receiver === undefined && /^[A-Z]/.test(call.name)) {
      return [{ name: call.name, text: node.text, args: call.args }];
    }
  }
  return namedChildren(node).flatMap(nestedAnnotations);
}

function grpcServerOf(file: KtFile, cls: KtClass): { service: string; via: string } | undefined {
  for (const type of cls.supertypes) {
    const full = type.includes('.') ? type : (file.imports.get(type) ?? type);
    if (!full.includes('Grpc') || !/(?:ImplBase|AsyncService)$/.test(full)) continue;
    const outer = full.split('.').find((segment) => /Grpc(?:Kt)?$/.test(segment));
    const service = outer === undefined ? undefined : serviceOfGrpcClass(outer);
    if (service === undefined || isHealthService(service)) return undefined;
    if (findAnnotation(cls.annotations, 'GrpcService') !== undefined) return { service, via: '@GrpcService' };
    return {
      service,
      via: full.endsWith('CoroutineImplBase') ? 'extends CoroutineImplBase' : 'extends ImplBase',
    };
  }
  return undefined;
}

/** grpc-java `…Grpc.…Stub` types and grpc-kotlin `…GrpcKt.…CoroutineStub` types. */
function stubOfType(file: KtFile, type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  return serviceOfStubType(type, file.imports.get(type));
}

function recordAssignment(site: KtSite): void {
  const left = site.node.childForFieldName('left');
  const right = site.node.childForFieldName('right');
  if (left === null || right === null) return;
  const target =
    left.type === 'identifier'
      ? (site.scope.vars.get(left.text) ?? findField(left.text, site.scope.cls))
      : varOf(left, site.scope);
  target?.assigned.push({ node: right, scope: site.scope });
}

/** The service of the stub an expression evaluates to, when it provably is one. */
function stubOf(file: KtFile, expr: Node, scope: KtScope, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  if (expr.type === 'call_expression') {
    const call = callOf(expr);
    return call === undefined ? undefined : stubOfCall(file, call, scope, depth);
  }
  const variable = varOf(expr, scope);
  return variable === undefined ? undefined : stubOfVar(file, variable, scope, depth);
}

function stubOfVar(file: KtFile, variable: KtVar, scope: KtScope, depth: number): string | undefined {
  const fromType = stubOfType(file, variable.type);
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

/** A stub construction (`XGrpc.newBlockingStub(ch)`, `XGrpcKt.XCoroutineStub(ch)`) or a `with…` copy of a stub. */
function stubOfCall(file: KtFile, call: KtCall, scope: KtScope, depth: number): string | undefined {
  const receiver = call.receiver?.text.replace(/\s+/g, '');
  if (STUB_FACTORIES.has(call.name) && receiver !== undefined && /Grpc$/.test(receiver)) {
    const service = serviceOfGrpcClass(receiver);
    return service === undefined || isHealthService(service) ? undefined : service;
  }
  if (/Stub$/.test(call.name)) {
    const type = receiver === undefined ? call.name : `${receiver}.${call.name}`;
    if (receiver === undefined || /GrpcKt$|Grpc$/.test(receiver)) return stubOfType(file, type);
  }
  if (/^with[A-Z]/.test(call.name) && call.receiver !== undefined)
    return stubOf(file, call.receiver, scope, depth + 1);
  return undefined;
}

function callSite(file: KtFile, scope: KtScope, call: KtCall, facts: ContractSink): void {
  if (!grpcCallSite(file, scope, call, facts)) kafkaCallSite(file, scope, call, facts);
}

/** A stub built (`newBlockingStub`, a coroutine stub) or an RPC called on one; true when it was either. */
function grpcCallSite(file: KtFile, scope: KtScope, call: KtCall, facts: ContractSink): boolean {
  const line = call.nameNode.startPosition.row + 1;
  const construction = stubOfCall(file, call, scope, 0);
  if (construction !== undefined && !/^with[A-Z]/.test(call.name)) {
    facts.addContract(
      {
        kind: 'grpc_client',
        service: construction,
        symbol: scope.symbol,
        line,
        confidence: 'exact',
        via: STUB_FACTORIES.has(call.name) ? call.name : 'CoroutineStub',
      },
      { at: call.nameNode.startIndex },
    );
    return true;
  }
  if (call.receiver !== undefined && !STUB_CONFIG_METHODS.has(call.name)) {
    const service = stubOf(file, call.receiver, scope);
    if (service !== undefined) {
      facts.addContract(
        {
          kind: 'grpc_client',
          service,
          method: call.name,
          symbol: scope.symbol,
          line,
          confidence: 'exact',
          via: 'stub call',
        },
        { at: call.nameNode.startIndex },
      );
      return true;
    }
  }
  return false;
}

/** `KafkaTemplate.send`, `KafkaConsumer.subscribe` and `ProducerRecord(topic, …)`. */
function kafkaCallSite(file: KtFile, scope: KtScope, call: KtCall, facts: ContractSink): void {
  const line = call.nameNode.startPosition.row + 1;
  const first = call.args[0]?.value;
  const own = new KtResolver(file, scope.cls);
  const resolver = topicValues(file, own, variableIn(scope));
  const confidenceOf = (topic: string, found: Confidence): Confidence =>
    own.inferred || isForeignConstant(topic) ? 'heuristic' : found;
  // `send`/`subscribe` written inside `consumer.apply { … }` or `with(consumer) { … }` have no receiver.
  const receiver = call.name === 'send' || call.name === 'subscribe' ? effectiveReceiver(call) : undefined;
  if (call.name === 'send' && receiver !== undefined && first !== undefined && call.args.length >= 2) {
    const confidence = receiverConfidence(receiver, scope, KAFKA_TEMPLATES, /kafkatemplate$/i);
    const topic = confidence === undefined ? undefined : resolver.string(first);
    if (confidence !== undefined && topic !== undefined) {
      facts.addContract({
        kind: 'topic_producer',
        broker: 'kafka',
        topic,
        symbol: scope.symbol,
        line,
        confidence: confidenceOf(topic, confidence),
        via: 'KafkaTemplate.send',
      });
    }
    return;
  }
  if (call.name === 'subscribe' && receiver !== undefined && first !== undefined) {
    const confidence = receiverConfidence(receiver, scope, KAFKA_CONSUMERS, /consumer$/i);
    if (confidence === undefined) return;
    const local = first.type === 'identifier' ? scope.vars.get(first.text) : undefined;
    const list = local !== undefined && !local.isParam && local.init !== undefined ? local.init : first;
    for (const topic of resolver.strings(list) ?? []) {
      facts.addContract({
        kind: 'topic_consumer',
        broker: 'kafka',
        topic,
        symbol: scope.symbol,
        line,
        confidence: confidenceOf(topic, confidence),
        via: 'KafkaConsumer.subscribe',
      });
    }
    return;
  }
  if (call.name === 'ProducerRecord' && call.receiver === undefined && first !== undefined) {
    const topic = resolver.string(first);
    if (topic !== undefined)
      facts.addContract({
        kind: 'topic_producer',
        broker: 'kafka',
        topic,
        symbol: scope.symbol,
        line,
        confidence: confidenceOf(topic, 'exact'),
        via: 'ProducerRecord',
      });
  }
}
