/**
 * Ruby message-broker clients as data: per library, the evidence the file uses it (a `require` or a
 * constant), the calls that publish, consume, bind or declare, and the argument (position or `key:` option)
 * that names each part. `broker-calls.ts` only reads this table; adding a library is an entry here plus
 * golden fixtures.
 */

/** Where a call gives a value: a positional argument, a `key:` option (preferred), or the receiver. */
export interface RubySlot {
  readonly position?: number;
  readonly option?: string;
  readonly receiver?: true;
}

export interface RubyBrokerCall {
  readonly role: 'publish' | 'consume' | 'bind' | 'declare';
  readonly methods: readonly string[];
  /** Called without a receiver (a class macro such as Sneakers' `from_queue`). */
  readonly bare?: true;
  readonly topic?: RubySlot;
  readonly exchange?: RubySlot;
  readonly queue?: RubySlot;
  readonly routingKey?: RubySlot;
  /** Declares an object the server names (`temporary_queue`). */
  readonly serverNamed?: true;
}

export interface RubyBrokerLibrary {
  readonly lib: string;
  readonly broker: string;
  /** `require` paths, and constants whose use shows the library (Rails autoloads gems). */
  readonly requires: readonly string[];
  readonly constants: readonly string[];
  readonly amqp?: true;
  /** The method that is the default exchange (`channel.default_exchange`). */
  readonly defaultExchange?: string;
  readonly calls: readonly RubyBrokerCall[];
}

const FIRST = { position: 0 } as const;
const ROUTING_KEY = { option: 'routing_key' } as const;

export const RUBY_BROKERS: readonly RubyBrokerLibrary[] = [
  {
    lib: 'bunny',
    broker: 'amqp',
    requires: ['bunny'],
    constants: ['Bunny'],
    amqp: true,
    defaultExchange: 'default_exchange',
    calls: [
      { role: 'publish', methods: ['publish'], exchange: { receiver: true }, routingKey: ROUTING_KEY },
      {
        role: 'publish',
        methods: ['basic_publish'],
        exchange: { position: 1 },
        routingKey: { position: 2 },
      },
      { role: 'consume', methods: ['subscribe', 'subscribe_with', 'pop'], queue: { receiver: true } },
      {
        role: 'bind',
        methods: ['bind'],
        queue: { receiver: true },
        exchange: FIRST,
        routingKey: ROUTING_KEY,
      },
      { role: 'declare', methods: ['queue', 'quorum_queue', 'durable_queue', 'stream_queue'], queue: FIRST },
      { role: 'declare', methods: ['temporary_queue'], queue: FIRST, serverNamed: true },
      { role: 'declare', methods: ['fanout', 'direct', 'topic', 'headers', 'exchange'], exchange: FIRST },
    ],
  },
  {
    lib: 'sneakers',
    broker: 'amqp',
    requires: ['sneakers'],
    constants: ['Sneakers'],
    amqp: true,
    calls: [
      // `from_queue 'q', exchange: 'x', routing_key: [...]`: the worker's queue, bound when it names an exchange.
      {
        role: 'consume',
        methods: ['from_queue'],
        bare: true,
        queue: FIRST,
        exchange: { option: 'exchange' },
        routingKey: ROUTING_KEY,
      },
      {
        role: 'publish',
        methods: ['publish'],
        exchange: { option: 'exchange' },
        routingKey: { option: 'to_queue' },
      },
    ],
  },
  {
    lib: 'ruby-kafka',
    broker: 'kafka',
    requires: ['kafka'],
    constants: ['Kafka'],
    calls: [
      { role: 'publish', methods: ['deliver_message', 'produce'], topic: { option: 'topic' } },
      { role: 'consume', methods: ['subscribe'], topic: FIRST },
      { role: 'consume', methods: ['each_message', 'fetch_messages'], topic: { option: 'topic' } },
    ],
  },
];
