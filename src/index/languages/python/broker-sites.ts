/**
 * Python message-broker call sites, read from the table in `brokers.ts`: publishes and subscriptions of the
 * libraries the file imports, and, for AMQP, the queues and exchanges it declares and binds. A name that
 * holds a declared object (`queue = await channel.declare_queue('q')`, `result.method.queue`) stands for
 * the destination it was declared with, so a consumer of a server-named queue is told from one of a named
 * queue. Facts are produced once the file has been read, when every binding of each queue is known.
 */
import type { Node } from 'web-tree-sitter';
import { PY_BROKERS, type BrokerCall, type BrokerLibrary, type ValueSlot } from './brokers.js';
import { slotArgument } from './contracts.js';
import { lookupBinding, receiverKey, type Frame, type PyScope } from './scope.js';
import { callArguments, dotted, resolveParts } from './values.js';
import {
  AmqpTopology,
  destinationOf,
  lastSegment,
  literalDestination,
  topicFact,
  type Destination,
  type PlacedFact,
} from '../shared/broker-topology.js';
import { startLineOf } from '../shared/tree-utils.js';

/** Attribute and subscript steps that read the name back from a declared object (`result.method.queue`). */
const NAME_READERS = new Set(['method', 'queue', 'name', 'QueueUrl', 'TopicArn']);

function unwrap(node: Node): Node {
  let current = node;
  while (current.type === 'await' || current.type === 'parenthesized_expression') {
    const inner = current.namedChildren[0];
    if (inner === null || inner === undefined) break;
    current = inner;
  }
  return current;
}

/** The items of a list, set or tuple argument; a `(topic, qos)` pair is one MQTT subscription. */
function itemsOf(node: Node): Node[] {
  if (node.type !== 'list' && node.type !== 'tuple' && node.type !== 'set') return [node];
  const items = node.namedChildren.filter((item): item is Node => item !== null && item.type !== 'comment');
  if (node.type === 'tuple' && items[1]?.type === 'integer') return items.slice(0, 1);
  return items.map((item) => (item.type === 'tuple' ? (item.namedChildren[0] ?? item) : item));
}

function dictKeys(node: Node): Node[] {
  if (node.type !== 'dictionary') return [node];
  return node.namedChildren.flatMap((pair) => {
    const key = pair?.type === 'pair' ? pair.childForFieldName('key') : null;
    return key === null ? [] : [key];
  });
}

export class PythonBrokerSites {
  private readonly libraries: readonly BrokerLibrary[];
  /** Names (`queue`, `self.exchange`) that hold a declared queue, exchange or topic. */
  private readonly declared = new Map<string, Destination>();
  private readonly topology = new AmqpTopology();
  private readonly placed: PlacedFact[] = [];

  constructor(private readonly scope: PyScope) {
    this.libraries = PY_BROKERS.filter((library) =>
      library.modules.some((module) => scope.importsModulePath(module)),
    );
  }

  /** `name = <declaration>`: the name now stands for what was declared. */
  assignment(left: Node, right: Node, frame: Frame): void {
    if (this.libraries.length === 0) return;
    const key = receiverKey(left);
    if (key === undefined) return;
    const held = this.heldDestination(right, frame);
    if (held === undefined) this.declared.delete(key);
    else this.declared.set(key, held);
  }

  call(node: Node, frame: Frame, owner: number | undefined): void {
    if (this.libraries.length === 0) return;
    const callee = node.childForFieldName('function');
    if (callee === null) return;
    const isMethod = callee.type === 'attribute';
    const name = isMethod ? (callee.childForFieldName('attribute')?.text ?? '') : callee.text;
    const receiver = isMethod ? callee.childForFieldName('object') : null;
    // A receiver the file bound to a Kafka client, an HTTP client or a stub is not a broker client here.
    const key = receiverKey(receiver);
    const bound = key === undefined ? undefined : lookupBinding(frame, key)?.kind;
    for (const library of this.libraries) {
      if (bound !== undefined && !(bound === 'dapr' && library.broker === 'dapr')) continue;
      for (const call of library.calls) {
        if (!call.names.includes(name) || !this.calleeFits(call, library, callee, isMethod)) continue;
        if (this.apply(library, call, node, receiver, frame, { line: startLineOf(node), owner, name }))
          return;
      }
    }
  }

  /** Every topic fact of the file. */
  resolve(): PlacedFact[] {
    return [...this.placed, ...this.topology.resolve()];
  }

  private calleeFits(call: BrokerCall, library: BrokerLibrary, callee: Node, isMethod: boolean): boolean {
    if (call.function !== true) return isMethod;
    const path = dotted(callee);
    if (path === undefined) return false;
    // A class of the same name from another module (`queue.Queue`, `asyncio.Queue`) is not the library's.
    const module = this.scope.originOf(path).module;
    return (
      module === undefined || library.modules.some((root) => module === root || module.startsWith(`${root}.`))
    );
  }

