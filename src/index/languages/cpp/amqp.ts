/**
 * RabbitMQ from C++: AMQP-CPP (`channel.publish(exchange, key, msg)`, `consume(queue)`,
 * `bindQueue(exchange, queue, key)`), SimpleAmqpClient (`BasicPublish(exchange, key, msg)`,
 * `BasicConsume(queue)`, `BindQueue(queue, exchange, key)`) and rmqcpp (a topology's `addExchange`,
 * `addQueue` and `bind` handles, `createProducer(topology, exchange)` + `send(msg, key)`,
 * `createConsumer(topology, queue)`). The library's header must be included. Names resolve from literals
 * and the file's initialised variables; a queue named by a call (`generateConsumerTag()`) is server-chosen.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { decodeEscapes } from '../shared/native-common.js';
import { oneLine, startLineOf } from '../shared/tree-utils.js';

type Library = 'AMQP-CPP' | 'SimpleAmqpClient' | 'rmqcpp';

const HEADERS: readonly (readonly [RegExp, Library])[] = [
  [/#\s*include\s*[<"]amqpcpp(\.h|\/)/, 'AMQP-CPP'],
  [/#\s*include\s*[<"]SimpleAmqpClient\//, 'SimpleAmqpClient'],
  [/#\s*include\s*[<"]rmqa_/, 'rmqcpp'],
];

/** Method → [role, queue/exchange argument, key argument] per library (bindings: queue, exchange, key). */
const CALLS: Record<Library, Record<string, readonly [string, number, number]>> = {
  'AMQP-CPP': { publish: ['publish', 0, 1], consume: ['consume', 0, -1], bindQueue: ['bind', 1, 0] },
  SimpleAmqpClient: {
    BasicPublish: ['publish', 0, 1],
    BasicConsume: ['consume', 0, -1],
    BindQueue: ['bind', 0, 1],
  },
  rmqcpp: { createConsumer: ['consume', 1, -1], bind: ['bind', 1, 0] },
};

type Name = { readonly value: string } | { readonly written: string } | { readonly generated: true };

interface Walk {
  readonly facts: FactBuilder;
  readonly library: Library;
  /** Initialised variables and members of the file, by name (several when names repeat). */
  readonly values: Map<string, Node[]>;
}

function stringOf(node: Node): string | undefined {
  if (node.type === 'string_literal')
    return decodeEscapes(
      node.namedChildren.map((c) => (c?.type === 'string_content' ? c.text : '')).join(''),
    );
  if (node.type === 'raw_string_literal') return node.text.replace(/^R"\w*\(|\)\w*"$/g, '');
  return undefined;
}

function written(node: Node): Name {
  const text = oneLine(node.text);
  return { written: text.length > 120 ? text.slice(0, 120) : text };
}

/** A name: a literal, a variable initialised once, `std::string("x")`; a call's result is server-chosen. */
function nameOf(node: Node, walk: Walk, depth = 0): Name {
  const literal = stringOf(node);
  if (literal !== undefined) return literal === '' ? { generated: true } : { value: literal };
  if (node.type === 'identifier' || node.type === 'field_identifier' || node.type === 'field_expression') {
    const key = node.type === 'field_expression' ? (node.childForFieldName('field')?.text ?? '') : node.text;
    const values = walk.values.get(key) ?? [];
    if (values.length === 1 && values[0] !== undefined && depth < 4)
      return nameOf(values[0], walk, depth + 1);
    return written(node);
  }
  if (node.type === 'call_expression') {
    const args = node.childForFieldName('arguments')?.namedChildren ?? [];
    const fn = node.childForFieldName('function')?.text ?? '';
    if (/string$/.test(fn) && args.length === 1 && args[0]) return nameOf(args[0], walk, depth + 1);
    return { generated: true };
  }
  if (node.type === 'binary_expression' && /generate|uuid|random/i.test(node.text))
    return { generated: true };
  return written(node);
}

/** What a rmqcpp handle variable was made by: `topology.addQueue("q", …)` → its first argument. */
function handleName(node: Node, method: string, walk: Walk): Name | undefined {
  if (node.type === 'call_expression' && calledMethod(node) === 'defaultExchange') return { generated: true };
  const values = node.type === 'identifier' ? (walk.values.get(node.text) ?? []) : [node];
  const made = values.length === 1 ? values[0] : undefined;
  if (made?.type !== 'call_expression' || calledMethod(made) !== method) return undefined;
  const first = made.childForFieldName('arguments')?.namedChildren[0];
  return first ? nameOf(first, walk) : undefined;
}

function calledMethod(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  return fn?.type === 'field_expression' ? fn.childForFieldName('field')?.text : undefined;
}

function argumentList(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (n): n is Node => n !== null && n.type !== 'comment',
  );
}

