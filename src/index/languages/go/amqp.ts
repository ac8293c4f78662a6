/**
 * RabbitMQ from Go: amqp091-go and streadway/amqp (AMQP 0-9-1 channels) and rabbitmq-amqp-go-client
 * (AMQP 1.0). A publish names an exchange and a routing key (the default exchange `""` routes to the queue
 * the key names); a consumer names a queue, which is bound to exchanges elsewhere in the file. Queues are
 * followed from their declaration (`q.Name`, `qInfo.Name()`), so a server-named queue is known as one.
 * Consumers are emitted once the file is walked, when every binding is known. Declarations alone give no fact.
 */
import type { Node } from 'web-tree-sitter';
import { keyedFields } from './events.js';
import {
  destinationOf,
  emitTopic,
  imports,
  listItems,
  receiverLibrary,
  type Destination,
} from './messaging.js';
import { agree, argumentsOf, unwrapParens, type GoFile, type GoScope } from './scope.js';
import { startLineOf } from '../shared/tree-utils.js';
import { distinctBindings, type BoundReading } from '../shared/topic-fact.js';

const CLASSIC = /^github\.com\/(rabbitmq\/amqp091-go|streadway\/amqp)$/;
const AMQP10 = /^github\.com\/rabbitmq\/rabbitmq-amqp-go-client\/pkg\/rabbitmqamqp$/;

/** A queue as the code refers to it: a name, a server-named declaration, or an expression we cannot read. */
type QueueRef =
  | { readonly kind: 'named'; readonly name: string; readonly inferred: boolean }
  | { readonly kind: 'server-named'; readonly id: number }
  | { readonly kind: 'unknown'; readonly written: string };

interface Binding {
  readonly queue: string;
  readonly exchange: Destination;
  readonly key: Destination | undefined;
}

interface Consume {
  readonly queue: QueueRef;
  readonly line: number;
  readonly symbol: number | undefined;
  readonly via: string;
  readonly scope: GoScope;
}

interface FileState {
  readonly bindings: Binding[];
  readonly consumes: Consume[];
}

const states = new WeakMap<GoFile, FileState>();

function stateOf(file: GoFile): FileState {
  let state = states.get(file);
  if (state === undefined) states.set(file, (state = { bindings: [], consumes: [] }));
  return state;
}

const keyOf = (queue: QueueRef): string =>
  queue.kind === 'named'
    ? `name:${queue.name}`
    : queue.kind === 'server-named'
      ? `anon:${queue.id}`
      : `expr:${queue.written}`;

/** Records or emits what an AMQP call means; true when `method` was one of a RabbitMQ client's. */
export function onAmqpCall(call: Node, method: string, scope: GoScope): boolean {
  const classic = imports(scope.file, CLASSIC);
  const amqp10 = imports(scope.file, AMQP10);
  if (!classic && !amqp10) return false;
  const fn = call.childForFieldName('function');
  const receiver = fn?.type === 'selector_expression' ? fn.childForFieldName('operand') : null;
  const library = receiver === null ? undefined : receiverLibrary(receiver, scope);
  if (library === null || (library !== undefined && !CLASSIC.test(library) && !AMQP10.test(library)))
    return false;
  const args = argumentsOf(call);
  if (classic && onClassicCall(call, method, args, scope)) return true;
  return amqp10 && onAmqp10Call(call, method, args, scope);
}

/** `ch.Publish(exchange, key, mandatory, immediate, msg)`, `Consume(queue, …)`, `QueueBind(queue, key, exchange, …)`. */
function onClassicCall(call: Node, method: string, all: readonly Node[], scope: GoScope): boolean {
  const withContext = /WithContext$/.test(method);
  const args = withContext ? all.slice(1) : all;
  const base = method.replace(/WithContext$/, '');
  const via = `${libraryOf(scope.file)} ${method}`;
  if ((base === 'Publish' || base === 'PublishWithDeferredConfirm') && args.length === 5) {
    publish(args[0], args[1], { via, line: startLineOf(call) }, scope);
    return true;
  }
  if (base === 'Consume' && args.length === 7 && args[0] !== undefined) {
    consume(queueOf(args[0], scope), via, startLineOf(call), scope);
    return true;
  }
  if (method === 'QueueBind' && args.length === 5) {
    const [queue, key, exchange] = args;
    if (queue !== undefined && exchange !== undefined) bind(queue, exchange, key, scope);
    return true;
  }
  return false;
}

function libraryOf(file: GoFile): string {
  return [...file.imports.values()].includes('github.com/streadway/amqp') ? 'streadway/amqp' : 'amqp091-go';
}

