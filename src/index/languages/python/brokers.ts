/**
 * Python message-broker clients as data: per library, the modules one of which the file must import (no
 * import, no fact), and the calls that publish, consume, bind a queue or declare a named object, with the
 * argument that names each part. `broker-sites.ts` only reads this table; adding a library is an entry here
 * plus golden fixtures. Kafka and Celery keep their own recognisers (`contracts.ts`, `decorators.ts`).
 */
import type { ArgumentSlot } from './http-clients.js';

/**
 * Where a call gives a value: an argument (by keyword, else position), the object the method is called on
 * (`queue.consume()`), every positional argument from `position` on (`subscribe('a', 'b')`), or the keys
 * of a dict argument (`xread({'stream': '$'})`). `many`: the argument may be a list of values.
 */
export interface ValueSlot extends ArgumentSlot {
  readonly receiver?: true;
  readonly rest?: true;
  readonly dictKeys?: true;
  readonly many?: true;
}

/**
 * What a call does:
 * - `publish`: sends to `topic`; AMQP: to `exchange` (absent: the default exchange) with `routingKey`.
 * - `consume`: reads `topic`; AMQP: reads `queue`.
 * - `bind`: AMQP, binds `queue` to `exchange` with `routingKey`.
 * - `declare`: the value it returns (assigned to a name) stands for the destination `topic`/`queue`/
 *   `exchange` it names; a queue declared with an `exchange` is also bound to it (kombu's `Queue`).
 */
export type BrokerRole = 'publish' | 'consume' | 'bind' | 'declare';

export interface BrokerCall {
  readonly role: BrokerRole;
  /** Method names (`channel.basic_publish`), or, with `function`, names called bare or as a class. */
  readonly names: readonly string[];
  readonly function?: true;
  readonly topic?: ValueSlot;
  readonly exchange?: ValueSlot;
  readonly queue?: ValueSlot;
  readonly routingKey?: ValueSlot;
  /** The fewest positional arguments the call takes: `publish(channel, message)` needs both. */
  readonly minArgs?: number;
  /** The name is a URL or ARN whose last segment is the destination (SQS queue URL, SNS topic ARN). */
  readonly lastSegment?: true;
}

export interface BrokerLibrary {
  /** The name facts carry in `via` (`pika basic_publish`). */
  readonly lib: string;
  readonly broker: string;
  /** Import roots; submodules count too. */
  readonly modules: readonly string[];
  /** AMQP libraries: publishes, bindings and consumers are matched into exchanges and queues. */
  readonly amqp?: true;
  /** The attribute that is the default exchange (`channel.default_exchange`). */
  readonly defaultExchange?: string;
  readonly calls: readonly BrokerCall[];
}

const NAME = { position: 0, keyword: 'name' } as const;

