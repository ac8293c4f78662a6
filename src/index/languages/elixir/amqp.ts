/**
 * RabbitMQ through the `amqp` hex package: `AMQP.Basic.publish(chan, exchange, key, payload)` publishes
 * (the default exchange `""` routes to the queue the key names), `AMQP.Basic.consume(chan, queue)` consumes,
 * and `AMQP.Queue.bind(chan, queue, exchange, routing_key: key)` binds, all in the file. A queue bound to a
 * variable by `{:ok, %{queue: q}} = AMQP.Queue.declare(chan, "")` is server-named. Declarations alone are
 * no fact.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { oneLine, startLineOf } from '../shared/tree-utils.js';
import { callArgs, callName, literalString, named } from './syntax.js';

type Name = { readonly value: string } | { readonly written: string } | { readonly generated: true };

const ALIASED = /\b(alias|import|use)\s+AMQP\b/;

/** `AMQP.Basic.publish` or, where AMQP is aliased, `Basic.publish`: the function under `AMQP.<module>`. */
function amqpCall(call: Node, aliased: boolean): string | undefined {
  const name = callName(call);
  const module = name?.receiver?.replace(/^AMQP\./, '');
  if (name === undefined || module === undefined) return undefined;
  if (name.receiver !== `AMQP.${module}` && !(aliased && /^(Basic|Queue)$/.test(module))) return undefined;
  return `${module}.${name.name}`;
}

export function collectElixirAmqp(root: Node, source: string, facts: FactBuilder): void {
  if (!source.includes('AMQP')) return;
  const aliased = ALIASED.test(source);
  const calls = root.descendantsOfType('call').filter((n): n is Node => n !== null);
  const declared = declaredQueues(root, aliased);
  const nameOf = (node: Node | undefined): Name => {
    if (node === undefined) return { generated: true };
    const literal = literalString(node);
    if (literal !== undefined) return literal === '' ? { generated: true } : { value: literal };
    if (node.type === 'identifier' && declared.has(node.text)) return declared.get(node.text) as Name;
    const text = oneLine(node.text);
    return { written: text.length > 120 ? text.slice(0, 120) : text };
  };
  const bindings: { queue: string; exchange: Name; key?: string }[] = [];
  const consumes: { queue: Name; line: number }[] = [];
  for (const call of calls) {
    const fn = amqpCall(call, aliased);
    const { positional, keywords } = callArgs(call);
    if (fn === 'Basic.publish' && positional.length >= 4) {
      const exchange = nameOf(positional[1]);
      const key = nameOf(positional[2]);
      const line = startLineOf(call);
      if ('generated' in exchange) emit(facts, 'topic_producer', key, line, 'amqp Basic.publish');
      else
        emit(
          facts,
          'topic_producer',
          exchange,
          line,
          'amqp Basic.publish',
          'value' in key ? { routingKey: key.value } : {},
        );
    } else if (fn === 'Basic.consume' && positional.length >= 2) {
      consumes.push({ queue: nameOf(positional[1]), line: startLineOf(call) });
    } else if (fn === 'Queue.bind' && positional.length >= 3) {
      const key = nameOf(keywords.get('routing_key'));
      bindings.push({
        queue: JSON.stringify(nameOf(positional[1])),
        exchange: nameOf(positional[2]),
        ...('value' in key ? { key: key.value } : {}),
      });
    }
  }
  for (const consume of consumes) {
    const bound = bindings.filter(
      (b) => b.queue === JSON.stringify(consume.queue) && !('generated' in b.exchange),
    );
    if (bound.length === 0) emit(facts, 'topic_consumer', consume.queue, consume.line, 'amqp Basic.consume');
    const seen = new Set<string>();
    for (const binding of bound) {
      const id = `${JSON.stringify(binding.exchange)}\0${binding.key ?? ''}`;
      if (seen.has(id)) continue;
      seen.add(id);
      emit(facts, 'topic_consumer', binding.exchange, consume.line, 'amqp Basic.consume', {
        ...(binding.key === undefined ? {} : { routingKey: binding.key }),
        ...('value' in consume.queue ? { queue: consume.queue.value } : {}),
      });
    }
  }
}

/** `{:ok, %{queue: q}} = AMQP.Queue.declare(chan, name, …)` and `q = "name"`: the queue each variable holds. */
function declaredQueues(root: Node, aliased: boolean): Map<string, Name> {
  const queues = new Map<string, Name>();
  for (const match of root.descendantsOfType('binary_operator')) {
    if (match === null || match.childForFieldName('operator')?.text !== '=') continue;
    const left = match.childForFieldName('left');
    const right = match.childForFieldName('right');
    if (left === null || right === null) continue;
    if (left.type === 'identifier') {
      const literal = literalString(right);
      if (literal !== undefined)
        queues.set(left.text, literal === '' ? { generated: true } : { value: literal });
      continue;
    }
    if (right.type !== 'call' || amqpCall(right, aliased) !== 'Queue.declare') continue;
    const variable = /\bqueue:\s*([a-z_]\w*)/.exec(left.text)?.[1];
    const name = named(right).length > 0 ? callArgs(right).positional[1] : undefined;
    const literal = name === undefined ? '' : literalString(name);
    if (variable !== undefined)
      queues.set(
        variable,
        literal === undefined || literal === '' ? { generated: true } : { value: literal },
      );
  }
  return queues;
}

function emit(
  facts: FactBuilder,
  kind: 'topic_producer' | 'topic_consumer',
  name: Name,
  line: number,
  via: string,
  extras: { readonly routingKey?: string; readonly queue?: string } = {},
): void {
  if ('generated' in name) return;
  const known = 'value' in name;
  facts.addContract({
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