/** rabbitmq-amqp-go-client: publishers, consumers, requesters and responders on addresses and queues. */
function onAmqp10Call(call: Node, method: string, args: readonly Node[], scope: GoScope): boolean {
  const via = `rabbitmq-amqp-go-client ${method}`;
  const line = startLineOf(call);
  const options = args[1] === undefined ? undefined : literalFields(args[1], scope);
  switch (method) {
    case 'NewPublisher': {
      const exchange = options?.get('Exchange');
      const queue = options?.get('Queue');
      if (exchange !== undefined) publish(exchange, options?.get('Key'), { via, line }, scope);
      else if (queue !== undefined) publish(undefined, queue, { via, line }, scope);
      return options !== undefined;
    }
    case 'NewRequester': {
      const queue = options?.get('RequestQueueName');
      if (queue !== undefined) publish(undefined, queue, { via, line }, scope);
      return options !== undefined;
    }
    case 'NewResponder': {
      const queue = options?.get('RequestQueue');
      if (queue !== undefined) consume(queueOf(queue, scope), via, line, scope);
      return options !== undefined;
    }
    case 'NewConsumer':
      if (args.length === 3 && args[1] !== undefined) consume(queueOf(args[1], scope), via, line, scope);
      return args.length === 3;
    case 'Bind': {
      const queue = options?.get('DestinationQueue');
      const exchange = options?.get('SourceExchange');
      if (queue !== undefined && exchange !== undefined)
        bind(queue, exchange, options?.get('BindingKey'), scope);
      return options !== undefined;
    }
    default:
      return false;
  }
}

/** The fields of `&rmq.X{…}` or `rmq.X{…}`, directly or through a local variable. */
function literalFields(node: Node, scope: GoScope, depth = 0): Map<string, Node> | undefined {
  let expr = unwrapParens(node);
  if (expr.type === 'unary_expression' && expr.child(0)?.type === '&')
    expr = unwrapParens(expr.childForFieldName('operand') ?? expr);
  if (expr.type === 'identifier' && depth < 4) {
    return agree(
      scope.lookup(expr.text),
      (b) => (b.value === undefined ? undefined : literalFields(b.value, scope, depth + 1)),
      (fields) => [...fields.values()].map((n) => n.text).join('\0'),
    );
  }
  return expr.type === 'composite_literal' ? keyedFields(expr) : undefined;
}

/** A publish to `exchange` (absent: the default exchange) with `key`. */
function publish(
  exchangeNode: Node | undefined,
  keyNode: Node | undefined,
  fact: { readonly via: string; readonly line: number },
  scope: GoScope,
): void {
  const exchange = exchangeNode === undefined ? undefined : destinationOf(exchangeNode, scope);
  const facts = { ...fact, broker: 'amqp' };
  if (exchange === undefined) {
    // The default exchange delivers to the queue the key names; a server-named queue names no topic.
    const queue = keyNode === undefined ? undefined : queueOf(keyNode, scope);
    if (queue?.kind === 'named')
      emitTopic(scope, 'producer', { topic: queue.name, inferred: queue.inferred }, facts);
    else if (queue?.kind === 'unknown') emitTopic(scope, 'producer', { unresolved: queue.written }, facts);
    return;
  }
  const key = keyNode === undefined ? undefined : destinationOf(keyNode, scope);
  const routingKey = key !== undefined && 'topic' in key ? key.topic : undefined;
  emitTopic(scope, 'producer', exchange, facts, routingKey === undefined ? {} : { routingKey });
}

function bind(queue: Node, exchange: Node, key: Node | undefined, scope: GoScope): void {
  const target = destinationOf(exchange, scope);
  if (target === undefined) return;
  const queueKey = keyOf(queueOf(queue, scope));
  const keys = key === undefined ? [undefined] : bindingKeys(key, scope);
  for (const each of keys)
    stateOf(scope.file).bindings.push({ queue: queueKey, exchange: target, key: each });
}

/**
 * The keys a binding is made with: one value, or each element of the list a loop variable ranges over
 * (`for _, s := range []string{"info", "error"}`); a loop over `os.Args` stays unreadable.
 */
function bindingKeys(node: Node, scope: GoScope): (Destination | undefined)[] {
  const expr = unwrapParens(node);
  const bindings = expr.type === 'identifier' ? (scope.lookup(expr.text) ?? []) : [];
  const loop = bindings.length === 1 ? bindings[0]?.value : undefined;
  if (loop?.type === 'range_clause') {
    const element = loop.childForFieldName('left')?.namedChild(1);
    const list = loop.childForFieldName('right');
    if (element?.text === expr.text && list !== null) {
      const items = listItems(list, scope, false);
      if (items.length !== 1 || items[0]?.id !== unwrapParens(list).id)
        return items.map((item) => destinationOf(item, scope));
    }
  }
  return [destinationOf(node, scope)];
}

