/**
 * Messaging client libraries of the JVM as data: per library, the import that must be present (no import,
 * no fact), the calls that produce or consume, the receivers they are made on and which argument names the
 * destination. Java, Kotlin and Scala read their call sites into `MessagingCall`s and `messaging.ts` matches
 * them against this table, so adding a library is an entry here plus fixtures.
 *
 * The RabbitMQ Java client's consumers are not here: a `basicConsume` reads a queue whose exchange is known
 * only from the `queueBind` calls around it (`amqp-channel.ts`).
 */

/** Where a call's arguments put the destination, for calls with `args` arguments (a range when a pair). */
export interface ArgumentForm {
  /** The argument count this form applies to: exact, or `[min, max]` (`max` may be `Infinity`). */
  readonly args: number | readonly [number, number];
  /** The argument naming the topic, queue, subject or channel. */
  readonly topic?: number;
  /** AMQP: the argument naming the exchange (`""` is the default exchange: the key is then the queue). */
  readonly exchange?: number;
  /** AMQP: the argument naming the routing key. */
  readonly routingKey?: number;
}

export interface BrokerCall {
  /** First word of `via`: `RabbitTemplate`, `StreamBridge`, … */
  readonly library: string;
  readonly broker: string;
  readonly role: 'producer' | 'consumer';
  /** Package prefixes; the file must import from one of them. */
  readonly imports: readonly string[];
  readonly methods: readonly string[];
  /** Receiver types (simple names) the call is made on; a receiver of another declared type never matches. */
  readonly receiverTypes: readonly string[];
  /** A receiver of unknown type matches when its name does. */
  readonly receiverName: RegExp;
  /** Whether a chained receiver (`builder.stream("a").mapValues(f).to("b")`) is enough. */
  readonly chained?: boolean;
  readonly forms: readonly ArgumentForm[];
  /** The topic a resolved name stands for (a framework binding resolved through configuration). */
  readonly topicOf?: (name: string) => string;
}

/** Spring Cloud Stream binding `name` → its destination, or the binding name when none is configured. */
export const streamBinding = (name: string): string =>
  `\${spring.cloud.stream.bindings.${name}.destination:${name}}`;

const AMQP_TEMPLATE_FORMS: readonly ArgumentForm[] = [
  // `convertAndSend(routingKey, message)`: the template's default exchange, normally `""`, so the key is a queue.
  { args: 2, topic: 0 },
  { args: [3, Infinity], exchange: 0, routingKey: 1 },
];