function emit(
  walk: Walk,
  kind: 'topic_producer' | 'topic_consumer',
  name: Name,
  line: number,
  via: string,
  extras: { routingKey?: string; queue?: string } = {},
): void {
  if ('generated' in name) return;
  const known = 'value' in name;
  walk.facts.addContract({
    kind,
    topic: known ? name.value : '',
    broker: 'amqp',
    ...(extras.routingKey === undefined ? {} : { routingKey: extras.routingKey }),
    ...(extras.queue === undefined ? {} : { queue: extras.queue }),
    ...(known ? {} : { unresolved: name.written }),
    line,
    confidence: known ? 'exact' : 'heuristic',
    via,
  });
}

/** Producers and consumers of the RabbitMQ library the file includes. */
export function collectCppAmqp(root: Node, source: string, facts: FactBuilder): void {
  const library = HEADERS.find(([pattern]) => pattern.test(source))?.[1];
  if (library === undefined) return;
  const walk: Walk = { facts, library, values: initialisedValues(root) };
  const calls = root.descendantsOfType('call_expression').filter((n): n is Node => n !== null);
  const bindings: { queue: string; exchange: Name; key?: string }[] = [];
  const consumes: { queue: Name; line: number; via: string }[] = [];
  const producerExchanges: Name[] = [];
  for (const call of calls) {
    const method = calledMethod(call) ?? '';
    const args = argumentList(call);
    const via = `${library} ${method}`;
    if (library === 'rmqcpp' && method === 'createProducer' && args[1]) {
      producerExchanges.push(handleName(args[1], 'addExchange', walk) ?? written(args[1]));
      continue;
    }
    if (library === 'rmqcpp' && method === 'send' && args.length === 3 && args[1]) {
      sendRmq(args[1], producerExchanges, startLineOf(call), walk);
      continue;
    }
    const rule = CALLS[library][method];
    if (rule === undefined) continue;
    const [role, first, second] = rule;
    const target = args[first];
    if (target === undefined) continue;
    const resolve = (node: Node, kind: 'addQueue' | 'addExchange'): Name =>
      library === 'rmqcpp' ? (handleName(node, kind, walk) ?? written(node)) : nameOf(node, walk);
    if (role === 'publish') {
      const exchange = nameOf(target, walk);
      const key = args[second] ? nameOf(args[second], walk) : { generated: true as const };
      if ('generated' in exchange) emit(walk, 'topic_producer', key, startLineOf(call), via);
      else
        emit(
          walk,
          'topic_producer',
          exchange,
          startLineOf(call),
          via,
          'value' in key ? { routingKey: key.value } : {},
        );
    } else if (role === 'consume') {
      consumes.push({ queue: resolve(target, 'addQueue'), line: startLineOf(call), via });
    } else {
      const queue = resolve(target, 'addQueue');
      const exchange = args[second] ? resolve(args[second], 'addExchange') : undefined;
      const keyNode = args[2];
      const key = keyNode ? nameOf(keyNode, walk) : undefined;
      if (exchange !== undefined && !('generated' in exchange))
        bindings.push({
          queue: JSON.stringify(queue),
          exchange,
          ...(key && 'value' in key ? { key: key.value } : {}),
        });
    }
  }
  for (const consume of consumes) {
    const bound = bindings.filter((b) => b.queue === JSON.stringify(consume.queue));
    if (bound.length === 0) {
      emit(walk, 'topic_consumer', consume.queue, consume.line, consume.via);
      continue;
    }
    const seen = new Set<string>();
    for (const binding of bound) {
      const id = `${JSON.stringify(binding.exchange)}\0${binding.key ?? ''}`;
      if (seen.has(id)) continue;
      seen.add(id);
      emit(walk, 'topic_consumer', binding.exchange, consume.line, consume.via, {
        ...(binding.key === undefined || binding.key === '' ? {} : { routingKey: binding.key }),
        ...('value' in consume.queue ? { queue: consume.queue.value } : {}),
      });
    }
  }
}

/** rmqcpp `send(message, key, …)`: to the exchange the file's producers were made for, when they agree. */
function sendRmq(keyNode: Node, exchanges: readonly Name[], line: number, walk: Walk): void {
  const distinct = new Set(exchanges.map((e) => JSON.stringify(e)));
  const exchange = distinct.size === 1 ? exchanges[0] : undefined;
  const key = nameOf(keyNode, walk);
  const via = 'rmqcpp send';
  if (exchange === undefined || 'generated' in exchange) {
    emit(walk, 'topic_producer', key, line, via);
    return;
  }
  emit(walk, 'topic_producer', exchange, line, via, 'value' in key ? { routingKey: key.value } : {});
}

/** Initialised variables and members of the file (`T x = v;`, `: d_x(v)`, `x = v;`), by name. */
function initialisedValues(root: Node): Map<string, Node[]> {
  const values = new Map<string, Node[]>();
  for (const node of root.descendantsOfType([
    'init_declarator',
    'field_initializer',
    'assignment_expression',
  ])) {
    if (node === null) continue;
    const target = node.namedChild(0);
    const value = node.type === 'field_initializer' ? node.namedChild(1)?.namedChild(0) : node.namedChild(1);
    if (target === null || value === null || value === undefined) continue;
    const key = target.type === 'field_expression' ? target.childForFieldName('field')?.text : target.text;
    if (key === undefined) continue;
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return values;
}
