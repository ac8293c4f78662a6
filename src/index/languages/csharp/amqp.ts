/**
 * RabbitMQ from C#: RabbitMQ.Client (AMQP 0-9-1) and RabbitMQ.AMQP.Client (AMQP 1.0 builders). A publisher
 * names an exchange and a routing key, or the queue itself through the default exchange; a consumer names
 * a queue, and what it receives depends on the bindings of that queue. Bindings can follow the consume call,
 * so consumers are resolved when the file has been read.
 */
import type { Node } from 'web-tree-sitter';
import { RABBITMQ_AMQP10, RABBITMQ_CLIENT } from './brokers.js';
import {
  argumentAt,
  asWritten,
  destinationOf,
  stringOf,
  unwrap,
  type Arguments,
  type Destination,
} from './destination.js';
import { csArguments, csDotted, csLiteral, type CsValueScope } from './values.js';
import type { TopicEmitter } from './messaging-types.js';

/** The call being read, with its arguments resolved against the scope of its site. */
export interface AmqpSite {
  readonly node: Node;
  readonly method: string;
  readonly args: Arguments;
  readonly values: CsValueScope;
  readonly line: number;
  readonly owner: number | undefined;
}

/** A queue as a consumer or a binding names it. */
interface QueueRef {
  /** Same key, same queue: its resolved name, else the expression that holds it. */
  readonly key: string;
  readonly name?: string;
  readonly exact: boolean;
  /** The server chose the name (`QueueDeclare()`): it connects nothing by itself. */
  readonly serverNamed: boolean;
  readonly unresolved?: string;
}

/** A queue as written at its site; read when the file is done, once every declaration has been seen. */
interface QueueSite {
  readonly node: Node;
  readonly values: CsValueScope;
}

interface QueueBinding {
  readonly queue: QueueSite;
  readonly exchange: Destination;
  /** The binding key when known; undefined when it is computed (a loop over the program's arguments). */
  readonly key?: string;
}

interface QueueConsumer {
  readonly queue: QueueSite;
  readonly line: number;
  readonly owner: number | undefined;
  readonly via: string;
}

/** Calls that declare a queue and return it; without a name the server names it. */
const QUEUE_DECLARATIONS: ReadonlySet<string> = new Set([...RABBITMQ_CLIENT.declareQueue.methods, 'Queue']);

/** Calls that make up a fresh name. */
const RANDOM_NAMES: ReadonlySet<string> = new Set(['Guid.NewGuid', 'System.Guid.NewGuid']);

/** The calls chained after `node` (`node.A(x).B(y)` → A, B), outermost last. */
function chainAbove(node: Node): { readonly name: string; readonly args: Arguments }[] {
  const calls: { name: string; args: Arguments }[] = [];
  let current = node;
  for (;;) {
    const access = current.parent;
    const call = access?.parent;
    if (
      access?.type !== 'member_access_expression' ||
      access.childForFieldName('expression')?.id !== current.id ||
      call?.type !== 'invocation_expression'
    )
      return calls;
    calls.push({
      name: csDotted(access.childForFieldName('name')) ?? '',
      args: csArguments(call.childForFieldName('arguments')),
    });
    current = call;
  }
}

/** The first call of a fluent chain and its arguments (`management.Exchange("x").Type("direct")` → Exchange). */
function chainStart(node: Node): { readonly name: string; readonly args: Arguments } | undefined {
  let current = unwrap(node);
  let first: { name: string; args: Arguments } | undefined;
  while (current.type === 'invocation_expression') {
    const callee = current.childForFieldName('function');
    if (callee?.type !== 'member_access_expression') break;
    first = {
      name: csDotted(callee.childForFieldName('name')) ?? '',
      args: csArguments(current.childForFieldName('arguments')),
    };
    const receiver = callee.childForFieldName('expression');
    if (receiver === null) break;
    current = receiver;
  }
  return first;
}

export class CsAmqp {
  /** Variables and fields holding a server-named queue, or the declaration result that carries its name. */
  private readonly serverNamed = new Set<string>();
  /** AMQP 1.0: variables holding an exchange specification, with the expression of its name. */
  private readonly exchangeSpecs = new Map<string, Node>();
  /** Variables holding a queue declared by name (or its declaration result), with that name's expression. */
  private readonly namedQueues = new Map<string, Node>();
  private readonly bindings: QueueBinding[] = [];
  private readonly consumers: QueueConsumer[] = [];

  constructor(private readonly emit: TopicEmitter) {}

