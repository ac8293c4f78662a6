/**
 * Topic producers and consumers from call sites, the same for Java, Kotlin and Scala: each language reads
 * its calls into `MessagingCall`s (names, receivers, arguments resolved through its own value resolution)
 * and this file matches them against the library table (`brokers.ts`), the RabbitMQ channel rules
 * (`amqp-channel.ts`) and the RabbitMQ AMQP 1.0 builder chains (`amqp-builders.ts`).
 */
import type { ContractSink } from './grpc-stub-use.js';
import { AMQP10_IMPORTS, amqp10Facts } from './amqp-builders.js';
import { amqpChannelConsumers } from './amqp-channel.js';
import { type ArgumentForm, BROKER_CALLS, type BrokerCall, importsUnder } from './brokers.js';
import {
  isReplyTo,
  type MessagingCall,
  ordered,
  receiverAccepted,
  type TopicFact,
  unresolvedTopic,
} from './messaging-model.js';

/** Every topic fact the calls of one file make; `imports` are the file's import sources. */
export function messagingContracts(
  calls: readonly MessagingCall[],
  imports: readonly string[],
  facts: ContractSink,
): void {
  const table = BROKER_CALLS.filter((entry) => importsUnder(imports, entry.imports));
  const seen = new Set<string>();
  const add = (found: TopicFact): void => {
    const fact = ordered(found);
    const key = JSON.stringify(fact);
    if (seen.has(key)) return;
    seen.add(key);
    facts.addContract(fact);
  };
  for (const call of calls) {
    const entry = table.find((candidate) => matches(candidate, call));
    if (entry === undefined) continue;
    const form = entry.forms.find((candidate) => arityFits(candidate, call.args.length));
    if (form !== undefined) for (const fact of callFacts(entry, form, call)) add(fact);
  }
  if (importsUnder(imports, ['com.rabbitmq.client'])) {
    for (const fact of amqpChannelConsumers(calls)) add(fact);
  }
  if (importsUnder(imports, AMQP10_IMPORTS)) {
    for (const fact of amqp10Facts(calls)) add(fact);
  }
}

const matches = (entry: BrokerCall, call: MessagingCall): boolean =>
  entry.methods.includes(call.method) &&
  receiverAccepted(call.receiver, entry.receiverTypes, entry.receiverName, entry.chained === true);

function arityFits(form: ArgumentForm, count: number): boolean {
  const [min, max] = typeof form.args === 'number' ? [form.args, form.args] : form.args;
  return count >= min && count <= max;
}

/** Base of a fact; the caller adds the destination. */
function base(entry: BrokerCall, call: MessagingCall): Omit<TopicFact, 'topic' | 'confidence'> {
  return {
    kind: entry.role === 'producer' ? 'topic_producer' : 'topic_consumer',
    broker: entry.broker,
    ...(call.symbol === undefined ? {} : { symbol: call.symbol }),
    line: call.line,
    via: `${entry.library} ${call.method}`,
  };
}

function callFacts(entry: BrokerCall, form: ArgumentForm, call: MessagingCall): TopicFact[] {
  const head = base(entry, call);
  if (form.topic !== undefined) {
    const arg = call.args[form.topic];
    if (arg === undefined) return [];
    if (arg.values === undefined) return [{ ...head, ...unresolvedTopic(arg.text) }];
    return arg.values.map((value) => ({
      ...head,
      topic: entry.topicOf === undefined ? value : entry.topicOf(value),
      confidence: arg.inferred === true || entry.topicOf !== undefined ? 'heuristic' : 'exact',
    }));
  }
  const exchange = form.exchange === undefined ? undefined : call.args[form.exchange];
  const key = form.routingKey === undefined ? undefined : call.args[form.routingKey];
  if (exchange === undefined || key === undefined) return [];
  const exchangeName = exchange.values?.length === 1 ? exchange.values[0] : undefined;
  if (exchangeName === undefined) return [{ ...head, ...unresolvedTopic(exchange.text) }];
  const keyName = key.values?.length === 1 ? key.values[0] : undefined;
  const confidence = exchange.inferred === true || key.inferred === true ? 'heuristic' : 'exact';
  if (exchangeName === '') {
    // The default exchange routes by queue name: the key is the queue.
    if (isReplyTo(key) || key.serverNamed === true) return [];
    if (keyName === undefined) return [{ ...head, ...unresolvedTopic(key.text) }];
    return [{ ...head, topic: keyName, confidence }];
  }
  return [
    {
      ...head,
      topic: exchangeName,
      ...(keyName === undefined || keyName === '' ? {} : { routingKey: keyName }),
      confidence,
    },
  ];
}
