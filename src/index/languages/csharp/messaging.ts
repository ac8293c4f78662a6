/**
 * C# messaging: which library a call belongs to (by the namespaces the file imports, then by the call) and
 * the topic facts it gives. String-destination libraries are read here from the table in `brokers.ts`;
 * RabbitMQ is read by `amqp.ts`, type-keyed buses by `typed-bus.ts`, and Dapr subscriptions (`[Topic]`,
 * `.WithTopic(…)`) here.
 */
import type { Node } from 'web-tree-sitter';
import { CsAmqp } from './amqp.js';
import {
  DESTINATION_LIBRARIES,
  MASSTRANSIT_TRANSPORTS,
  RABBITMQ_AMQP10,
  RABBITMQ_CLIENT,
  TYPED_BUS_LIBRARIES,
  type DestinationLibrary,
} from './brokers.js';
import type { CsBinding } from './contracts.js';
import { argumentAt, destinationOf, unwrap, type Arguments } from './destination.js';
import type { TopicFact } from './messaging-types.js';
import type { CsFrame } from './scope.js';
import { CsTypedBus } from './typed-bus.js';
import { csArguments, csDotted, kids, type CsValueScope } from './values.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { startLineOf } from '../shared/tree-utils.js';

/** A call on a receiver, as the messaging readers need it. */
export interface MessagingSite {
  readonly node: Node;
  readonly method: string;
  readonly typeArguments: readonly Node[];
  readonly receiverName: string;
  /** The receiver as written (`redis.GetSubscriber()`). */
  readonly receiverText: string;
  readonly binding: CsBinding | undefined;
  readonly args: Arguments;
  readonly values: CsValueScope;
  readonly frame: CsFrame;
  readonly line: number;
  readonly owner: number | undefined;
}

/** Dapr's minimal-API subscription: `app.MapPost("/orders", …).WithTopic("pubsub", "orders")`. */
const DAPR_WITH_TOPIC = 'WithTopic';

/** The route the Dapr sidecar reads an app's programmatic subscriptions from. */
const DAPR_SUBSCRIBE = '/dapr/subscribe';

/** The `topic` member of `new { topic = "x", … }`, `new Sub(Topic: "x")` or `new Sub { Topic = "x" }`. */
function topicMember(object: Node): Node | undefined {
  const isTopic = (name: string | undefined): boolean => name?.toLowerCase() === 'topic';
  if (object.type === 'anonymous_object_creation_expression') {
    const children = object.children.filter((child): child is Node => child !== null);
    const index = children.findIndex(
      (child, at) => child.type === 'identifier' && isTopic(child.text) && children[at + 1]?.type === '=',
    );
    return index < 0 ? undefined : children[index + 2];
  }
  const named = [...csArguments(object.childForFieldName('arguments')).named].find(([name]) => isTopic(name));
  if (named !== undefined) return named[1];
  const assignment = kids(object.childForFieldName('initializer')).find(
    (child) => child.type === 'assignment_expression' && isTopic(child.childForFieldName('left')?.text),
  );
  return assignment?.childForFieldName('right') ?? undefined;
}

const METHODS: ReadonlySet<string> = new Set([
  ...DESTINATION_LIBRARIES.flatMap((library) => library.calls.flatMap((call) => call.methods)),
  ...RABBITMQ_CLIENT.publish.methods,
  ...RABBITMQ_CLIENT.consume.methods,
  ...RABBITMQ_CLIENT.bind.methods,
  ...RABBITMQ_CLIENT.declareQueue.methods,
  ...RABBITMQ_AMQP10.producers,
  ...RABBITMQ_AMQP10.consumers,
  RABBITMQ_AMQP10.binding,
  ...TYPED_BUS_LIBRARIES.flatMap((library) => [
    ...library.publish,
    ...library.subscribe,
    ...(library.endpoints ?? []),
  ]),
  'GetSendEndpoint',
  DAPR_WITH_TOPIC,
  ...MASSTRANSIT_TRANSPORTS.keys(),
]);

export class CsMessaging {
  private readonly amqp: CsAmqp;
  private readonly bus: CsTypedBus;

  constructor(private readonly facts: FactBuilder) {
    const emit = (fact: TopicFact, owner: number | undefined): void => this.emit(fact, owner);
    this.amqp = new CsAmqp(emit);
    this.bus = new CsTypedBus(emit);
  }

  /** Adds a topic fact with its fields in the order every reader writes them. */
  private emit(fact: TopicFact, owner: number | undefined): void {
    const { kind, topic, broker, routingKey, queue, unresolved, line, confidence, via } = fact;
    this.facts.addContract(
      { kind, topic, broker, routingKey, queue, unresolved, line, confidence, via },
      { owner },
    );
  }

  /** True when `method` may be a messaging call (the site is then worth building). */
  static handles(method: string): boolean {
    return METHODS.has(method);
  }

  /** Whether the file imports one of `namespaces` (or a namespace under one; `segment`: containing it). */
  private imports(namespaces: readonly string[], match: 'prefix' | 'segment' = 'prefix'): boolean {
    return this.facts.imports.some(({ source }) =>
      namespaces.some((namespace) =>
        match === 'segment'
          ? source.split('.').includes(namespace)
          : source === namespace || source.startsWith(`${namespace}.`),
      ),
    );
  }

  /** A local, field or parameter: what it holds may name a queue or a message type. */
  declared(frame: CsFrame, name: string, type: Node | null | undefined, value: Node | undefined): void {
    this.bus.declared(frame, name, type, value);
    if (value !== undefined && this.imports([...RABBITMQ_CLIENT.namespaces, ...RABBITMQ_AMQP10.namespaces]))
      this.amqp.declared(name, value);
  }

