/**
 * RabbitMQ Java client consumers (`com.rabbitmq.client.Channel`). A `basicConsume(queue, …)` reads a queue;
 * what it receives is decided by the `queueBind(queue, exchange, key)` calls of the same file. A queue bound
 * to an exchange makes its consumer a consumer of that exchange (one fact per binding key); a queue bound to
 * nothing is consumed by name; a server-named queue bound to nothing is an RPC reply queue and gives no fact.
 * Declaring a queue or an exchange alone is neither producing nor consuming.
 */
import {
  type CallArg,
  type MessagingCall,
  receiverAccepted,
  type TopicFact,
  unresolvedTopic,
} from './messaging-model.js';

/** A queue bound to `exchange` with binding key `key` (arguments as the binding call wrote them). */
export interface Binding {
  readonly exchange: CallArg;
  readonly key: CallArg;
}

const CHANNEL_TYPES = ['Channel'];
const CHANNEL_NAME = /channel|^ch$/i;

/** The queue an argument names, as a key that matches the same queue elsewhere in the file. */
export function queueKey(arg: CallArg): string {
  const value = arg.values?.length === 1 ? arg.values[0] : undefined;
  return value !== undefined ? `=${value}` : `~${arg.text.replace(/^this\./, '')}`;
}

export function amqpChannelConsumers(calls: readonly MessagingCall[]): TopicFact[] {
  const onChannel = calls.filter((call) => receiverAccepted(call.receiver, CHANNEL_TYPES, CHANNEL_NAME));
  const bindings = new Map<string, Binding[]>();
  for (const call of onChannel) {
    const [queue, exchange, key] = call.args;
    if (call.method !== 'queueBind' || queue === undefined || exchange === undefined || key === undefined)
      continue;
    const list = bindings.get(queueKey(queue)) ?? bindings.set(queueKey(queue), []).get(queueKey(queue));
    list?.push({ exchange, key });
  }
  const out: TopicFact[] = [];
  for (const call of onChannel) {
    const queue = call.args[0];
    if (call.method !== 'basicConsume' || queue === undefined) continue;
    const bound = bindings.get(queueKey(queue)) ?? [];
    out.push(...queueConsumerFacts(call, 'amqp-client basicConsume', queue, bound));
  }
  return out;
}

/**
 * The facts of a consumer of `queue` at `at`: one per binding of the queue to an exchange (and per binding
 * key it resolves to), or the queue itself when bound to nothing; nothing for an unbound server-named queue.
 */
export function queueConsumerFacts(
  at: Pick<MessagingCall, 'symbol' | 'line'>,
  via: string,
  queue: CallArg,
  bound: readonly Binding[],
): TopicFact[] {
  const head = {
    kind: 'topic_consumer' as TopicFact['kind'],
    broker: 'amqp',
    ...(at.symbol === undefined ? {} : { symbol: at.symbol }),
    line: at.line,
    via,
  };
  const queueName = queue.serverNamed === true || queue.values?.length !== 1 ? undefined : queue.values[0];
  if (bound.length === 0) {
    if (queue.serverNamed === true) return [];
    if (queueName === undefined) return [{ ...head, ...unresolvedTopic(queue.text) }];
    return [
      {
        ...head,
        topic: queueName,
        confidence: queue.inferred === true ? ('heuristic' as const) : ('exact' as const),
      },
    ];
  }
  const out: TopicFact[] = [];
  for (const { exchange, key } of bound) {
    const exchangeName = exchange.values?.length === 1 ? exchange.values[0] : undefined;
    if (exchangeName === undefined) {
      out.push({ ...head, ...unresolvedTopic(exchange.text) });
      continue;
    }
    // Keys from argv (a loop over severities) are unknown: one fact for the exchange, without a key.
    const keys = key.values ?? [''];
    for (const routingKey of keys) {
      out.push({
        ...head,
        topic: exchangeName,
        ...(queueName === undefined ? {} : { queue: queueName }),
        ...(routingKey === '' ? {} : { routingKey }),
        confidence:
          exchange.inferred === true || key.inferred === true ? ('heuristic' as const) : ('exact' as const),
      });
    }
  }
  return out;
}