export const PY_BROKERS: readonly BrokerLibrary[] = [
  {
    lib: 'pika',
    broker: 'amqp',
    modules: ['pika'],
    amqp: true,
    calls: [
      {
        role: 'publish',
        names: ['basic_publish'],
        exchange: { position: 0, keyword: 'exchange' },
        routingKey: { position: 1, keyword: 'routing_key' },
      },
      { role: 'consume', names: ['basic_consume'], queue: { keyword: 'queue', position: 0 } },
      {
        role: 'bind',
        names: ['queue_bind'],
        queue: { position: 0, keyword: 'queue' },
        exchange: { position: 1, keyword: 'exchange' },
        routingKey: { position: 2, keyword: 'routing_key' },
      },
      { role: 'declare', names: ['queue_declare'], queue: { position: 0, keyword: 'queue' } },
      { role: 'declare', names: ['exchange_declare'], exchange: { position: 0, keyword: 'exchange' } },
    ],
  },
  {
    lib: 'aio-pika',
    broker: 'amqp',
    modules: ['aio_pika'],
    amqp: true,
    defaultExchange: 'default_exchange',
    calls: [
      {
        role: 'publish',
        names: ['publish'],
        exchange: { receiver: true },
        routingKey: { position: 1, keyword: 'routing_key' },
      },
      { role: 'consume', names: ['consume', 'iterator'], queue: { receiver: true } },
      {
        role: 'bind',
        names: ['bind'],
        queue: { receiver: true },
        exchange: { position: 0, keyword: 'exchange' },
        routingKey: { position: 1, keyword: 'routing_key' },
      },
      { role: 'declare', names: ['declare_queue', 'get_queue'], queue: NAME },
      { role: 'declare', names: ['declare_exchange', 'get_exchange'], exchange: NAME },
    ],
  },
  {
    lib: 'kombu',
    broker: 'amqp',
    modules: ['kombu'],
    amqp: true,
    calls: [
      {
        role: 'publish',
        names: ['publish'],
        exchange: { keyword: 'exchange' },
        routingKey: { position: 1, keyword: 'routing_key' },
      },
      {
        role: 'consume',
        names: ['Consumer'],
        function: true,
        queue: { position: 1, keyword: 'queues', many: true },
      },
      {
        role: 'consume',
        names: ['Consumer', 'SimpleQueue'],
        queue: { position: 0, keyword: 'queues', many: true },
      },
      {
        role: 'declare',
        names: ['Queue'],
        function: true,
        queue: NAME,
        exchange: { position: 1, keyword: 'exchange' },
        routingKey: { position: 2, keyword: 'routing_key' },
      },
      { role: 'declare', names: ['Exchange'], function: true, exchange: NAME },
    ],
  },
  {
    lib: 'nats-py',
    broker: 'nats',
    modules: ['nats'],
    calls: [
      { role: 'publish', names: ['publish', 'request'], topic: { position: 0, keyword: 'subject' } },
      {
        role: 'consume',
        names: ['subscribe', 'pull_subscribe'],
        topic: { position: 0, keyword: 'subject' },
      },
    ],
  },
  {
    lib: 'redis-py',
    broker: 'redis',
    modules: ['redis', 'aioredis'],
    calls: [
      { role: 'publish', names: ['publish'], topic: { position: 0, keyword: 'channel' }, minArgs: 2 },
      { role: 'publish', names: ['xadd'], topic: { position: 0, keyword: 'name' }, minArgs: 2 },
      { role: 'consume', names: ['subscribe', 'psubscribe'], topic: { position: 0, rest: true } },
      { role: 'consume', names: ['xread'], topic: { position: 0, keyword: 'streams', dictKeys: true } },
      { role: 'consume', names: ['xreadgroup'], topic: { position: 2, keyword: 'streams', dictKeys: true } },
    ],
  },
  {
    lib: 'paho-mqtt',
    broker: 'mqtt',
    modules: ['paho.mqtt'],
    calls: [
      { role: 'publish', names: ['publish'], topic: { position: 0, keyword: 'topic' } },
      { role: 'publish', names: ['single'], function: true, topic: { position: 0, keyword: 'topic' } },
      { role: 'consume', names: ['subscribe'], topic: { position: 0, keyword: 'topic', many: true } },
    ],
  },
  {
    lib: 'boto3 sqs',
    broker: 'sqs',
    modules: ['boto3', 'aioboto3', 'aiobotocore'],
    calls: [
      {
        role: 'publish',
        names: ['send_message', 'send_message_batch'],
        topic: { keyword: 'QueueUrl' },
        lastSegment: true,
      },
      { role: 'consume', names: ['receive_message'], topic: { keyword: 'QueueUrl' }, lastSegment: true },
      { role: 'declare', names: ['get_queue_url', 'create_queue'], topic: { keyword: 'QueueName' } },
    ],
  },
  {
    lib: 'boto3 sns',
    broker: 'sns',
    modules: ['boto3', 'aioboto3', 'aiobotocore'],
    calls: [
      { role: 'publish', names: ['publish'], topic: { keyword: 'TopicArn' }, lastSegment: true },
      { role: 'publish', names: ['publish'], topic: { keyword: 'TargetArn' }, lastSegment: true },
      { role: 'declare', names: ['create_topic'], topic: { keyword: 'Name' } },
    ],
  },
  {
    lib: 'google-cloud-pubsub',
    broker: 'gcp-pubsub',
    modules: ['google.cloud.pubsub', 'google.cloud.pubsub_v1'],
    calls: [
      { role: 'publish', names: ['publish'], topic: { position: 0, keyword: 'topic' }, lastSegment: true },
      {
        role: 'consume',
        names: ['subscribe'],
        topic: { position: 0, keyword: 'subscription' },
        lastSegment: true,
      },
      { role: 'declare', names: ['topic_path'], topic: { position: 1, keyword: 'topic' } },
      { role: 'declare', names: ['subscription_path'], topic: { position: 1, keyword: 'subscription' } },
    ],
  },
  {
    lib: 'azure-servicebus',
    broker: 'azure-servicebus',
    modules: ['azure.servicebus'],
    calls: [
      { role: 'publish', names: ['get_queue_sender'], topic: { position: 0, keyword: 'queue_name' } },
      { role: 'publish', names: ['get_topic_sender'], topic: { position: 0, keyword: 'topic_name' } },
      { role: 'consume', names: ['get_queue_receiver'], topic: { position: 0, keyword: 'queue_name' } },
      {
        role: 'consume',
        names: ['get_subscription_receiver'],
        topic: { position: 0, keyword: 'topic_name' },
      },
    ],
  },
  {
    lib: 'dapr',
    broker: 'dapr',
    modules: ['dapr.clients', 'dapr.aio.clients'],
    calls: [{ role: 'publish', names: ['publish_event'], topic: { position: 1, keyword: 'topic_name' } }],
  },
];

/**
 * Dapr subscriptions declared in code: `@app.subscribe(pubsub='p', topic='t')` on the FastAPI extension's
 * `DaprApp` or the gRPC extension's `App`, and the `/dapr/subscribe` route whose returned
 * `{'pubsubname', 'topic', 'route'}` entries subscribe the app to each topic.
 */
export const DAPR_SUBSCRIPTIONS = {
  apps: [
    { module: 'dapr.ext.fastapi', classes: ['DaprApp'] },
    { module: 'dapr.ext.grpc', classes: ['App'] },
  ],
  decorator: 'subscribe',
  topic: { position: 1, keyword: 'topic' },
  route: '/dapr/subscribe',
  entryKeys: { pubsub: 'pubsubname', topic: 'topic' },
} as const;
