/**
 * The C# messaging libraries as data: for each, the namespace a file must import (no import, no fact), the
 * broker it talks to, and per call whether it produces or consumes and which argument names the
 * destination. `messaging.ts` reads this table; adding a library is an entry here and a golden case.
 * Confluent.Kafka keeps its binding-driven reader in `calls.ts` (its producers and consumers are typed).
 */

/** Where an argument is: its position when passed positionally and/or its parameter name. */
export interface ArgSlot {
  readonly position?: number;
  readonly name?: string;
}

/** A call whose argument is the destination, as a string. */
export interface DestinationCall {
  readonly methods: readonly string[];
  readonly role: 'producer' | 'consumer';
  readonly destination: readonly ArgSlot[];
}

/** A library whose calls name their destination by a string argument. */
export interface DestinationLibrary {
  /** Written into `via` (`StackExchange.Redis Publish`). */
  readonly library: string;
  /** Namespaces (or their sub-namespaces) of which one must be imported. */
  readonly namespaces: readonly string[];
  readonly broker: string;
  readonly calls: readonly DestinationCall[];
  /**
   * Wrappers around the destination string the library defines (`RedisChannel.Literal("x")`,
   * `new RedisChannel("x", …)`): the destination is their first argument.
   */
  readonly wrappers?: readonly string[];
  /** When set, the receiver as written must match: the library's method names are common ones. */
  readonly receiver?: RegExp;
}

export const DESTINATION_LIBRARIES: readonly DestinationLibrary[] = [
  {
    library: 'Dapr',
    namespaces: ['Dapr.Client'],
    broker: 'dapr',
    calls: [
      {
        methods: ['PublishEventAsync', 'PublishByteEventAsync', 'BulkPublishEventAsync'],
        role: 'producer',
        destination: [{ position: 1, name: 'topicName' }],
      },
    ],
  },
  {
    library: 'Azure.Messaging.ServiceBus',
    namespaces: ['Azure.Messaging.ServiceBus'],
    broker: 'azure-servicebus',
    calls: [
      {
        methods: ['CreateSender'],
        role: 'producer',
        destination: [{ position: 0, name: 'queueOrTopicName' }],
      },
      {
        // `CreateProcessor("queue")` or `CreateProcessor("topic", "subscription")`: the topic is the key.
        methods: ['CreateProcessor', 'CreateReceiver', 'CreateSessionProcessor', 'AcceptNextSessionAsync'],
        role: 'consumer',
        destination: [{ position: 0, name: 'queueName' }, { name: 'topicName' }],
      },
      {
        methods: ['AcceptSessionAsync'],
        role: 'consumer',
        destination: [{ position: 0, name: 'queueName' }],
      },
    ],
  },
  {
    // NATS.Client (v1) and NATS.Net / NATS.Client.Core (v2) share the subject-first signatures.
    library: 'NATS',
    namespaces: ['NATS.Client', 'NATS.Net'],
    broker: 'nats',
    calls: [
      {
        methods: ['Publish', 'PublishAsync', 'Request', 'RequestAsync'],
        role: 'producer',
        destination: [{ position: 0, name: 'subject' }],
      },
      {
        methods: ['SubscribeAsync', 'SubscribeSync', 'Subscribe', 'SubscribeCoreAsync'],
        role: 'consumer',
        destination: [{ position: 0, name: 'subject' }],
      },
    ],
  },
  {
    library: 'StackExchange.Redis',
    namespaces: ['StackExchange.Redis'],
    broker: 'redis',
    calls: [
      {
        methods: ['Publish', 'PublishAsync'],
        role: 'producer',
        destination: [{ position: 0, name: 'channel' }],
      },
      {
        methods: ['Subscribe', 'SubscribeAsync'],
        role: 'consumer',
        destination: [{ position: 0, name: 'channel' }],
      },
    ],
    wrappers: ['RedisChannel', 'RedisChannel.Literal', 'RedisChannel.Pattern'],
    // Pub/sub is on `ISubscriber` (`redis.GetSubscriber()`), also reachable from `IDatabase`.
    receiver: /subscriber|redis|pubsub|database|^_?(?:sub|db)$/i,
  },
  {
    // EasyNetQ's send/receive pattern names the queue.
    library: 'EasyNetQ',
    namespaces: ['EasyNetQ'],
    broker: 'amqp',
    calls: [
      { methods: ['Send', 'SendAsync'], role: 'producer', destination: [{ position: 0, name: 'queue' }] },
      {
        methods: ['Receive', 'ReceiveAsync'],
        role: 'consumer',
        destination: [{ position: 0, name: 'queue' }],
      },
    ],
  },
  {
    // MassTransit's Kafka rider: `rider.AddProducer<T>("topic")`, `k.TopicEndpoint<T>("topic", "group", …)`.
    library: 'MassTransit.Kafka',
    namespaces: ['MassTransit'],
    broker: 'kafka',
    calls: [
      { methods: ['AddProducer'], role: 'producer', destination: [{ position: 0, name: 'topicName' }] },
      { methods: ['TopicEndpoint'], role: 'consumer', destination: [{ position: 0, name: 'topicName' }] },
    ],
  },
];

/** MassTransit's transport configurations, and the broker its messages then travel on. */
export const MASSTRANSIT_TRANSPORTS: ReadonlyMap<string, string> = new Map([
  ['UsingRabbitMq', 'amqp'],
  ['UsingAzureServiceBus', 'azure-servicebus'],
  ['UsingAmazonSqs', 'sqs'],
]);