export const BROKER_CALLS: readonly BrokerCall[] = [
  {
    library: 'amqp-client',
    broker: 'amqp',
    role: 'producer',
    imports: ['com.rabbitmq.client'],
    methods: ['basicPublish'],
    receiverTypes: ['Channel'],
    receiverName: /channel|^ch$/i,
    forms: [{ args: [3, Infinity], exchange: 0, routingKey: 1 }],
  },
  {
    library: 'RabbitTemplate',
    broker: 'amqp',
    role: 'producer',
    imports: ['org.springframework.amqp'],
    methods: [
      'convertAndSend',
      'send',
      'convertSendAndReceive',
      'sendAndReceive',
      'convertSendAndReceiveAsType',
    ],
    receiverTypes: ['RabbitTemplate', 'AmqpTemplate', 'RabbitOperations', 'RabbitMessagingTemplate'],
    receiverName: /(?:rabbit|amqp)(?:template|operations)$/i,
    forms: AMQP_TEMPLATE_FORMS,
  },
  {
    library: 'JmsTemplate',
    broker: 'jms',
    role: 'producer',
    imports: ['org.springframework.jms'],
    methods: ['convertAndSend', 'send', 'convertSendAndReceive', 'sendAndReceive'],
    receiverTypes: ['JmsTemplate', 'JmsOperations', 'JmsMessagingTemplate'],
    receiverName: /jms(?:template|operations)$/i,
    forms: [{ args: [2, Infinity], topic: 0 }],
  },
  {
    library: 'StreamBridge',
    broker: 'channel',
    role: 'producer',
    imports: ['org.springframework.cloud.stream'],
    methods: ['send'],
    receiverTypes: ['StreamBridge'],
    receiverName: /streambridge$/i,
    forms: [{ args: [2, Infinity], topic: 0 }],
    topicOf: streamBinding,
  },
  {
    library: 'SqsTemplate',
    broker: 'sqs',
    role: 'producer',
    imports: ['io.awspring.cloud', 'org.springframework.cloud.aws'],
    methods: ['send', 'sendAsync', 'convertAndSend'],
    receiverTypes: ['SqsTemplate', 'SqsOperations', 'SqsAsyncOperations', 'QueueMessagingTemplate'],
    receiverName: /(?:sqs|queuemessaging)(?:template|operations)$/i,
    forms: [{ args: [2, Infinity], topic: 0 }],
  },
  {
    library: 'SnsTemplate',
    broker: 'sns',
    role: 'producer',
    imports: ['io.awspring.cloud', 'org.springframework.cloud.aws'],
    methods: ['sendNotification', 'convertAndSend'],
    receiverTypes: ['SnsTemplate', 'SnsOperations', 'NotificationMessagingTemplate'],
    receiverName: /(?:sns|notificationmessaging)(?:template|operations)$/i,
    forms: [{ args: [2, Infinity], topic: 0 }],
  },
  {
    library: 'PubSubTemplate',
    broker: 'gcp-pubsub',
    role: 'producer',
    imports: ['com.google.cloud.spring.pubsub', 'org.springframework.cloud.gcp.pubsub'],
    methods: ['publish'],
    receiverTypes: ['PubSubTemplate', 'PubSubOperations', 'PubSubPublisherTemplate'],
    receiverName: /pubsub(?:template|operations)$/i,
    forms: [{ args: [2, Infinity], topic: 0 }],
  },
  {
    // The subscription is what the code names; the topic behind it is cloud configuration.
    library: 'PubSubTemplate',
    broker: 'gcp-pubsub',
    role: 'consumer',
    imports: ['com.google.cloud.spring.pubsub', 'org.springframework.cloud.gcp.pubsub'],
    methods: ['subscribe', 'subscribeAndConvert', 'pull', 'pullAndAck', 'pullAndConvert'],
    receiverTypes: ['PubSubTemplate', 'PubSubOperations', 'PubSubSubscriberTemplate'],
    receiverName: /pubsub(?:template|operations)$/i,
    forms: [{ args: [1, Infinity], topic: 0 }],
  },
  {
    library: 'DaprClient',
    broker: 'dapr',
    role: 'producer',
    imports: ['io.dapr'],
    methods: ['publishEvent'],
    receiverTypes: ['DaprClient', 'DaprPreviewClient'],
    receiverName: /client$/i,
    forms: [{ args: [3, Infinity], topic: 1 }],
  },
  {
    library: 'jnats',
    broker: 'nats',
    role: 'producer',
    imports: ['io.nats.client'],
    methods: ['publish', 'publishAsync', 'request', 'requestWithTimeout'],
    receiverTypes: ['Connection', 'JetStream'],
    receiverName: /nats|^nc$|^js$|connection$|jetstream$/i,
    forms: [{ args: [2, Infinity], topic: 0 }],
  },
  {
    library: 'jnats',
    broker: 'nats',
    role: 'consumer',
    imports: ['io.nats.client'],
    methods: ['subscribe'],
    receiverTypes: ['Connection', 'Dispatcher', 'JetStream'],
    receiverName: /nats|^nc$|^js$|connection$|dispatcher$|jetstream$/i,
    forms: [{ args: [1, Infinity], topic: 0 }],
  },
  {
    library: 'KafkaStreams',
    broker: 'kafka',
    role: 'consumer',
    imports: ['org.apache.kafka.streams'],
    methods: ['stream', 'table', 'globalTable'],
    receiverTypes: ['StreamsBuilder', 'KStreamBuilder'],
    receiverName: /builder$/i,
    forms: [{ args: [1, 2], topic: 0 }],
  },
  {
    library: 'KafkaStreams',
    broker: 'kafka',
    role: 'producer',
    imports: ['org.apache.kafka.streams'],
    methods: ['to'],
    receiverTypes: ['KStream'],
    receiverName: /stream$/i,
    chained: true,
    forms: [{ args: [1, 2], topic: 0 }],
  },
];

/** Whether one of `imports` (package or type paths, wildcards as their package) is under `prefix`. */
export function importsUnder(imports: readonly string[], prefixes: readonly string[]): boolean {
  return imports.some((source) =>
    prefixes.some((prefix) => source === prefix || source.startsWith(`${prefix}.`)),
  );
}
