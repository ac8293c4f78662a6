/**
 * gRPC clients, event producers/consumers and HTTP calls found at call and `new` sites of a
 * TypeScript/JavaScript file. A site is read into plain data while its node is alive; whether the receiver
 * is a stub, a ClientProxy, a queue or an HTTP client is decided after the walk (see {@link FileState}).
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { args, holderFromExpr, prop, receiverRef, type Site } from './holders.js';
import { resolveRef, type FileState, type Holder } from './model.js';
import { routeCall } from './routes.js';
import { mountCall } from './mounts.js';
import { directHttpCall, memberHttpCall } from './http-calls.js';
import { daprInvokerCall } from './dapr.js';
import { eventCall, eventNew } from './events.js';
import { daprHttpPublish, daprSubscribeRoute } from './dapr-pubsub.js';
import { addServiceCall, noteLoader } from './servers.js';
import { emitStubCall, noteStub, noteStubUses } from './grpc-stubs.js';
import { toVal, unwrap, type Val } from './values.js';
import { resolveName } from './resolve-values.js';

/** Methods whose first argument is a topic, a queue job or a kafkajs payload. */
const FIRST_ARG_METHODS = new Set(['send', 'sendBatch', 'subscribe', 'emit']);
const BULL_SOURCES = new Set(['bullmq', 'bull']);

function symbolOf(site: Site): { symbol?: number } {
  return site.symbol === undefined ? {} : { symbol: site.symbol };
}

function topicFact(
  kind: 'topic_producer' | 'topic_consumer',
  val: Val | undefined,
  broker: string,
  via: string,
  site: Site,
  state: FileState,
  out: FactBuilder,
): void {
  if (val === undefined) return;
  const items = val.k === 'arr' ? val.items : [val];
  for (const item of items) {
    const topic = resolveName(item, state.tables);
    if (topic === undefined || topic.value === '') continue;
    out.addContract({
      kind,
      topic: topic.value,
      broker,
      ...symbolOf(site),
      line: site.line,
      confidence: topic.exact ? 'exact' : 'heuristic',
      via,
    });
  }
}

/** A `new X(…)` site: BullMQ queues and workers, gRPC stubs. */
export function onNew(state: FileState, node: Node, site: Site): void {
  const holder = holderFromExpr(node, site);
  noteStub(state, holder, node, site);
  eventNew(state, node, site);
  if (holder?.t === 'queue') {
    state.pending.push((out) => {
      if (isBullQueue(state, holder))
        topicFact('topic_producer', holder.name, 'bullmq', 'BullMQ Queue', site, state, out);
    });
    return;
  }
  const ctor = node.childForFieldName('constructor');
  const first = args(node)[0];
  if (ctor?.text === 'Worker' && first !== undefined) {
    const name = toVal(first, site.locals, site.cls);
    state.pending.push((out) => {
      if (BULL_SOURCES.has(state.importBindings.get('Worker')?.source ?? ''))
        topicFact('topic_consumer', name, 'bullmq', 'BullMQ Worker', site, state, out);
    });
  }
}

/** A call site: kafkajs, NestJS ClientProxy, BullMQ `add`, gRPC stub calls, HTTP calls and router routes. */
export function onCall(state: FileState, node: Node, site: Site): void {
  const callee = node.childForFieldName('function');
  if (callee === null) return;
  noteStubUses(state, node, callee, site);
  if (callee.type === 'identifier') {
    if (callee.text === 'loadPackageDefinition') noteLoader(state, node);
    // nice-grpc: `createClient(PaymentServiceDefinition, channel)`.
    if (callee.text === 'createClient') noteStub(state, holderFromExpr(node, site), node, site);
    else directHttpCall(state, callee.text, args(node), site);
    daprHttpPublish(state, node, site);
    return;
  }
  if (callee.type === 'member_expression') onMemberCall(state, node, callee, site);
}

/** `x.m(…)`: what `m` does depends on what `x` holds, known once the whole file is read. */
function onMemberCall(state: FileState, node: Node, callee: Node, site: Site): void {
  const property = callee.childForFieldName('property');
  const object = callee.childForFieldName('object');
  if (property === null || object === null) return;
  const method = property.text;
  if (method === 'loadPackageDefinition' || method === 'load') noteLoader(state, node);
  if (method === 'addService') {
    addServiceCall(state, node, site);
    return;
  }
  if (method === 'getService' || method === 'createClient') {
    noteStub(state, holderFromExpr(node, site), node, site);
    return;
  }
  const list = args(node);
  const first =
    list[0] === undefined || !FIRST_ARG_METHODS.has(method)
      ? undefined
      : toVal(list[0], site.locals, site.cls);
  if (kafkajsCall(state, method, first, site)) return;
  eventCall(state, node, callee, site);
  daprHttpPublish(state, node, site);
  daprSubscribeRoute(state, node, method, site);
  if (daprInvokerCall(state, node, callee, site)) return;
  const receiver = receiverRef(object, site);
  const inner = unwrap(object);
  const objectName = inner.type === 'identifier' ? inner.text : undefined;
  const http = memberHttpCall(state, method, objectName, list, site);
  const route = routeCall(state, node, method, site);
  mountCall(state, node, method, site);
  if (receiver === undefined && route === undefined && http === undefined) return;
  state.pending.push((out) => {
    const holder = resolveRef(state, receiver);
    if (holder?.t === 'proxy' && (method === 'emit' || method === 'send')) {
      topicFact('topic_producer', first, 'nestjs', `ClientProxy ${method}`, site, state, out);
    } else if (
      holder?.t === 'queue' &&
      (method === 'add' || method === 'addBulk') &&
      isBullQueue(state, holder)
    ) {
      topicFact('topic_producer', holder.name, 'bullmq', 'BullMQ add', site, state, out);
    } else if (emitStubCall(state, out, holder, method, site)) {
      // A method invoked on a gRPC stub.
    } else if (http?.(holder, out) !== true) {
      route?.(holder, out);
    }
  });
}

/** kafkajs `send({ topic, messages })`, `sendBatch(…)`, `subscribe({ topic })`; true when it was one. */
function kafkajsCall(state: FileState, method: string, first: Val | undefined, site: Site): boolean {
  if (method === 'send' && prop(first, 'topic') !== undefined && prop(first, 'messages') !== undefined) {
    state.pending.push((out) =>
      topicFact('topic_producer', prop(first, 'topic'), 'kafka', 'kafkajs send', site, state, out),
    );
    return true;
  }
  if (method === 'sendBatch') {
    const batch = prop(first, 'topicMessages');
    if (batch?.k === 'arr')
      state.pending.push((out) =>
        batch.items.forEach((item) =>
          topicFact('topic_producer', prop(item, 'topic'), 'kafka', 'kafkajs send', site, state, out),
        ),
      );
    return true;
  }
  if (method === 'subscribe' && (prop(first, 'topic') !== undefined || prop(first, 'topics') !== undefined)) {
    state.pending.push((out) =>
      topicFact(
        'topic_consumer',
        prop(first, 'topic') ?? prop(first, 'topics'),
        'kafka',
        'kafkajs subscribe',
        site,
        state,
        out,
      ),
    );
    return true;
  }
  return false;
}

/** `new Queue(…)` counts only when `Queue` comes from bullmq/bull; an injected queue (`@InjectQueue`) always. */
function isBullQueue(state: FileState, holder: Extract<Holder, { t: 'queue' }>): boolean {
  return (
    holder.imported === undefined || BULL_SOURCES.has(state.importBindings.get(holder.imported)?.source ?? '')
  );
}