  /** Records what one matching call does; false when its arguments do not fit the entry. */
  private apply(
    library: BrokerLibrary,
    call: BrokerCall,
    node: Node,
    receiver: Node | null,
    frame: Frame,
    at: { readonly line: number; readonly owner: number | undefined; readonly name: string },
  ): boolean {
    const args = node.childForFieldName('arguments');
    const { positional, keywords } = callArguments(args);
    if (call.minArgs !== undefined && positional.length + keywords.size < call.minArgs) return false;
    const read = (slot: ValueSlot | undefined): Destination[] | undefined =>
      slot === undefined ? undefined : this.slotValues(slot, library, receiver, args, frame);
    const site = { line: at.line, owner: at.owner, via: `${library.lib} ${at.name}`, broker: library.broker };
    switch (call.role) {
      case 'declare': {
        const [queue] = read(call.queue) ?? [];
        const [exchange] = read(call.exchange) ?? [];
        if (queue !== undefined && exchange !== undefined)
          this.topology.bind(queue, exchange, (read(call.routingKey) ?? [])[0]);
        return queue !== undefined || exchange !== undefined || (read(call.topic) ?? []).length > 0;
      }
      case 'bind': {
        const [queue] = read(call.queue) ?? [];
        const [exchange] = read(call.exchange) ?? [];
        if (queue === undefined || exchange === undefined) return false;
        this.topology.bind(queue, exchange, (read(call.routingKey) ?? [])[0]);
        return true;
      }
      case 'publish':
        return library.amqp === true
          ? this.amqpPublish(call, read, site)
          : this.topics('topic_producer', call, read, site);
      case 'consume': {
        if (library.amqp !== true) return this.topics('topic_consumer', call, read, site);
        const queues = read(call.queue) ?? [];
        for (const queue of queues) this.topology.consume(queue, site);
        return queues.length > 0;
      }
    }
  }

  private amqpPublish(
    call: BrokerCall,
    read: (slot: ValueSlot | undefined) => Destination[] | undefined,
    site: Parameters<AmqpTopology['publish']>[2],
  ): boolean {
    const [exchange] = read(call.exchange) ?? [];
    const [routingKey] = read(call.routingKey) ?? [];
    return this.topology.publishCall(exchange, routingKey, call.exchange?.receiver === true, site);
  }

  private topics(
    kind: 'topic_producer' | 'topic_consumer',
    call: BrokerCall,
    read: (slot: ValueSlot | undefined) => Destination[] | undefined,
    site: Parameters<AmqpTopology['publish']>[2],
  ): boolean {
    const destinations = read(call.topic) ?? [];
    if (destinations.length === 0) return false;
    for (const destination of destinations) {
      const topic = call.lastSegment === true ? lastSegment(destination) : destination;
      if (topic.name === '') continue;
      this.placed.push({ fact: topicFact(kind, topic, site), owner: site.owner });
    }
    return true;
  }

  /** The destinations a slot gives: none when the argument is absent or the receiver is nothing declared. */
  private slotValues(
    slot: ValueSlot,
    library: BrokerLibrary,
    receiver: Node | null,
    args: Node | null,
    frame: Frame,
  ): Destination[] {
    if (slot.receiver === true) {
      if (receiver === null) return [];
      const last = receiver.type === 'attribute' ? receiver.childForFieldName('attribute')?.text : undefined;
      if (library.defaultExchange !== undefined && last === library.defaultExchange)
        return [literalDestination('')];
      const held = this.heldDestination(receiver, frame);
      return held === undefined ? [] : [held];
    }
    const { positional, keywords } = callArguments(args);
    const nodes =
      slot.rest === true && slot.position !== undefined
        ? positional.slice(slot.position)
        : [slotArgument(slot, positional, keywords)].filter((node): node is Node => node !== undefined);
    const values = nodes.flatMap((node) =>
      slot.dictKeys === true ? dictKeys(node) : slot.many === true ? itemsOf(node) : [node],
    );
    return values.map((node) => this.destination(node, frame));
  }

  private destination(node: Node, frame: Frame): Destination {
    const held = this.heldDestination(node, frame);
    if (held !== undefined) return held;
    return destinationOf(resolveParts(node, this.scope.valueScope(frame)), node.text);
  }

  /**
   * The destination an expression holds when it is a declaration (`channel.declare_queue('q')`), a name
   * assigned one, or a read of its name (`result.method.queue`, `q.name`, `resp['QueueUrl']`).
   */
  private heldDestination(expression: Node, frame: Frame): Destination | undefined {
    let node = unwrap(expression);
    for (;;) {
      const key = receiverKey(node);
      const known = key === undefined ? undefined : this.declared.get(key);
      if (known !== undefined) return known;
      if (node.type === 'call') return this.declaredBy(node, frame);
      const step =
        node.type === 'attribute'
          ? node.childForFieldName('attribute')?.text
          : node.type === 'subscript'
            ? node.childForFieldName('subscript')?.text.replace(/['"]/g, '')
            : undefined;
      const inner =
        node.type === 'attribute' ? node.childForFieldName('object') : node.childForFieldName('value');
      if (step === undefined || !NAME_READERS.has(step) || inner === null) return undefined;
      node = unwrap(inner);
    }
  }

  /** What a declaring call names: its queue, exchange or topic (a queue named `''` is named by the server). */
  private declaredBy(node: Node, frame: Frame): Destination | undefined {
    const callee = node.childForFieldName('function');
    if (callee === null) return undefined;
    const isMethod = callee.type === 'attribute';
    const name = isMethod ? (callee.childForFieldName('attribute')?.text ?? '') : callee.text;
    for (const library of this.libraries) {
      for (const call of library.calls) {
        if (call.role !== 'declare' || !call.names.includes(name)) continue;
        if (!this.calleeFits(call, library, callee, isMethod)) continue;
        const slot = call.queue ?? call.exchange ?? call.topic;
        const args = node.childForFieldName('arguments');
        const { positional, keywords } = callArguments(args);
        const argument = slot === undefined ? undefined : slotArgument(slot, positional, keywords);
        if (argument === undefined) {
          // `declare_queue()` / `Queue()` without a name: the server (or the library) names it.
          return call.queue === undefined ? undefined : { name: '', identity: `#${node.startIndex}` };
        }
        const destination = this.destination(argument, frame);
        return destination.name === '' ? { name: '', identity: `#${node.startIndex}` } : destination;
      }
    }
    return undefined;
  }
}
