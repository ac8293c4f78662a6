/**
 * AMQP (RabbitMQ) calls of one file put together: a consumer's topic is the exchange its queue is bound to
 * (`bindQueue(q.queue, 'logs', '')`), so every `consume`, `bindQueue` and `assertQueue` of the file is
 * collected before any fact is written. A publish to exchange E with key K is `topic: E, routingKey: K`; to
 * the default exchange `''` it is the queue K. A server-named queue (`assertQueue('')`) bound to nothing is
 * an RPC reply queue and gives no fact; declaring a queue or an exchange alone is neither side.
 */
import type { FactBuilder } from '../shared/fact-builder.js';
import { destinations, topicFact, type Dest, type EventCall } from './event-facts.js';
import type { FileState } from './model.js';
import { itemsOf, topicName } from './topic-names.js';

type AmqpCall = EventCall;

/** RabbitMQ's direct reply-to pseudo-queue: the reply side of an RPC call, not a named destination. */
const REPLY_TO = 'amq.rabbitmq.reply-to';

const files = new WeakMap<FileState, AmqpCall[]>();

/** Collects an AMQP call; the file's calls are resolved together, after every other pending rule of the file. */
export function amqpCall(state: FileState, out: FactBuilder, call: AmqpCall): void {
  let calls = files.get(state);
  if (calls !== undefined) {
    calls.push(call);
    return;
  }
  calls = [call];
  files.set(state, calls);
  // Pending work runs in source order: the rest of the file's calls are collected by the end of this turn.
  state.pending.push(() => resolveFile(state, out, calls));
}

function argDest(call: AmqpCall, pos: number | undefined): Dest | undefined {
  if (pos === undefined) return undefined;
  const val = call.vals[pos];
  return val === undefined ? undefined : { val, text: call.texts[pos] ?? '' };
}

/** A name when the value resolves (`''` included), else undefined. */
function nameOf(state: FileState, dest: Dest | undefined): { value: string; exact: boolean } | undefined {
  return dest === undefined ? undefined : topicName(dest.val, state.tables);
}

/**
 * The identity of a queue argument, so `consume(q.queue)` meets `bindQueue(q.queue, …)`: its name when it
 * resolves, `server` for a server-named queue, else its text.
 */
function queueIdentity(state: FileState, dest: Dest, declared: ReadonlyMap<string, Dest>): string {
  const alias = declared.get(dest.text.replace(/\s+/g, ''));
  const name = nameOf(state, alias ?? dest);
  if (name === undefined) return `text:${dest.text.replace(/\s+/g, '')}`;
  return name.value === '' ? `server:${dest.text}` : `name:${name.value}`;
}

function resolveFile(state: FileState, out: FactBuilder, calls: readonly AmqpCall[]): void {
  // `const q = await ch.assertQueue('x')`: `q.queue` names queue 'x'.
  const declared = new Map<string, Dest>();
  for (const call of calls) {
    const queue = argDest(call, call.rule.dest.pos);
    if (call.rule.role !== 'amqpDeclare' || queue === undefined) continue;
    for (const name of call.boundTo) declared.set(name === '' ? 'queue' : `${name}.queue`, queue);
  }
  const bindings = new Map<string, AmqpCall[]>();
  for (const call of calls) {
    const queue = argDest(call, call.rule.dest.pos);
    if (call.rule.role !== 'amqpBind' || queue === undefined) continue;
    const id = queueIdentity(state, queue, declared);
    bindings.set(id, [...(bindings.get(id) ?? []), call]);
  }
  for (const call of calls) {
    if (call.rule.role === 'amqpPublish') publish(state, out, call);
    else if (call.rule.role === 'amqpSend') {
      for (const dest of destinations(call.rule.dest, call, state.tables))
        out.addContract(topicFact(state, 'topic_producer', 'amqp', dest, call.via, call.site));
    } else if (call.rule.role === 'amqpConsume') consume(state, out, call, declared, bindings);
  }
}

function publish(state: FileState, out: FactBuilder, call: AmqpCall): void {
  const exchange = argDest(call, call.rule.dest.pos);
  const key = argDest(call, call.rule.key);
  if (exchange === undefined) return;
  const exchangeName = nameOf(state, exchange);
  if (exchangeName?.value === '') {
    // The default exchange routes by queue name: the key is the queue.
    if (key !== undefined)
      out.addContract(topicFact(state, 'topic_producer', 'amqp', key, call.via, call.site));
    return;
  }
  const routing = nameOf(state, key);
  out.addContract(
    topicFact(state, 'topic_producer', 'amqp', exchange, call.via, call.site, false, {
      ...(routing === undefined || routing.value === '' ? {} : { routingKey: routing.value }),
      exact: routing?.exact ?? true,
    }),
  );
}

function consume(
  state: FileState,
  out: FactBuilder,
  call: AmqpCall,
  declared: ReadonlyMap<string, Dest>,
  bindings: ReadonlyMap<string, readonly AmqpCall[]>,
): void {
  const queue = argDest(call, call.rule.dest.pos);
  if (queue === undefined) return;
  const id = queueIdentity(state, queue, declared);
  if (id === `name:${REPLY_TO}`) return;
  const binds = bindings.get(id) ?? [];
  if (binds.length === 0) {
    if (!id.startsWith('server:'))
      out.addContract(
        topicFact(state, 'topic_consumer', 'amqp', declared.get(queue.text) ?? queue, call.via, call.site),
      );
    return;
  }
  const queueName = id.startsWith('name:') ? id.slice('name:'.length) : undefined;
  const seen = new Set<string>();
  for (const bind of binds) {
    const exchange = argDest(bind, bind.rule.exchange);
    if (exchange === undefined) continue;
    const exchangeName = nameOf(state, exchange);
    for (const key of bindingKeys(state, bind)) {
      const routingKey = key === undefined || key.value === '' ? undefined : key.value;
      const dedupe = `${exchangeName?.value ?? exchange.text}\u0000${routingKey ?? ''}`;
      if (seen.has(dedupe)) continue;
      seen.add(dedupe);
      out.addContract(
        topicFact(state, 'topic_consumer', 'amqp', exchange, call.via, call.site, false, {
          ...(routingKey === undefined ? {} : { routingKey }),
          ...(queueName === undefined ? {} : { queue: queueName }),
          exact: key?.exact ?? true,
        }),
      );
    }
  }
}

/**
 * The binding keys of a `bindQueue`: one, or each item of the constant array its key loops over
 * (`for (const key of KEYS)`); undefined for a key read at run time (argv), which gives no routing key.
 */
function bindingKeys(state: FileState, bind: AmqpCall): ({ value: string; exact: boolean } | undefined)[] {
  const pos = bind.rule.key;
  if (pos === undefined) return [undefined];
  const looped = bind.loops[pos];
  if (looped === undefined) return [nameOf(state, argDest(bind, pos))];
  const items = itemsOf(looped, state.tables);
  return items === undefined ? [undefined] : items.map((val) => topicName(val, state.tables));
}