/** RabbitMQ.Client (v6 `IModel`, v7 `IChannel` with `…Async`): AMQP 0-9-1 calls and their arguments. */
export const RABBITMQ_CLIENT = {
  library: 'RabbitMQ.Client',
  namespaces: ['RabbitMQ.Client'],
  publish: {
    methods: ['BasicPublish', 'BasicPublishAsync'],
    exchange: { position: 0, name: 'exchange' },
    routingKey: { position: 1, name: 'routingKey' },
  },
  consume: { methods: ['BasicConsume', 'BasicConsumeAsync'], queue: { position: 0, name: 'queue' } },
  declareQueue: { methods: ['QueueDeclare', 'QueueDeclareAsync'], queue: { position: 0, name: 'queue' } },
  bind: {
    methods: ['QueueBind', 'QueueBindAsync'],
    queue: { position: 0, name: 'queue' },
    exchange: { position: 1, name: 'exchange' },
    routingKey: { position: 2, name: 'routingKey' },
  },
} as const;

/**
 * RabbitMQ.AMQP.Client (AMQP 1.0): fluent builders. A builder's chain names the address:
 * `PublisherBuilder().Queue(q)` / `.Exchange(e).Key(k)`, `ConsumerBuilder().Queue(q)`,
 * `RequesterBuilder().RequestAddress().Queue(q)`, `ResponderBuilder().RequestQueue(q)`, and bindings
 * `management.Binding().SourceExchange(e).DestinationQueue(q).Key(k)`.
 */
export const RABBITMQ_AMQP10 = {
  library: 'RabbitMQ.AMQP.Client',
  namespaces: ['RabbitMQ.AMQP.Client'],
  producers: ['PublisherBuilder', 'RequesterBuilder'],
  consumers: ['ConsumerBuilder', 'ResponderBuilder'],
  binding: 'Binding',
  queue: ['Queue', 'RequestQueue', 'DestinationQueue'],
  exchange: ['Exchange', 'SourceExchange'],
  key: 'Key',
} as const;

/** A bus keyed by message type: the event's type name is the topic. */
export interface TypedBusLibrary {
  readonly library: string;
  /** A namespace to import; `contains` matches any namespace with that segment (`…EventBus.Abstractions`). */
  readonly namespaces: readonly string[];
  readonly namespaceMatch: 'prefix' | 'segment';
  /** The broker its messages travel on; absent: `eventbus` (or, for MassTransit, its configured transport). */
  readonly broker?: string;
  /** Calls that send a message: its type from the generic argument, a `new T(…)` or a typed variable. */
  readonly publish: readonly string[];
  /** When set, the receiver's name must match (a generic `Publish` could be anything's). */
  readonly receiver?: RegExp;
  /** Generic calls whose first type argument is a message type the service consumes. */
  readonly subscribe: readonly string[];
  /** Interfaces whose implementation handles its type argument. */
  readonly handlers: readonly string[];
  /** `ReceiveEndpoint("queue", …)`: a queue the service reads. */
  readonly endpoints?: readonly string[];
  /**
   * Without the import (projects often import it once, with a `global using` in another file): a publish
   * counts on a receiver matching this, a subscription with both the event and handler type arguments, and
   * the handler interfaces, which are distinctive by themselves. Such facts are heuristic.
   */
  readonly unimported?: RegExp;
}

export const TYPED_BUS_LIBRARIES: readonly TypedBusLibrary[] = [
  {
    library: 'MassTransit',
    namespaces: ['MassTransit'],
    namespaceMatch: 'prefix',
    // `Send` goes to the queue of its endpoint (`GetSendEndpoint(new Uri("queue:x"))`), not by type.
    publish: ['Publish'],
    subscribe: [],
    handlers: ['IConsumer', 'IJobConsumer'],
    endpoints: ['ReceiveEndpoint'],
  },
  {
    library: 'NServiceBus',
    namespaces: ['NServiceBus'],
    namespaceMatch: 'prefix',
    publish: ['Publish', 'Send', 'SendLocal'],
    subscribe: [],
    handlers: ['IHandleMessages'],
  },
  {
    // EasyNetQ over RabbitMQ: `bus.PubSub.PublishAsync(message)`, `SubscribeAsync<T>("id", …)`, `IConsume<T>`.
    library: 'EasyNetQ',
    namespaces: ['EasyNetQ'],
    namespaceMatch: 'prefix',
    broker: 'amqp',
    publish: ['Publish', 'PublishAsync'],
    subscribe: ['Subscribe', 'SubscribeAsync'],
    handlers: ['IConsume', 'IConsumeAsync'],
  },
  {
    library: 'Rebus',
    namespaces: ['Rebus'],
    namespaceMatch: 'prefix',
    publish: ['Publish', 'Send', 'SendLocal'],
    subscribe: ['Subscribe'],
    handlers: ['IHandleMessages'],
  },
  {
    // eShopOnContainers-style integration events, whatever the solution calls its EventBus project.
    library: 'EventBus',
    namespaces: ['EventBus'],
    namespaceMatch: 'segment',
    publish: ['Publish', 'PublishAsync'],
    receiver: /bus$/i,
    subscribe: ['Subscribe', 'AddSubscription', 'SubscribeDynamic'],
    handlers: ['IIntegrationEventHandler'],
    unimported: /eventbus$/i,
  },
];

/** Type names that say nothing about which message: a base type, `object`, a type parameter. */
export const ABSTRACT_MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'object',
  'dynamic',
  'var',
  'IntegrationEvent',
  'IIntegrationEvent',
  'IEvent',
  'Event',
  'IMessage',
  'Message',
  'ICommand',
  'Command',
]);
