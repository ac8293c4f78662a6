/**
 * Message brokers and their JavaScript clients as data: per library, the modules whose import makes a call
 * count (no import, no fact), and per method or constructor what the call does and which argument names the
 * destination. The recogniser (events.ts) reads this table; a new library is an entry here plus fixtures.
 */

/**
 * What a call does. `publish`/`sendToQueue`/`consume`/`bind`/`declare` are AMQP's: the exchange, routing key
 * and queue bindings of one file are put together before a fact is written (see amqp.ts). `rascal*` name a
 * publication or subscription of a rascal configuration.
 */
export type Role =
  | 'produce'
  | 'consume'
  | 'amqpPublish'
  | 'amqpSend'
  | 'amqpConsume'
  | 'amqpBind'
  | 'amqpDeclare'
  | 'rascalPublish'
  | 'rascalSubscribe';

/**
 * How the destination is read from the arguments:
 * - `arg` (default): argument `pos`, or its property `prop` when the argument is an options object; an array
 *   (or the keys of an object, MQTT's `{ topic: { qos } }`) is one destination per item.
 * - `rest`: every argument from `pos` until a callback (ioredis `subscribe('a', 'b', cb)`).
 * - `streams`: the keys after the `STREAMS` token (`xreadgroup('GROUP', g, c, 'STREAMS', key, '>')`).
 * - `streamKeys`: the `key` of the object, or of each object in the array, at `pos` (node-redis `xRead`).
 * - `receiver`: argument `pos` of the call the receiver was made by, which must be method `via`
 *   (`pubsub.topic('orders').publishMessage(…)`).
 */
export interface Destination {
  readonly read?: 'arg' | 'rest' | 'streams' | 'streamKeys' | 'receiver';
  readonly pos: number;
  readonly prop?: string;
  /** For `receiver`: the method that made the receiver (`topic`, `subscription`). */
  readonly made?: string;
  /** A URL or ARN: the name is its last segment. */
  readonly url?: boolean;
  /** The argument naming the subscription a consumer reads (Service Bus `createReceiver(topic, sub)`). */
  readonly sub?: number;
  /** An object argument names one destination per key (MQTT `subscribe({ 'a/b': { qos: 1 } })`). */
  readonly keys?: boolean;
}

export interface CallRule {
  readonly role: Role;
  readonly dest: Destination;
  /** AMQP: the routing key (publish) or binding key (bindQueue); the exchange of a binding. */
  readonly key?: number;
  readonly exchange?: number;
  /** The receiver must be reached through this member: Dapr's `client.pubsub.publish(…)`. */
  readonly on?: string;
  /** Argument 0 must be this literal: Pub/Sub's `subscription.on('message', …)`. */
  readonly event?: string;
}

export interface BrokerLibrary {
  /** The library as named in `via` (`amqplib publish`). */
  readonly name: string;
  readonly broker: string;
  /** Import sources; one ending in `/` is a scope (`@nats-io/`). */
  readonly modules: readonly string[];
  readonly calls?: Readonly<Record<string, CallRule>>;
  /** `new X(…)`: AWS SDK v3 commands. */
  readonly ctors?: Readonly<Record<string, CallRule>>;
}

const first: Destination = { pos: 0 };

const AMQP_CALLS: Record<string, CallRule> = {
  publish: { role: 'amqpPublish', dest: first, key: 1 },
  sendToQueue: { role: 'amqpSend', dest: first },
  consume: { role: 'amqpConsume', dest: first },
  bindQueue: { role: 'amqpBind', dest: first, exchange: 1, key: 2 },
  assertQueue: { role: 'amqpDeclare', dest: first },
};

