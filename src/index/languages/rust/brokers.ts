/**
 * Rust messaging clients as data: per crate, the methods that publish or subscribe and where the
 * destination sits. A crate counts only when the file uses it (`use async_nats::…` or a `async_nats::`
 * path). RabbitMQ's queues and bindings need a model of their own (amqp.ts); rdkafka stays in contracts.ts.
 */

export type Role = 'producer' | 'consumer';

export interface RustCallRule {
  readonly crate: string;
  readonly broker: string;
  readonly methods: readonly string[];
  readonly role: Role;
  /** Accepted argument counts. */
  readonly args: readonly number[];
  readonly destination: number;
}

export const RUST_CALL_RULES: readonly RustCallRule[] = [
  // async-nats: publish(subject, payload), request(subject, payload), subscribe(subject), queue_subscribe(subject, group).
  {
    crate: 'async_nats',
    broker: 'nats',
    methods: ['publish', 'request', 'publish_with_headers', 'publish_with_reply'],
    role: 'producer',
    args: [2, 3],
    destination: 0,
  },
  {
    crate: 'async_nats',
    broker: 'nats',
    methods: ['subscribe', 'queue_subscribe'],
    role: 'consumer',
    args: [1, 2],
    destination: 0,
  },
];

/** The crates RabbitMQ's model reads: lapin's channel methods and amqprs's argument builders. */
export const AMQP_CRATES = ['lapin', 'amqprs'] as const;
