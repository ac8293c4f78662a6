/**
 * C# calls that carry contracts: gRPC client calls, Confluent.Kafka produce/subscribe, other messaging
 * calls (`messaging.ts`), minimal-API route mappings, `MapGrpcService`/`AddGrpcClient` registrations and HTTP client calls (`http-calls.ts`). HTTP
 * calls and `MapGrpcService` registrations are resolved when the walk ends: a `BaseAddress` or the
 * registered class may come later in the file.
 */
import type { PropertyFact } from '../../facts.js';
import type { Node } from 'web-tree-sitter';
import { bindingOfExpression, clientService, MAP_VERBS, type CsBinding } from './contracts.js';
import { listItems } from './decl.js';
import { CsHttpCalls } from './http-calls.js';
import { destinationOf } from './destination.js';
import { CsMessaging } from './messaging.js';
import type { TopicFact } from './messaging-types.js';
import type { CsFrame, CsScope } from './scope.js';
import { csArguments, csDotted, kids, resolveCs, type CsValueScope } from './values.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { joinHttpPath, literalOf, startLineOf, topicOf, type Parts } from '../shared/tree-utils.js';

/** Methods whose arguments can carry a contract whatever the receiver; others only matter on a client. */
const CONTRACT_METHODS: ReadonlySet<string> = new Set([
  'AddGrpcClient',
  'MapGrpcService',
  'ProduceAsync',
  'Produce',
  'Subscribe',
  ...MAP_VERBS.keys(),
]);

/** A call on a receiver, with what the Kafka readers need to know about it. */
interface ReceiverCall {
  readonly method: string;
  readonly binding: CsBinding | undefined;
  readonly receiverName: string;
  readonly args: ReturnType<typeof csArguments>;
  readonly values: CsValueScope;
  readonly line: number;
  readonly owner: number | undefined;
}

/** The receiver and method name of `x.M(…)` or `x?.M(…)`; a null name for any other callee. */
function calleeOf(node: Node): { receiver: Node | null; nameNode: Node | null } {
  const callee = node.childForFieldName('function');
  if (callee?.type === 'member_access_expression')
    return { receiver: callee.childForFieldName('expression'), nameNode: callee.childForFieldName('name') };
  if (callee?.type === 'conditional_access_expression') {
    const binding = kids(callee).find((child) => child.type === 'member_binding_expression');
    return {
      receiver: callee.childForFieldName('condition'),
      nameNode: binding?.childForFieldName('name') ?? null,
    };
  }
  return { receiver: null, nameNode: null };
}

/**
 * A Kafka topic: its literal (or an environment read's default), exact on a proven client. On a proven
 * client anything else is still a destination (a placeholder, or kept as written); on a guessed one it is
 * dropped.
 */
function kafkaTopic(
  node: Node,
  values: CsValueScope,
  proven: boolean,
): Pick<TopicFact, 'topic' | 'confidence' | 'unresolved'> | undefined {
  const topic = topicOf(resolveCs(node, values));
  if (topic !== undefined) return { topic, confidence: proven ? 'exact' : 'heuristic' };
  return proven ? destinationOf(node, values) : undefined;
}

function kafkaFact(
  kind: TopicFact['kind'],
  { topic, confidence, unresolved }: Pick<TopicFact, 'topic' | 'confidence' | 'unresolved'>,
  line: number,
  via: string,
): TopicFact {
  return {
    kind,
    topic,
    broker: 'kafka',
    ...(unresolved === undefined ? {} : { unresolved }),
    line,
    confidence,
    via,
  };
}

export class CsCalls {
  private readonly http: CsHttpCalls;
  private readonly grpcServices: {
    readonly className: string;
    readonly line: number;
    readonly owner: number | undefined;
  }[] = [];

  constructor(
    private readonly scope: CsScope,
    /** Where contract facts go, each owned by the symbol enclosing its site when there is one. */
    private readonly facts: FactBuilder,
    private readonly messaging: CsMessaging,
  ) {
    this.http = new CsHttpCalls(scope, facts, (node, frame) => this.receiverBinding(node, frame));
  }

  /** `x.BaseAddress = new Uri(…)` (the assignment): the base of the client `x` holds. */
  baseAddress(assignment: Node, receiver: Node | null, base: Parts, frame: CsFrame): void {
    this.http.baseAddress(assignment, this.receiverBinding(receiver, frame), base);
  }

  /** `[Get("/orders/{id}")]` on a method of a declarative client interface. */
  declarativeMethod(...args: Parameters<CsHttpCalls['declarativeMethod']>): void {
    this.http.declarativeMethod(...args);
  }

  /** A gRPC client: a method called on it, or (no method) its construction, injection or registration. */
  grpcClient(
    service: string,
    method: string | undefined,
    line: number,
    owner: number | undefined,
    via: string,
  ): void {
    this.facts.addContract(
      method === undefined
        ? { kind: 'grpc_client', service, line, confidence: 'exact', via }
        : { kind: 'grpc_client', service, method, line, confidence: 'exact', via },
      { owner },
    );
  }

  receiverBinding(node: Node | null, frame: CsFrame): CsBinding | undefined {
    if (node === null) return undefined;
    const path = csDotted(node);
    if (
      path !== undefined &&
      (path.startsWith('this.') ? !path.slice(5).includes('.') : !path.includes('.'))
    ) {
      return this.scope.lookup(frame, path);
    }
    return bindingOfExpression(node, {
      scope: this.scope.valueScope(frame),
      lookup: (key) => this.scope.lookup(frame, key),
    });
  }