const REDIS_CALLS: Record<string, CallRule> = {
  publish: { role: 'produce', dest: first },
  spublish: { role: 'produce', dest: first },
  sPublish: { role: 'produce', dest: first },
  subscribe: { role: 'consume', dest: { read: 'rest', pos: 0 } },
  psubscribe: { role: 'consume', dest: { read: 'rest', pos: 0 } },
  ssubscribe: { role: 'consume', dest: { read: 'rest', pos: 0 } },
  pSubscribe: { role: 'consume', dest: { read: 'rest', pos: 0 } },
  sSubscribe: { role: 'consume', dest: { read: 'rest', pos: 0 } },
  xadd: { role: 'produce', dest: first },
  xAdd: { role: 'produce', dest: first },
  xread: { role: 'consume', dest: { read: 'streams', pos: 0 } },
  xreadgroup: { role: 'consume', dest: { read: 'streams', pos: 0 } },
  xreadBuffer: { role: 'consume', dest: { read: 'streams', pos: 0 } },
  xreadgroupBuffer: { role: 'consume', dest: { read: 'streams', pos: 0 } },
  xRead: { role: 'consume', dest: { read: 'streamKeys', pos: 0 } },
  xReadGroup: { role: 'consume', dest: { read: 'streamKeys', pos: 2 } },
};

const SQS_CALLS: Record<string, CallRule> = {
  sendMessage: { role: 'produce', dest: { pos: 0, prop: 'QueueUrl', url: true } },
  sendMessageBatch: { role: 'produce', dest: { pos: 0, prop: 'QueueUrl', url: true } },
  receiveMessage: { role: 'consume', dest: { pos: 0, prop: 'QueueUrl', url: true } },
};

const SNS_CALLS: Record<string, CallRule> = {
  publish: { role: 'produce', dest: { pos: 0, prop: 'TopicArn', url: true } },
  publishBatch: { role: 'produce', dest: { pos: 0, prop: 'TopicArn', url: true } },
};