  /** `name = value`: remembers what the variable holds when it is a server-named queue or an exchange. */
  declared(name: string, value: Node): void {
    const key = name.replace(/^this\./, '');
    if (this.isServerNamed(value)) this.serverNamed.add(key);
    const queue = this.declaredName(value);
    if (queue !== undefined) this.namedQueues.set(key, queue);
    const start = chainStart(value);
    const exchange = start?.args.positional[0];
    if (start?.name === 'Exchange' && exchange !== undefined) this.exchangeSpecs.set(key, exchange);
  }

  /** A RabbitMQ.Client call; false when the method is none of its calls. */
  clientCall(site: AmqpSite): boolean {
    const { method, args } = site;
    const client = RABBITMQ_CLIENT;
    const via = `${client.library} ${method}`;
    if ((client.publish.methods as readonly string[]).includes(method)) {
      const exchange = argumentAt(args, client.publish.exchange);
      if (exchange === undefined) return false;
      this.publish(site, exchange, argumentAt(args, client.publish.routingKey), via);
    } else if ((client.consume.methods as readonly string[]).includes(method)) {
      let queue = argumentAt(args, client.consume.queue);
      // The v6 extension `BasicConsume(consumer, queue, autoAck)` takes the consumer first.
      if (!args.named.has('queue') && queue !== undefined && /consumer/i.test(queue.text))
        queue = args.positional[1];
      if (queue === undefined) return false;
      this.consumers.push({
        queue: { node: queue, values: site.values },
        line: site.line,
        owner: site.owner,
        via,
      });
    } else if ((client.bind.methods as readonly string[]).includes(method)) {
      const queue = argumentAt(args, client.bind.queue);
      const exchange = argumentAt(args, client.bind.exchange);
      if (queue === undefined || exchange === undefined) return false;
      this.bind(queue, exchange, argumentAt(args, client.bind.routingKey), site.values);
    } else {
      return (client.declareQueue.methods as readonly string[]).includes(method);
    }
    return true;
  }

  /** A RabbitMQ.AMQP.Client builder (`connection.PublisherBuilder()…`); false for any other call. */
  builderCall(site: AmqpSite): boolean {
    const amqp = RABBITMQ_AMQP10;
    const isProducer = (amqp.producers as readonly string[]).includes(site.method);
    const isConsumer = (amqp.consumers as readonly string[]).includes(site.method);
    if (!isProducer && !isConsumer && site.method !== amqp.binding) return false;
    const chain = chainAbove(site.node);
    const first = (names: readonly string[]): Node | undefined =>
      chain.find((call) => names.includes(call.name))?.args.positional[0];
    const queue = first(amqp.queue);
    const exchange = first(amqp.exchange);
    const key = first([amqp.key]);
    const via = `${amqp.library} ${site.method}`;
    if (isProducer) {
      if (exchange !== undefined) this.publish(site, exchange, key, via);
      else if (queue !== undefined) this.publish(site, undefined, queue, via);
    } else if (isConsumer) {
      if (queue !== undefined)
        this.consumers.push({
          queue: { node: queue, values: site.values },
          line: site.line,
          owner: site.owner,
          via,
        });
    } else if (queue !== undefined && exchange !== undefined) {
      const spec = exchange.type === 'identifier' ? this.exchangeSpecs.get(exchange.text) : undefined;
      this.bind(queue, spec ?? exchange, key, site.values);
    }
    return true;
  }

  /** A publish to `exchange` (undefined or `""`: the default exchange, where the key is the queue). */
  private publish(
    site: AmqpSite,
    exchange: Node | undefined,
    routingKey: Node | undefined,
    via: string,
  ): void {
    const base = { kind: 'topic_producer', broker: 'amqp', line: site.line, via } as const;
    const exchangeName = exchange === undefined ? { text: '', exact: true } : stringOf(exchange, site.values);
    if (exchangeName?.text === '') {
      // The default exchange routes by queue name; a reply to a server-named queue connects nothing.
      if (routingKey === undefined || this.isServerNamed(routingKey)) return;
      this.emit({ ...base, ...destinationOf(routingKey, site.values) }, site.owner);
      return;
    }
    const key = routingKey === undefined ? undefined : stringOf(routingKey, site.values);
    const keyPart = key === undefined || key.text === '' ? {} : { routingKey: key.text };
    this.emit(
      exchangeName === undefined || exchange === undefined
        ? {
            ...base,
            topic: '',
            confidence: 'heuristic',
            unresolved: asWritten(exchange ?? site.node),
            ...keyPart,
          }
        : {
            ...base,
            topic: exchangeName.text,
            confidence: exchangeName.exact ? 'exact' : 'heuristic',
            ...keyPart,
          },
      site.owner,
    );
  }

