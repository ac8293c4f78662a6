/**
 * RabbitMQ from Rust: lapin (`basic_publish(exchange, key, …)`, `basic_consume(queue, …)`,
 * `queue_bind(queue, exchange, key, …)`) and amqprs, whose channel methods take argument builders
 * (`BasicPublishArguments::new(exchange, key)`, `BasicConsumeArguments::default().queue(…)`). Queues are
 * followed to their declaration (`queue.name()`, `let (name, _, _) = ch.queue_declare(args)`), so a
 * server-named queue is known as one; consumers are joined with the file's bindings once it is walked.
 */
import type { Node } from 'web-tree-sitter';
import { destinationOf, emitTopic, unwrapString, usesCrate, type Destination } from './messaging.js';
import { argumentsOf, methodCall, peel, valuesOf, type RustFile, type RustScope } from './values.js';
import { startLineOf } from '../shared/tree-utils.js';
import { distinctBindings, type BoundReading } from '../shared/topic-fact.js';

type QueueRef =
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'server-named'; readonly id: number }
  | { readonly kind: 'unknown'; readonly written: string };

interface FileState {
  readonly bindings: { readonly queue: string; readonly exchange: Destination; readonly key?: string }[];
  readonly consumes: {
    readonly queue: QueueRef;
    readonly line: number;
    readonly via: string;
    readonly scope: RustScope;
  }[];
}

const states = new WeakMap<RustFile, FileState>();

function stateOf(file: RustFile): FileState {
  let state = states.get(file);
  if (state === undefined) states.set(file, (state = { bindings: [], consumes: [] }));
  return state;
}

const keyOf = (queue: QueueRef): string =>
  queue.kind === 'named' ? `name:${queue.name}` : queue.kind === 'server-named' ? `anon:${queue.id}` : '';

/** An amqprs builder: the constructor's type and arguments, and the setters called on it (last call wins). */
interface Builder {
  readonly type: string;
  readonly args: readonly Node[];
  readonly setters: ReadonlyMap<string, Node>;
}

function builderOf(node: Node, scope: RustScope, depth = 0): Builder | undefined {
  let expr = peel(node);
  if (expr.type === 'identifier' && depth < 4) {
    const values = valuesOf(expr.text, scope);
    return values?.length === 1 && values[0] !== undefined
      ? builderOf(values[0], scope, depth + 1)
      : undefined;
  }
  const setters = new Map<string, Node>();
  for (let i = 0; i < 16 && expr.type === 'call_expression'; i++) {
    const call = methodCall(expr);
    if (call === undefined) {
      const fn = expr.childForFieldName('function');
      const type = fn?.type === 'scoped_identifier' ? fn.childForFieldName('path')?.text : undefined;
      return type === undefined
        ? undefined
        : { type: type.split('::').pop() ?? type, args: argumentsOf(expr), setters };
    }
    const arg = argumentsOf(expr)[0];
    if (arg !== undefined && !setters.has(call.name)) setters.set(call.name, arg);
    expr = peel(call.receiver);
  }
  return undefined;
}

/** A builder argument: its setter if called, else the constructor's argument at `index`. */
function builderArg(builder: Builder, setter: string, index: number): Node | undefined {
  return builder.setters.get(setter) ?? builder.args[index];
}

/** Records or emits what a RabbitMQ channel call means; true when it was one. */
export function onAmqpCall(call: Node, method: string, scope: RustScope): boolean {
  const lapin = usesCrate(scope.file, 'lapin');
  const amqprs = usesCrate(scope.file, 'amqprs');
  if (!lapin && !amqprs) return false;
  const args = argumentsOf(call);
  const line = startLineOf(call);
  if (lapin && method === 'basic_publish' && args.length === 5) {
    publish(args[0], args[1], `lapin ${method}`, line, scope);
  } else if (lapin && method === 'basic_consume' && args.length === 4 && args[0] !== undefined) {
    consume(queueOf(args[0], scope), `lapin ${method}`, line, scope);
  } else if (lapin && method === 'queue_bind' && args.length === 5) {
    bind(args[0], args[1], args[2], scope);
  } else if (amqprs && /^basic_(publish|consume(_rx)?)$/.test(method)) {
    const builder = args.length === 0 ? undefined : builderOf(args[args.length - 1] as Node, scope);
    if (builder?.type === 'BasicPublishArguments') {
      const exchange = builderArg(builder, 'exchange', 0);
      publish(exchange, builderArg(builder, 'routing_key', 1), `amqprs ${method}`, line, scope);
    } else if (builder?.type === 'BasicConsumeArguments') {
      const queue = builderArg(builder, 'queue', 0);
      if (queue !== undefined) consume(queueOf(queue, scope), `amqprs ${method}`, line, scope);
    } else return false;
  } else if (amqprs && method === 'queue_bind' && args.length === 1 && args[0] !== undefined) {
    const builder = builderOf(args[0], scope);
    if (builder?.type !== 'QueueBindArguments') return false;
    bind(
      builderArg(builder, 'queue', 0),
      builderArg(builder, 'exchange', 1),
      builderArg(builder, 'routing_key', 2),
      scope,
    );
  } else {
    return false;
  }
  return true;
}

