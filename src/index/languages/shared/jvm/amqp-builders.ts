/**
 * RabbitMQ's AMQP 1.0 Java client (`com.rabbitmq.client.amqp`). Destinations are not call arguments of one
 * send call but links of a builder chain ended by `build()`:
 *
 *   connection.publisherBuilder().exchange(E).key(K).build()    producer of exchange E, routing key K
 *   connection.publisherBuilder().queue(Q).build()              producer of queue Q
 *   connection.requesterBuilder().requestAddress().queue(Q)…    producer of Q (an RPC request)
 *   connection.consumerBuilder().queue(Q)….build()              consumer of Q
 *   connection.responderBuilder().requestQueue(Q)….build()      consumer of Q (an RPC server)
 *   management.binding().sourceExchange(E).destinationQueue(Q).key(K).bind()
 *                                                               binds Q to E: Q's consumers read E
 *
 * `management.queue(Q)…declare()` and `management.exchange(E)…declare()` only declare: no fact. A queue
 * declared without a name (`management.queue().exclusive(true).declare().name()`) is server-named (see
 * `messaging-values.ts`), so its consumer gives no fact unless the queue is bound.
 */
import { type Binding, queueConsumerFacts, queueKey } from './amqp-channel.js';
import {
  type CallArg,
  type MessagingCall,
  receiverAccepted,
  type TopicFact,
  unresolvedTopic,
} from './messaging-model.js';

export const AMQP10_IMPORTS: readonly string[] = ['com.rabbitmq.client.amqp'];

interface ChainRule {
  /** The method on the connection that starts the chain. */
  readonly start: string;
  readonly role: 'producer' | 'consumer';
  /** Consumers: the link naming the queue read. */
  readonly queueLink?: string;
}

const CHAINS: readonly ChainRule[] = [
  { start: 'publisherBuilder', role: 'producer' },
  { start: 'requesterBuilder', role: 'producer' },
  { start: 'consumerBuilder', role: 'consumer', queueLink: 'queue' },
  { start: 'responderBuilder', role: 'consumer', queueLink: 'requestQueue' },
];

const CONNECTION_TYPES = ['Connection', 'AmqpConnection'];
const CONNECTION_NAME = /conn/i;
const MANAGEMENT_TYPES = ['Management', 'AmqpManagement'];
const MANAGEMENT_NAME = /management|^mgmt$/i;

/** The links of the chain ending at `calls[end]`, first call first. */
function chainOf(calls: readonly MessagingCall[], end: number): MessagingCall[] {
  const links: MessagingCall[] = [];
  let index: number | undefined = end;
  while (index !== undefined && links.length < 32) {
    const link: MessagingCall | undefined = calls[index];
    if (link === undefined) break;
    links.unshift(link);
    index = link.parent;
  }
  return links;
}

/** The first argument of the last link named `method`, if any. */
function linkArg(links: readonly MessagingCall[], method: string): CallArg | undefined {
  const link = links.findLast((candidate) => candidate.method === method);
  return link?.args[0];
}

const EMPTY_KEY: CallArg = { text: '""', values: [''] };

export function amqp10Facts(calls: readonly MessagingCall[]): TopicFact[] {
  const chains = calls.flatMap((call, index) =>
    call.method === 'build' || call.method === 'bind' ? [chainOf(calls, index)] : [],
  );
  const bindings = new Map<string, Binding[]>();
  for (const links of chains) {
    const [first] = links;
    const queue = linkArg(links, 'destinationQueue');
    const exchange = linkArg(links, 'sourceExchange');
    if (first?.method !== 'binding' || !receiverAccepted(first.receiver, MANAGEMENT_TYPES, MANAGEMENT_NAME))
      continue;
    if (queue === undefined || exchange === undefined || links.at(-1)?.method !== 'bind') continue;
    const key = queueKey(queue);
    const list = bindings.get(key) ?? bindings.set(key, []).get(key);
    list?.push({ exchange, key: linkArg(links, 'key') ?? EMPTY_KEY });
  }
  const out: TopicFact[] = [];
  for (const links of chains) {
    const [first] = links;
    const rule = CHAINS.find((candidate) => candidate.start === first?.method);
    if (first === undefined || rule === undefined || links.at(-1)?.method !== 'build') continue;
    if (!receiverAccepted(first.receiver, CONNECTION_TYPES, CONNECTION_NAME)) continue;
    const via = `rabbitmq-amqp-client ${rule.start}`;
    if (rule.role === 'producer') {
      const fact = producerFact(first, via, links);
      if (fact !== undefined) out.push(fact);
      continue;
    }
    const queue = linkArg(links, rule.queueLink ?? 'queue');
    if (queue !== undefined)
      out.push(...queueConsumerFacts(first, via, queue, bindings.get(queueKey(queue)) ?? []));
  }
  return out;
}

/**
 * A publisher's or requester's address: `queue(Q)` names a queue, `exchange(E)` an exchange with the
 * routing key of `key(K)`. A builder given no address sets it per message: no fixed destination, no fact.
 */
function producerFact(
  first: MessagingCall,
  via: string,
  links: readonly MessagingCall[],
): TopicFact | undefined {
  const head = {
    kind: 'topic_producer' as const,
    broker: 'amqp',
    ...(first.symbol === undefined ? {} : { symbol: first.symbol }),
    line: first.line,
    via,
  };
  const queue = linkArg(links, 'queue');
  const exchange = linkArg(links, 'exchange');
  const destination = exchange ?? queue;
  if (destination === undefined) return undefined;
  const name = destination.values?.length === 1 ? destination.values[0] : undefined;
  if (name === undefined) return { ...head, ...unresolvedTopic(destination.text) };
  const key = exchange === undefined ? undefined : linkArg(links, 'key');
  const keyName = key?.values?.length === 1 ? key.values[0] : undefined;
  return {
    ...head,
    topic: name,
    ...(keyName === undefined || keyName === '' ? {} : { routingKey: keyName }),
    confidence: destination.inferred === true || key?.inferred === true ? 'heuristic' : 'exact',
  };
}