  private bind(queue: Node, exchange: Node, key: Node | undefined, values: CsValueScope): void {
    const bindingKey = key === undefined ? undefined : stringOf(key, values)?.text;
    this.bindings.push({
      queue: { node: queue, values },
      exchange: destinationOf(exchange, values),
      ...(bindingKey === undefined ? {} : { key: bindingKey }),
    });
  }

  private queueRef({ node, values }: QueueSite): QueueRef {
    const held = (csDotted(unwrap(node)) ?? unwrap(node).text).replace(/^this\./, '');
    if (this.isServerNamed(node)) return { key: `expr:${held}`, serverNamed: true, exact: false };
    const name = stringOf(this.declaredName(node) ?? node, values);
    if (name !== undefined && name.text !== '')
      return { key: `name:${name.text}`, name: name.text, exact: name.exact, serverNamed: false };
    return { key: `expr:${held}`, serverNamed: false, exact: false, unresolved: asWritten(node) };
  }

  /**
   * The name a queue was declared with, when the expression is that declaration or its result
   * (`channel.QueueDeclare("orders").QueueName`, a variable holding it, `management.Queue("orders")`).
   */
  private declaredName(node: Node): Node | undefined {
    const inner = unwrap(node);
    if (inner.type === 'identifier') return this.namedQueues.get(inner.text);
    if (inner.type === 'member_access_expression') {
      const receiver = inner.childForFieldName('expression');
      return receiver === null ? undefined : this.declaredName(receiver);
    }
    const start = chainStart(inner);
    if (start === undefined || !QUEUE_DECLARATIONS.has(start.name)) return undefined;
    const queue = argumentAt(start.args, RABBITMQ_CLIENT.declareQueue.queue);
    return queue === undefined || csLiteral(queue) === '' ? undefined : queue;
  }

  /** True when the expression is a queue the server (or a random name) named, or the result of declaring one. */
  private isServerNamed(node: Node): boolean {
    const inner = unwrap(node);
    if (inner.type === 'identifier') return this.serverNamed.has(inner.text);
    if (inner.type === 'member_access_expression') {
      const path = csDotted(inner);
      if (path?.startsWith('this.') === true && !path.slice(5).includes('.'))
        return this.serverNamed.has(path.slice(5));
      const receiver = inner.childForFieldName('expression');
      return receiver !== null && this.isServerNamed(receiver);
    }
    if (inner.type !== 'invocation_expression') return false;
    const callee = inner.childForFieldName('function');
    if (callee?.type !== 'member_access_expression') return false;
    const method = csDotted(callee.childForFieldName('name')) ?? '';
    // A name made up at run time (`Guid.NewGuid().ToString()`) is as private as one the server picks.
    if (RANDOM_NAMES.has(csDotted(callee) ?? '')) return true;
    if (QUEUE_DECLARATIONS.has(method)) {
      const queue = argumentAt(
        csArguments(inner.childForFieldName('arguments')),
        RABBITMQ_CLIENT.declareQueue.queue,
      );
      return queue === undefined || csLiteral(queue) === '';
    }
    const receiver = callee.childForFieldName('expression');
    return receiver !== null && this.isServerNamed(receiver);
  }

  /** The consumers, each with the exchanges its queue is bound to. */
  finish(): void {
    for (const consumer of this.consumers) {
      const base = {
        kind: 'topic_consumer',
        broker: 'amqp',
        line: consumer.line,
        via: consumer.via,
      } as const;
      const queue = this.queueRef(consumer.queue);
      const bindings = this.bindings.filter((binding) => this.queueRef(binding.queue).key === queue.key);
      if (bindings.length === 0) {
        // A server-named queue bound to nothing is a reply queue: nobody publishes to it by name.
        if (queue.serverNamed) continue;
        this.emit(
          queue.name === undefined
            ? { ...base, topic: '', confidence: 'heuristic', unresolved: queue.unresolved ?? queue.key }
            : { ...base, topic: queue.name, confidence: queue.exact ? 'exact' : 'heuristic' },
          consumer.owner,
        );
        continue;
      }
      const seen = new Set<string>();
      for (const binding of bindings) {
        const identity = JSON.stringify([binding.exchange, binding.key]);
        if (seen.has(identity)) continue;
        seen.add(identity);
        this.emit(
          {
            ...base,
            ...binding.exchange,
            ...(queue.name === undefined ? {} : { queue: queue.name }),
            ...(binding.key === undefined || binding.key === '' ? {} : { routingKey: binding.key }),
          },
          consumer.owner,
        );
      }
    }
  }
}