function publish(
  exchangeNode: Node | undefined,
  keyNode: Node | undefined,
  via: string,
  line: number,
  scope: RustScope,
): void {
  const exchange = exchangeNode === undefined ? undefined : destinationOf(exchangeNode, scope);
  const fact = { broker: 'amqp', via, line };
  if (exchange === undefined) {
    // The default exchange delivers to the queue the key names; a server-named queue names no topic.
    const queue = keyNode === undefined ? undefined : queueOf(keyNode, scope);
    if (queue?.kind === 'named') emitTopic(scope, 'producer', { topic: queue.name, inferred: false }, fact);
    else if (queue?.kind === 'unknown') emitTopic(scope, 'producer', { unresolved: queue.written }, fact);
    return;
  }
  const key = keyNode === undefined ? undefined : destinationOf(keyNode, scope);
  emitTopic(
    scope,
    'producer',
    exchange,
    fact,
    key !== undefined && 'topic' in key ? { routingKey: key.topic } : {},
  );
}

function bind(
  queue: Node | undefined,
  exchange: Node | undefined,
  key: Node | undefined,
  scope: RustScope,
): void {
  const target = exchange === undefined ? undefined : destinationOf(exchange, scope);
  if (queue === undefined || target === undefined) return;
  const routingKey = key === undefined ? undefined : destinationOf(key, scope);
  stateOf(scope.file).bindings.push({
    queue: keyOf(queueOf(queue, scope)),
    exchange: target,
    ...(routingKey !== undefined && 'topic' in routingKey ? { key: routingKey.topic } : {}),
  });
}

function consume(queue: QueueRef, via: string, line: number, scope: RustScope): void {
  stateOf(scope.file).consumes.push({ queue, line, via, scope });
}

/** `queue.name()` of a lapin declaration, a name bound from an amqprs `queue_declare`, or a name. */
function queueOf(node: Node, scope: RustScope, depth = 0): QueueRef {
  const expr = unwrapString(node);
  const call = methodCall(expr);
  const declared = call?.name === 'name' ? declaration(call.receiver, scope) : undefined;
  if (declared !== undefined) return declared;
  if (expr.type === 'identifier' && depth < 4) {
    const values = valuesOf(expr.text, scope);
    const only = values?.length === 1 ? values[0] : undefined;
    const fromDeclare = only === undefined ? undefined : declaration(only, scope);
    if (fromDeclare !== undefined) return fromDeclare;
  }
  const value = destinationOf(expr, scope);
  if (value === undefined) return { kind: 'server-named', id: expr.startIndex };
  return 'topic' in value
    ? { kind: 'named', name: value.topic }
    : { kind: 'unknown', written: value.unresolved };
}

/** The queue a `queue_declare(…)` call (or a name bound to one) declares. */
function declaration(node: Node, scope: RustScope, depth = 0): QueueRef | undefined {
  let expr = peel(node);
  if (expr.type === 'identifier' && depth < 4) {
    const values = valuesOf(expr.text, scope);
    return values?.length === 1 && values[0] !== undefined
      ? declaration(values[0], scope, depth + 1)
      : undefined;
  }
  const call = methodCall(expr);
  if (call?.name !== 'queue_declare') return undefined;
  const args = argumentsOf(expr);
  expr = args[0] as Node;
  if (args.length === 3) return queueOf(expr, scope, 4);
  const builder = args.length === 1 ? builderOf(expr, scope) : undefined;
  const name = builder === undefined ? undefined : builderArg(builder, 'queue', 0);
  return name === undefined ? { kind: 'server-named', id: expr.startIndex } : queueOf(name, scope, 4);
}

/** Each consumer joined with its queue's bindings (see the Go model for the same rules). */
export function finishAmqp(file: RustFile): void {
  const state = states.get(file);
  if (state === undefined) return;
  for (const consume of state.consumes) {
    const fact = { broker: 'amqp', via: consume.via, line: consume.line };
    const key = keyOf(consume.queue);
    const bindings = key === '' ? [] : state.bindings.filter((b) => b.queue === key);
    if (bindings.length === 0) {
      if (consume.queue.kind === 'named')
        emitTopic(consume.scope, 'consumer', { topic: consume.queue.name, inferred: false }, fact);
      else if (consume.queue.kind === 'unknown')
        emitTopic(consume.scope, 'consumer', { unresolved: consume.queue.written }, fact);
      continue;
    }
    const queue = consume.queue.kind === 'named' ? consume.queue.name : undefined;
    const readings = bindings.map(({ exchange, key }): BoundReading =>
      key === undefined || key === '' ? { exchange } : { exchange, routingKey: key },
    );
    for (const { exchange, routingKey } of distinctBindings(readings)) {
      emitTopic(consume.scope, 'consumer', exchange, fact, {
        ...(routingKey === undefined ? {} : { routingKey }),
        ...(queue === undefined ? {} : { queue }),
      });
    }
  }
  states.delete(file);
}