  /** A messaging call; false when no library claims it. */
  invocation(site: MessagingSite): boolean {
    const { method } = site;
    const transport = MASSTRANSIT_TRANSPORTS.get(method);
    if (transport !== undefined) {
      this.bus.transport(transport);
      return false;
    }
    if (method === DAPR_WITH_TOPIC) return this.withTopic(site);
    if (this.imports(RABBITMQ_CLIENT.namespaces) && this.amqp.clientCall(site)) return true;
    if (this.imports(RABBITMQ_AMQP10.namespaces) && this.amqp.builderCall(site)) return true;
    for (const library of DESTINATION_LIBRARIES) if (this.destinationCall(site, library)) return true;
    for (const library of TYPED_BUS_LIBRARIES) {
      const imported = this.imports(library.namespaces, library.namespaceMatch);
      if ((imported || library.unimported !== undefined) && this.bus.call(site, library, imported))
        return true;
    }
    return false;
  }

  private destinationCall(site: MessagingSite, library: DestinationLibrary): boolean {
    const call = library.calls.find((candidate) => candidate.methods.includes(site.method));
    if (call === undefined) return false;
    // A Dapr client held by a name needs no import to be known.
    const known = library.broker === 'dapr' && site.binding?.kind === 'dapr';
    if (!known && !this.imports(library.namespaces)) return false;
    if (library.receiver !== undefined && !library.receiver.test(site.receiverText)) return false;
    // A known client of another kind (`httpClient.SendAsync(request)`) is no broker's.
    if (site.binding !== undefined && !known) return false;
    const destination = call.destination
      .map((slot) => argumentAt(site.args, slot))
      .find((argument) => argument !== undefined);
    if (destination === undefined) return false;
    // An object passed where the destination goes is a message for another library's call of that name.
    const inner = unwrap(destination);
    const constructed =
      inner.type === 'object_creation_expression' ? csDotted(inner.childForFieldName('type')) : undefined;
    if (constructed !== undefined && !(library.wrappers ?? []).includes(constructed)) return false;
    this.emit(
      {
        kind: call.role === 'producer' ? 'topic_producer' : 'topic_consumer',
        ...destinationOf(destination, site.values, library.wrappers),
        broker: library.broker,
        line: site.line,
        via: `${library.library} ${site.method}`,
      },
      site.owner,
    );
    return true;
  }

  /** `.WithTopic("pubsub", "orders")` on a mapped endpoint: a Dapr subscription. */
  private withTopic(site: MessagingSite): boolean {
    const topic = argumentAt(site.args, { position: 1, name: 'topicName' });
    if (topic === undefined || argumentAt(site.args, { position: 0, name: 'pubsubName' }) === undefined)
      return false;
    this.daprSubscription(topic, site.values, site.line, site.owner, `Dapr ${DAPR_WITH_TOPIC}`);
    return true;
  }

  /** `[Topic("pubsub", "orders")]` on a controller action or a minimal-API handler. */
  attributes(node: Node, values: CsValueScope, owner: number | undefined): void {
    if (!this.imports(['Dapr'])) return;
    for (const list of kids(node).filter((child) => child.type === 'attribute_list')) {
      for (const attribute of kids(list).filter((child) => child.type === 'attribute')) {
        const name = csDotted(attribute.childForFieldName('name'))?.split('.').pop();
        if (name !== 'Topic' && name !== 'TopicAttribute') continue;
        const args = kids(kids(attribute).find((child) => child.type === 'attribute_argument_list'))
          // Named arguments (`DeadLetterTopic = …`) come after the two positional ones.
          .filter((argument) => argument.type === 'attribute_argument' && kids(argument).length === 1)
          .map((argument) => kids(argument).at(-1))
          .filter((argument): argument is Node => argument !== undefined);
        const topic = args[1];
        if (topic !== undefined)
          this.daprSubscription(topic, values, startLineOf(attribute), owner, 'Dapr [Topic]');
      }
    }
  }

  private daprSubscription(
    topic: Node,
    values: CsValueScope,
    line: number,
    owner: number | undefined,
    via: string,
  ): void {
    this.emit({ kind: 'topic_consumer', ...destinationOf(topic, values), broker: 'dapr', line, via }, owner);
  }

  /**
   * A route: the handler of Dapr's programmatic subscription endpoint (`GET /dapr/subscribe`) lists the
   * topics the app subscribes to, as objects with a `topic` member (anonymous or of the app's own type).
   */
  route(
    verb: string,
    path: string,
    handler: Node | undefined,
    values: CsValueScope,
    owner: number | undefined,
  ): void {
    if (verb !== 'GET' || path !== DAPR_SUBSCRIBE || handler === undefined) return;
    const objects = handler.descendantsOfType([
      'anonymous_object_creation_expression',
      'object_creation_expression',
    ]);
    for (const object of objects) {
      const topic = object === null ? undefined : topicMember(object);
      if (topic !== undefined)
        this.daprSubscription(topic, values, startLineOf(topic), owner, `Dapr ${DAPR_SUBSCRIBE}`);
    }
  }

  /** The bases of a class: a message handler interface makes it a consumer of its message type. */
  classBases(node: Node, owner: number, line: number): void {
    const libraries = TYPED_BUS_LIBRARIES.map((library) => ({
      library,
      imported: this.imports(library.namespaces, library.namespaceMatch),
    })).filter(({ library, imported }) => imported || library.unimported !== undefined);
    for (const base of kids(kids(node).find((child) => child.type === 'base_list')))
      for (const { library, imported } of libraries)
        this.bus.handlerBase(base, library, imported, owner, line);
  }

  finish(): void {
    this.amqp.finish();
    this.bus.finish();
  }
}
