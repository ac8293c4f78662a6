/**
 * Go messaging clients as data: per library, the import that must be present (no import, no fact), the
 * calls and composite literals that publish or subscribe, and where the destination sits. messaging.ts
 * reads this table; AMQP's queues and bindings need a model of their own (amqp.ts) and Kafka keeps its
 * recognisers in events.ts. Adding a library is an entry here plus golden fixtures.
 */

export type Role = 'producer' | 'consumer';

/**
 * How a raw destination becomes a topic: `url` keeps the last path segment of a queue URL
 * (`https://sqs…/123/orders` → `orders`), `arn` the last `:` field of an ARN, `path` the last `/` segment
 * of a resource name (`projects/p/topics/orders` → `orders`).
 */
export type Shape = 'url' | 'arn' | 'path';

/** Whether the call takes a `context.Context` first; positions below count the arguments after it. */
export type ContextArg = 'required' | 'forbidden' | 'optional';

export interface CallRule {
  readonly library: string;
  readonly broker: string;
  /** An import path of the file must match. */
  readonly imports: RegExp;
  readonly methods: readonly string[];
  readonly role: Role;
  readonly context: ContextArg;
  /** Argument count after the context: the exact minimum, and the maximum (absent: variadic). */
  readonly minArgs: number;
  readonly maxArgs?: number;
  /** The argument naming the destination. */
  readonly destination: number;
  /** Every argument from `destination` on is a destination (`Subscribe(ctx, "a", "b")`). */
  readonly variadic?: true;
  /**
   * The destination is an argument of the call that made the receiver instead
   * (`client.Topic("orders").Publish(ctx, msg)`): the methods that make it and the argument index.
   */
  readonly handle?: { readonly methods: readonly string[]; readonly argument: number };
  readonly shape?: Shape;
}

export interface CompositeRule {
  readonly library: string;
  readonly broker: string;
  readonly imports: RegExp;
  /** The literal's type name (`SendMessageInput` of `sqs.SendMessageInput{…}`). */
  readonly types: readonly string[];
  readonly role: Role;
  /** The field naming the destination; a `[]string` field gives one fact per element. */
  readonly field: string;
  /** The field holds stream names followed by as many start ids (`XReadGroupArgs.Streams`). */
  readonly halfList?: true;
  readonly shape?: Shape;
}

const NATS = /^github\.com\/nats-io\/nats\.go$/;
const JETSTREAM = /^github\.com\/nats-io\/nats\.go\/jetstream$/;
const GO_REDIS = /^github\.com\/(redis|go-redis)\/(go-)?redis(\/v\d+)?$|^gopkg\.in\/redis\.v\d+$/;
const PAHO = /^github\.com\/eclipse\/paho\.mqtt\.golang$/;
const PAHO_V5 = /^github\.com\/eclipse\/paho\.golang\/paho$/;
const SQS = /^github\.com\/aws\/aws-sdk-go(-v2)?\/service\/sqs$/;
const SNS = /^github\.com\/aws\/aws-sdk-go(-v2)?\/service\/sns$/;
const GCP_PUBSUB = /^cloud\.google\.com\/go\/pubsub(\/v\d+)?$/;
const SERVICE_BUS = /^github\.com\/Azure\/azure-sdk-for-go\/sdk\/messaging\/azservicebus$/;
const DAPR_CLIENT = /^github\.com\/dapr\/go-sdk\/client$/;
const DAPR_SERVICE = /^github\.com\/dapr\/go-sdk\/service\/(common|http|grpc)$/;

