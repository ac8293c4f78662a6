/**
 * PHP message-broker clients as data: per library, the namespace or class whose use shows it (no use, no
 * fact), the calls that publish, consume, bind or declare, and the argument (position or PHP 8 named
 * argument) that names each part. `broker-calls.ts` only reads this table.
 */

/** Where a call gives a value: a named argument (preferred), a position, or the receiver object. */
export interface PhpSlot {
  readonly position?: number;
  readonly name?: string;
  readonly receiver?: true;
}

export interface PhpBrokerCall {
  readonly role: 'publish' | 'consume' | 'bind' | 'declare';
  readonly methods: readonly string[];
  /** Publish: the destination is a queue or topic object (interop); a queue goes through the default exchange. */
  readonly destination?: PhpSlot;
  readonly exchange?: PhpSlot;
  readonly queue?: PhpSlot;
  readonly routingKey?: PhpSlot;
  /** Declare: what the returned object is, and whether the server names it (`createTemporaryQueue`). */
  readonly declares?: 'queue' | 'exchange';
  readonly serverNamed?: true;
}

export interface PhpBrokerLibrary {
  readonly lib: string;
  readonly broker: string;
  /** Namespaces (`use` prefixes) or class names whose appearance in the file shows the library. */
  readonly evidence: readonly string[];
  /** Classes whose instance names itself with `setName()` (PECL amqp): without a name, the default. */
  readonly named?: readonly { readonly class: string; readonly declares: 'queue' | 'exchange' }[];
  readonly calls: readonly PhpBrokerCall[];
}

export const PHP_BROKERS: readonly PhpBrokerLibrary[] = [
  {
    lib: 'php-amqplib',
    broker: 'amqp',
    evidence: ['PhpAmqpLib'],
    calls: [
      { role: 'publish', methods: ['basic_publish'], exchange: { position: 1 }, routingKey: { position: 2 } },
      { role: 'consume', methods: ['basic_consume'], queue: { position: 0 } },
      {
        role: 'bind',
        methods: ['queue_bind'],
        queue: { position: 0 },
        exchange: { position: 1 },
        routingKey: { position: 2 },
      },
      { role: 'declare', methods: ['queue_declare'], queue: { position: 0 }, declares: 'queue' },
    ],
  },
  {
    lib: 'thesis-amqp',
    broker: 'amqp',
    evidence: ['Thesis\\Amqp'],
    calls: [
      {
        role: 'publish',
        methods: ['publish'],
        exchange: { position: 1, name: 'exchange' },
        routingKey: { position: 2, name: 'routingKey' },
      },
      { role: 'consume', methods: ['consume'], queue: { position: 1, name: 'queue' } },
      {
        role: 'bind',
        methods: ['queueBind'],
        queue: { position: 0, name: 'queue' },
        exchange: { position: 1, name: 'exchange' },
        routingKey: { position: 2, name: 'routingKey' },
      },
      {
        role: 'declare',
        methods: ['queueDeclare'],
        queue: { position: 0, name: 'queue' },
        declares: 'queue',
      },
    ],
  },
  {
    lib: 'php-amqp',
    broker: 'amqp',
    evidence: ['AMQPExchange', 'AMQPQueue'],
    named: [
      { class: 'AMQPExchange', declares: 'exchange' },
      { class: 'AMQPQueue', declares: 'queue' },
    ],
    calls: [
      { role: 'publish', methods: ['publish'], exchange: { receiver: true }, routingKey: { position: 1 } },
      { role: 'consume', methods: ['consume', 'get'], queue: { receiver: true } },
      {
        role: 'bind',
        methods: ['bind'],
        queue: { receiver: true },
        exchange: { position: 0 },
        routingKey: { position: 1 },
      },
    ],
  },
  {
    lib: 'queue-interop',
    broker: 'amqp',
    evidence: ['Interop\\', 'Enqueue\\'],
    calls: [
      { role: 'publish', methods: ['send'], destination: { position: 0 } },
      { role: 'consume', methods: ['createConsumer'], queue: { position: 0 } },
      // `$context->bind(new AmqpBind($topic, $queue, $key))`: read from the AmqpBind's arguments.
      {
        role: 'bind',
        methods: ['AmqpBind'],
        exchange: { position: 0 },
        queue: { position: 1 },
        routingKey: { position: 2 },
      },
      { role: 'declare', methods: ['createQueue'], queue: { position: 0 }, declares: 'queue' },
      { role: 'declare', methods: ['createTopic'], exchange: { position: 0 }, declares: 'exchange' },
      { role: 'declare', methods: ['createTemporaryQueue'], declares: 'queue', serverNamed: true },
    ],
  },
];