function consume(queue: QueueRef, via: string, line: number, scope: GoScope): void {
  stateOf(scope.file).consumes.push({ queue, line, symbol: scope.symbol, via, scope });
}

/**
 * What a queue expression refers to: `q.Name` / `qInfo.Name()` of a declaration (`QueueDeclare("")` and
 * `AutoGeneratedQueueSpecification` are server-named), or a name.
 */
function queueOf(node: Node, scope: GoScope): QueueRef {
  const expr = unwrapParens(node);
  const declared = declarationOf(expr, scope);
  if (declared !== undefined) return declared;
  const value = destinationOf(expr, scope);
  // An empty name is the server's to choose.
  if (value === undefined) return { kind: 'server-named', id: expr.startIndex };
  return 'topic' in value
    ? { kind: 'named', name: value.topic, inferred: value.inferred }
    : { kind: 'unknown', written: value.unresolved };
}

function declarationOf(expr: Node, scope: GoScope): QueueRef | undefined {
  const selector = expr.type === 'call_expression' ? expr.childForFieldName('function') : expr;
  if (selector?.type !== 'selector_expression' || selector.childForFieldName('field')?.text !== 'Name')
    return undefined;
  const owner = selector.childForFieldName('operand');
  if (owner?.type !== 'identifier') return undefined;
  const bindings = scope.lookup(owner.text) ?? [];
  const value = bindings.length === 1 ? bindings[0]?.value : undefined;
  const call = value === undefined ? undefined : unwrapParens(value);
  if (call?.type !== 'call_expression') return undefined;
  const fn = call.childForFieldName('function');
  const method = fn?.type === 'selector_expression' ? fn.childForFieldName('field')?.text : undefined;
  const args = argumentsOf(call);
  if (method === 'QueueDeclare' || method === 'QueueDeclarePassive') {
    const name = args[0] === undefined ? undefined : destinationOf(args[0], scope);
    if (name === undefined) return { kind: 'server-named', id: call.startIndex };
    return 'topic' in name
      ? { kind: 'named', name: name.topic, inferred: name.inferred }
      : { kind: 'unknown', written: name.unresolved };
  }
  if (method === 'DeclareQueue' && args[1] !== undefined) {
    const spec = unwrapParens(args[1]);
    const literal = spec.type === 'unary_expression' ? spec.childForFieldName('operand') : spec;
    const type = literal?.childForFieldName('type')?.childForFieldName('name')?.text;
    if (type === 'AutoGeneratedQueueSpecification') return { kind: 'server-named', id: call.startIndex };
    const name = literal?.type === 'composite_literal' ? keyedFields(literal).get('Name') : undefined;
    return name === undefined ? undefined : queueOf(name, scope);
  }
  return undefined;
}

/**
 * The file's consumers, each joined with the bindings of its queue: one fact per exchange and resolved
 * binding key, one without a key when a key cannot be read (`os.Args`); an unbound named queue is its own
 * topic; an unbound server-named queue (an RPC reply queue) gives nothing.
 */
export function finishAmqp(file: GoFile): void {
  const state = states.get(file);
  if (state === undefined) return;
  for (const consume of state.consumes) {
    const fact = { broker: 'amqp', via: consume.via, line: consume.line, symbol: consume.symbol };
    const bindings = state.bindings.filter((b) => b.queue === keyOf(consume.queue));
    const queue = consume.queue.kind === 'named' ? consume.queue.name : undefined;
    if (bindings.length === 0) {
      if (consume.queue.kind === 'named')
        emitTopic(
          consume.scope,
          'consumer',
          { topic: consume.queue.name, inferred: consume.queue.inferred },
          fact,
        );
      else if (consume.queue.kind === 'unknown')
        emitTopic(consume.scope, 'consumer', { unresolved: consume.queue.written }, fact);
      continue;
    }
    const readings = bindings.map(({ exchange, key }): BoundReading => {
      const written = key !== undefined && 'topic' in key ? key.topic : '';
      return written === '' ? { exchange } : { exchange, routingKey: written };
    });
    for (const { exchange, routingKey } of distinctBindings(readings)) {
      emitTopic(consume.scope, 'consumer', exchange, fact, {
        ...(routingKey === undefined ? {} : { routingKey }),
        ...(queue === undefined ? {} : { queue }),
      });
    }
  }
  states.delete(file);
}