  invocation(node: Node, frame: CsFrame, owner: number | undefined): void {
    const { receiver, nameNode } = calleeOf(node);
    if (nameNode === null) return;
    const method = csDotted(nameNode) ?? '';
    const line = startLineOf(node);
    if (!CONTRACT_METHODS.has(method) && !CsHttpCalls.handles(method) && !CsMessaging.handles(method)) {
      // Any other method matters only on a gRPC client held by a name (`_client.ProcessPaymentAsync`).
      const path = csDotted(receiver);
      const simple = path !== undefined && !path.replace(/^this\./, '').includes('.');
      const held = simple ? this.scope.lookup(frame, path) : undefined;
      if (held?.kind === 'client') this.grpcClient(held.service, method, line, owner, 'client call');
      return;
    }
    const args = csArguments(node.childForFieldName('arguments'));
    const values = this.scope.valueScope(frame);
    const typeArguments = kids(kids(nameNode).find((c) => c.type === 'type_argument_list'));
    const typeArgument = typeArguments[0];
    if (method === 'AddGrpcClient') {
      const service = clientService(typeArgument);
      if (service !== undefined) this.grpcClient(service, undefined, line, owner, 'AddGrpcClient');
      return;
    }
    if (method === 'MapGrpcService' && typeArgument !== undefined) {
      this.grpcServices.push({ className: csDotted(typeArgument)?.split('.').pop() ?? '', line, owner });
      return;
    }
    const binding = this.receiverBinding(receiver, frame);
    const receiverName = (csDotted(receiver) ?? '').split('.').pop() ?? '';
    const call: ReceiverCall = { method, binding, receiverName, args, values, line, owner };
    const verb = MAP_VERBS.get(method);
    const templateNode = args.positional[0] ?? args.named.get('pattern');
    const template =
      verb === undefined || templateNode === undefined
        ? undefined
        : literalOf(resolveCs(templateNode, values));
    if (verb !== undefined && template !== undefined) {
      const prefix = binding?.kind === 'group' ? binding.prefix : '';
      const path = joinHttpPath(prefix, template);
      this.facts.addContract(
        { kind: 'http_route', method: verb, path, line, via: `aspnet ${method}` },
        { owner },
      );
      this.messaging.route(verb, path, args.positional[1], values, owner);
    } else if (binding?.kind === 'client') {
      this.grpcClient(binding.service, method, line, owner, 'client call');
    } else if ((method === 'ProduceAsync' || method === 'Produce') && this.kafkaProduce(call)) {
      // Confluent.Kafka
    } else if (method === 'Subscribe' && this.kafkaSubscribe(call)) {
      // Confluent.Kafka
    } else if (
      CsMessaging.handles(method) &&
      this.messaging.invocation({ ...call, node, typeArguments, frame, receiverText: receiver?.text ?? '' })
    ) {
      // another broker
    } else {
      this.http.call({ node, method, binding, receiverName, typeArguments, frame, owner });
    }
  }

  /**
   * `producer.ProduceAsync(topic, …)`: proven on a bound producer, a guess on a receiver named like one.
   * False when the receiver is no Kafka producer.
   */
  private kafkaProduce({ method, binding, receiverName, args, values, line, owner }: ReceiverCall): boolean {
    const proven = binding?.kind === 'producer';
    if (!proven && (binding !== undefined || !/producer/i.test(receiverName))) return false;
    let topicNode = args.positional[0] ?? args.named.get('topic') ?? args.named.get('topicPartition');
    if (
      topicNode?.type === 'object_creation_expression' &&
      csDotted(topicNode.childForFieldName('type')) === 'TopicPartition'
    ) {
      topicNode = csArguments(topicNode.childForFieldName('arguments')).positional[0];
    }
    const topic = topicNode === undefined ? undefined : kafkaTopic(topicNode, values, proven);
    if (topic === undefined) return true;
    this.facts.addContract(kafkaFact('topic_producer', topic, line, `Confluent.Kafka ${method}`), { owner });
    return true;
  }

  /**
   * `consumer.Subscribe(topics)`: proven on a bound consumer, a guess on a receiver named like one. False
   * when the receiver is no Kafka consumer.
   */
  private kafkaSubscribe({ binding, receiverName, args, values, line, owner }: ReceiverCall): boolean {
    const proven = binding?.kind === 'consumer';
    if (!proven && (binding !== undefined || !/consumer/i.test(receiverName))) return false;
    for (const topicNode of listItems(
      args.positional[0] ?? args.named.get('topics') ?? args.named.get('topic'),
    )) {
      const topic = kafkaTopic(topicNode, values, proven);
      if (topic !== undefined)
        this.facts.addContract(kafkaFact('topic_consumer', topic, line, 'Confluent.Kafka Subscribe'), {
          owner,
        });
    }
    return true;
  }

  /** Emits the deferred facts; returns the properties other files of the service resolve. */
  finish(): PropertyFact[] {
    const properties = this.http.finish();
    for (const registration of this.grpcServices) {
      const service = this.scope.classes.get(registration.className)?.service;
      if (service !== undefined) {
        this.facts.addContract(
          {
            kind: 'grpc_server',
            service,
            line: registration.line,
            confidence: 'exact',
            via: 'MapGrpcService',
          },
          { owner: registration.owner },
        );
      }
    }
    return properties;
  }
}