export const CALL_RULES: readonly CallRule[] = [
  // nats.go core: Publish(subj, data), Request(subj, data, timeout), Subscribe(subj, cb) and friends.
  {
    library: 'nats.go',
    broker: 'nats',
    imports: NATS,
    methods: ['Publish', 'Request', 'PublishRequest'],
    role: 'producer',
    context: 'forbidden',
    minArgs: 2,
    destination: 0,
  },
  {
    library: 'nats.go',
    broker: 'nats',
    imports: NATS,
    methods: ['RequestWithContext'],
    role: 'producer',
    context: 'required',
    minArgs: 2,
    maxArgs: 2,
    destination: 0,
  },
  {
    library: 'nats.go',
    broker: 'nats',
    imports: NATS,
    methods: [
      'Subscribe',
      'SubscribeSync',
      'QueueSubscribe',
      'QueueSubscribeSync',
      'ChanSubscribe',
      'ChanQueueSubscribe',
      'QueueSubscribeSyncWithChan',
      'PullSubscribe',
    ],
    role: 'consumer',
    context: 'forbidden',
    minArgs: 1,
    destination: 0,
  },
  // nats.go/jetstream: Publish(ctx, subj, data) and PublishAsync(subj, data).
  {
    library: 'nats.go jetstream',
    broker: 'nats',
    imports: JETSTREAM,
    methods: ['Publish', 'PublishMsg'],
    role: 'producer',
    context: 'required',
    minArgs: 2,
    destination: 0,
  },
  {
    library: 'nats.go jetstream',
    broker: 'nats',
    imports: JETSTREAM,
    methods: ['PublishAsync'],
    role: 'producer',
    context: 'forbidden',
    minArgs: 2,
    destination: 0,
  },
  // go-redis: Publish(ctx, channel, msg), Subscribe(ctx, channels...); v6/v7 take no context.
  {
    library: 'go-redis',
    broker: 'redis',
    imports: GO_REDIS,
    methods: ['Publish', 'SPublish'],
    role: 'producer',
    context: 'optional',
    minArgs: 2,
    maxArgs: 2,
    destination: 0,
  },
  {
    library: 'go-redis',
    broker: 'redis',
    imports: GO_REDIS,
    methods: ['Subscribe', 'PSubscribe', 'SSubscribe'],
    role: 'consumer',
    context: 'optional',
    minArgs: 1,
    destination: 0,
    variadic: true,
  },
  // paho.mqtt.golang: Publish(topic, qos, retained, payload), Subscribe(topic, qos, handler).
  {
    library: 'paho.mqtt',
    broker: 'mqtt',
    imports: PAHO,
    methods: ['Publish'],
    role: 'producer',
    context: 'forbidden',
    minArgs: 4,
    maxArgs: 4,
    destination: 0,
  },
  {
    library: 'paho.mqtt',
    broker: 'mqtt',
    imports: PAHO,
    methods: ['Subscribe'],
    role: 'consumer',
    context: 'forbidden',
    minArgs: 3,
    maxArgs: 3,
    destination: 0,
  },
  // cloud.google.com/go/pubsub: the topic or subscription handle carries the name.
  {
    library: 'gcp pubsub',
    broker: 'gcp-pubsub',
    imports: GCP_PUBSUB,
    methods: ['Publish'],
    role: 'producer',
    context: 'required',
    minArgs: 1,
    maxArgs: 1,
    destination: 0,
    handle: { methods: ['Topic', 'TopicInProject', 'Publisher'], argument: 0 },
    shape: 'path',
  },
  {
    library: 'gcp pubsub',
    broker: 'gcp-pubsub',
    imports: GCP_PUBSUB,
    methods: ['Receive'],
    role: 'consumer',
    context: 'required',
    minArgs: 1,
    maxArgs: 1,
    destination: 0,
    handle: { methods: ['Subscription', 'SubscriptionInProject', 'Subscriber'], argument: 0 },
    shape: 'path',
  },
  // azservicebus: a sender or receiver is made for one queue, topic or subscription.
  {
    library: 'azservicebus',
    broker: 'azure-servicebus',
    imports: SERVICE_BUS,
    methods: ['NewSender'],
    role: 'producer',
    context: 'forbidden',
    minArgs: 2,
    maxArgs: 2,
    destination: 0,
  },
  {
    library: 'azservicebus',
    broker: 'azure-servicebus',
    imports: SERVICE_BUS,
    methods: ['NewReceiverForQueue', 'NewReceiverForSubscription'],
    role: 'consumer',
    context: 'forbidden',
    minArgs: 2,
    maxArgs: 3,
    destination: 0,
  },
  // Dapr Go SDK client: PublishEvent(ctx, pubsubName, topic, data, opts...).
  {
    library: 'dapr go-sdk',
    broker: 'dapr',
    imports: DAPR_CLIENT,
    methods: ['PublishEvent', 'PublishEventfromCustomContent', 'PublishEvents'],
    role: 'producer',
    context: 'required',
    minArgs: 3,
    destination: 1,
  },
];

export const COMPOSITE_RULES: readonly CompositeRule[] = [
  {
    library: 'go-redis',
    broker: 'redis',
    imports: GO_REDIS,
    types: ['XAddArgs'],
    role: 'producer',
    field: 'Stream',
  },
  {
    library: 'go-redis',
    broker: 'redis',
    imports: GO_REDIS,
    types: ['XReadGroupArgs', 'XReadArgs'],
    role: 'consumer',
    field: 'Streams',
    halfList: true,
  },
  {
    library: 'nats.go jetstream',
    broker: 'nats',
    imports: JETSTREAM,
    types: ['ConsumerConfig', 'OrderedConsumerConfig'],
    role: 'consumer',
    field: 'FilterSubject',
  },
  {
    library: 'nats.go jetstream',
    broker: 'nats',
    imports: JETSTREAM,
    types: ['ConsumerConfig', 'OrderedConsumerConfig'],
    role: 'consumer',
    field: 'FilterSubjects',
  },
  {
    library: 'paho.golang',
    broker: 'mqtt',
    imports: PAHO_V5,
    types: ['Publish'],
    role: 'producer',
    field: 'Topic',
  },
  {
    library: 'paho.golang',
    broker: 'mqtt',
    imports: PAHO_V5,
    types: ['SubscribeOptions'],
    role: 'consumer',
    field: 'Topic',
  },
  {
    library: 'aws-sdk-go sqs',
    broker: 'sqs',
    imports: SQS,
    types: ['SendMessageInput', 'SendMessageBatchInput'],
    role: 'producer',
    field: 'QueueUrl',
    shape: 'url',
  },
  {
    library: 'aws-sdk-go sqs',
    broker: 'sqs',
    imports: SQS,
    types: ['ReceiveMessageInput'],
    role: 'consumer',
    field: 'QueueUrl',
    shape: 'url',
  },
  {
    library: 'aws-sdk-go sns',
    broker: 'sns',
    imports: SNS,
    types: ['PublishInput', 'PublishBatchInput'],
    role: 'producer',
    field: 'TopicArn',
    shape: 'arn',
  },
  {
    library: 'dapr go-sdk',
    broker: 'dapr',
    imports: DAPR_SERVICE,
    types: ['Subscription'],
    role: 'consumer',
    field: 'Topic',
  },
];