export const BROKER_LIBRARIES: readonly BrokerLibrary[] = [
  { name: 'amqplib', broker: 'amqp', modules: ['amqplib', 'amqplib/callback_api'], calls: AMQP_CALLS },
  {
    name: 'amqp-connection-manager',
    broker: 'amqp',
    modules: ['amqp-connection-manager'],
    calls: AMQP_CALLS,
  },
  {
    name: '@golevelup/nestjs-rabbitmq',
    broker: 'amqp',
    modules: ['@golevelup/nestjs-rabbitmq'],
    calls: { publish: { role: 'amqpPublish', dest: first, key: 1 } },
  },
  {
    name: 'rascal',
    broker: 'amqp',
    modules: ['rascal'],
    calls: {
      publish: { role: 'rascalPublish', dest: first },
      forward: { role: 'rascalPublish', dest: first },
      subscribe: { role: 'rascalSubscribe', dest: first },
    },
  },
  {
    name: 'nats',
    broker: 'nats',
    modules: ['nats', 'nats.ws', 'nats.deno', '@nats-io/'],
    calls: {
      publish: { role: 'produce', dest: first },
      request: { role: 'produce', dest: first },
      requestMany: { role: 'produce', dest: first },
      subscribe: { role: 'consume', dest: first },
      pullSubscribe: { role: 'consume', dest: first },
    },
  },
  {
    name: 'node-rdkafka',
    broker: 'kafka',
    modules: ['node-rdkafka', '@confluentinc/kafka-javascript'],
    calls: {
      produce: { role: 'produce', dest: first },
      subscribe: { role: 'consume', dest: first },
    },
  },
  { name: 'ioredis', broker: 'redis', modules: ['ioredis'], calls: REDIS_CALLS },
  { name: 'redis', broker: 'redis', modules: ['redis', '@redis/client'], calls: REDIS_CALLS },
  {
    name: 'mqtt',
    broker: 'mqtt',
    modules: ['mqtt', 'async-mqtt'],
    calls: {
      publish: { role: 'produce', dest: first },
      publishAsync: { role: 'produce', dest: first },
      subscribe: { role: 'consume', dest: { pos: 0, keys: true } },
      subscribeAsync: { role: 'consume', dest: { pos: 0, keys: true } },
    },
  },
  {
    name: 'aws-sdk sqs',
    broker: 'sqs',
    modules: ['@aws-sdk/client-sqs'],
    calls: SQS_CALLS,
    ctors: {
      SendMessageCommand: { role: 'produce', dest: { pos: 0, prop: 'QueueUrl', url: true } },
      SendMessageBatchCommand: { role: 'produce', dest: { pos: 0, prop: 'QueueUrl', url: true } },
      ReceiveMessageCommand: { role: 'consume', dest: { pos: 0, prop: 'QueueUrl', url: true } },
    },
  },
  {
    name: 'aws-sdk sns',
    broker: 'sns',
    modules: ['@aws-sdk/client-sns'],
    calls: SNS_CALLS,
    ctors: {
      PublishCommand: { role: 'produce', dest: { pos: 0, prop: 'TopicArn', url: true } },
      PublishBatchCommand: { role: 'produce', dest: { pos: 0, prop: 'TopicArn', url: true } },
    },
  },
  // The v2 SDK has one module for every service: the options object tells SQS from SNS.
  { name: 'aws-sdk sqs', broker: 'sqs', modules: ['aws-sdk', 'aws-sdk/clients/sqs'], calls: SQS_CALLS },
  { name: 'aws-sdk sns', broker: 'sns', modules: ['aws-sdk', 'aws-sdk/clients/sns'], calls: SNS_CALLS },
  {
    name: 'sqs-consumer',
    broker: 'sqs',
    modules: ['sqs-consumer'],
    calls: { create: { role: 'consume', dest: { pos: 0, prop: 'queueUrl', url: true } } },
  },
  {
    name: 'sqs-producer',
    broker: 'sqs',
    modules: ['sqs-producer'],
    calls: { create: { role: 'produce', dest: { pos: 0, prop: 'queueUrl', url: true } } },
  },
  {
    name: '@google-cloud/pubsub',
    broker: 'gcp-pubsub',
    modules: ['@google-cloud/pubsub'],
    calls: {
      publishMessage: { role: 'produce', dest: { read: 'receiver', pos: 0, made: 'topic' } },
      publish: { role: 'produce', dest: { read: 'receiver', pos: 0, made: 'topic' } },
      publishJSON: { role: 'produce', dest: { read: 'receiver', pos: 0, made: 'topic' } },
      on: { role: 'consume', dest: { read: 'receiver', pos: 0, made: 'subscription' }, event: 'message' },
    },
  },
  {
    name: '@azure/service-bus',
    broker: 'azure-servicebus',
    modules: ['@azure/service-bus'],
    calls: {
      createSender: { role: 'produce', dest: first },
      createReceiver: { role: 'consume', dest: { pos: 0, sub: 1 } },
    },
  },
  {
    name: 'dapr',
    broker: 'dapr',
    modules: ['@dapr/dapr', 'dapr-client'],
    calls: {
      publish: { role: 'produce', dest: { pos: 1 }, on: 'pubsub' },
      publishBulk: { role: 'produce', dest: { pos: 1 }, on: 'pubsub' },
      subscribe: { role: 'consume', dest: { pos: 1 }, on: 'pubsub' },
      subscribeToRoute: { role: 'consume', dest: { pos: 1 }, on: 'pubsub' },
      subscribeBulk: { role: 'consume', dest: { pos: 1 }, on: 'pubsub' },
      subscribeStream: { role: 'consume', dest: { pos: 1 }, on: 'pubsub' },
      subscribeWithOptions: { role: 'consume', dest: { pos: 1 }, on: 'pubsub' },
    },
  },
];

/** True when an import source is one of a library's modules. */
export function isLibraryModule(lib: BrokerLibrary, source: string): boolean {
  return lib.modules.some((m) => (m.endsWith('/') ? source.startsWith(m) : source === m));
}

/** Every method and constructor name some library gives a rule for: other calls are not looked at. */
export const BROKER_METHODS: ReadonlySet<string> = new Set(
  BROKER_LIBRARIES.flatMap((lib) => Object.keys(lib.calls ?? {})),
);
export const BROKER_CTORS: ReadonlySet<string> = new Set(
  BROKER_LIBRARIES.flatMap((lib) => Object.keys(lib.ctors ?? {})),
);
