/**
 * gRPC clients, event producers/consumers and HTTP calls found at call and `new` sites of a
 * TypeScript/JavaScript file. A site is read into plain data while its node is alive; whether the receiver
 * is a stub, a ClientProxy, a queue or an HTTP client is decided after the walk (see {@link FileState}).
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { args, grpcTarget, holderFromExpr, prop, receiverRef, type Site } from './holders.js';
import { resolveRef, type FileState, type Holder } from './model.js';
import { HTTP_VERBS, routeCall } from './routes.js';
import { addServiceCall, noteLoader } from './servers.js';
import { resolveUrl } from './url.js';
import { resolveName, resolveString, toVal, unwrap, type Val } from './values.js';

/** Methods whose first argument is a topic, a queue job or a kafkajs payload. */
const FIRST_ARG_METHODS = new Set(['send', 'sendBatch', 'subscribe', 'emit']);
/** Methods of a generated stub that are plumbing, not RPCs. */
const STUB_PLUMBING = new Set([
  'close',
  'getChannel',
  'waitForReady',
  'makeUnaryRequest',
  'makeClientStreamRequest',
  'makeServerStreamRequest',
  'makeBidiStreamRequest',
  'then',
  'catch',
  'bind',
  'call',
  'apply',
  'toString',
]);
const BULL_SOURCES = new Set(['bullmq', 'bull']);

function emitServiceLevel(state: FileState, holder: Holder | undefined, site: Site): void {
  if (holder?.t !== 'grpc' && holder?.t !== 'grpcNew') return;
  state.pending.push((out) => {
    const target = grpcTarget(state, holder);
    if (target === undefined) return;
    out.addContract({
      kind: 'grpc_client',
      service: target.service,
      ...symbolOf(site),
      line: site.line,
      confidence: target.exact ? 'exact' : 'heuristic',
      via: target.via,
    });
  });
}

function symbolOf(site: Site): { symbol?: number } {
  return site.symbol === undefined ? {} : { symbol: site.symbol };
}

function topicFact(
  kind: 'topic_producer' | 'topic_consumer',
  val: Val | undefined,
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
  emitServiceLevel(state, holder, site);
  if (holder?.t === 'queue') {
    state.pending.push((out) => {
      if (isBullQueue(state, holder))
        topicFact('topic_producer', holder.name, 'BullMQ Queue', site, state, out);
    });
    return;
  }
  const ctor = node.childForFieldName('constructor');
  const first = args(node)[0];
  if (ctor?.text === 'Worker' && first !== undefined) {
    const name = toVal(first, site.locals, site.cls);
    state.pending.push((out) => {
      if (BULL_SOURCES.has(state.importBindings.get('Worker')?.source ?? ''))
        topicFact('topic_consumer', name, 'BullMQ Worker', site, state, out);
    });
  }
}

/** A call site: kafkajs, NestJS ClientProxy, BullMQ `add`, gRPC stub calls, HTTP calls and router routes. */
export function onCall(state: FileState, node: Node, site: Site): void {
  const callee = node.childForFieldName('function');
  if (callee === null) return;
  if (callee.type === 'identifier') {
    if (callee.text === 'loadPackageDefinition') noteLoader(state, node);
    // nice-grpc: `createClient(PaymentServiceDefinition, channel)`.
    if (callee.text === 'createClient') emitServiceLevel(state, holderFromExpr(node, site), site);
    else directCall(state, node, callee.text, site);
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
    emitServiceLevel(state, holderFromExpr(node, site), site);
    return;
  }
  const list = args(node);
  const first =
    list[0] === undefined || !FIRST_ARG_METHODS.has(method)
      ? undefined
      : toVal(list[0], site.locals, site.cls);
  if (kafkajsCall(state, method, first, site)) return;
  const receiver = receiverRef(object, site);
  const objectName = unwrap(object).type === 'identifier' ? object.text : undefined;
  const httpArgs =
    method === 'request' || HTTP_VERBS.has(method)
      ? list.slice(0, 2).map((a) => toVal(a, site.locals, site.cls))
      : [];
  const route = routeCall(state, node, method, site);
  if (receiver === undefined && route === undefined && httpArgs.length === 0) return;
  state.pending.push((out) => {
    const holder = resolveRef(state, receiver);
    if (holder?.t === 'proxy' && (method === 'emit' || method === 'send')) {
      topicFact('topic_producer', first, `ClientProxy ${method}`, site, state, out);
    } else if (
      holder?.t === 'queue' &&
      (method === 'add' || method === 'addBulk') &&
      isBullQueue(state, holder)
    ) {
      topicFact('topic_producer', holder.name, 'BullMQ add', site, state, out);
    } else if (holder?.t === 'grpc' || holder?.t === 'grpcNew') {
      const target = STUB_PLUMBING.has(method) ? undefined : grpcTarget(state, holder);
      if (target !== undefined) {
        const exact = target.exact && !(holder.t === 'grpc' && holder.nameOnly === true);
        out.addContract({
          kind: 'grpc_client',
          service: target.service,
          method,
          ...symbolOf(site),
          line: site.line,
          confidence: exact ? 'exact' : 'heuristic',
          via: target.via,
        });
      }
    } else if (holder?.t === 'http' && httpArgs.length > 0) {
      httpCall(state, out, site, holder.via, method, httpArgs, holder.base);
    } else if (
      holder === undefined &&
      httpArgs.length > 0 &&
      objectName !== undefined &&
      isClientModule(state, objectName)
    ) {
      httpCall(state, out, site, clientModuleVia(state, objectName), method, httpArgs, undefined);
    } else {
      route?.(holder, out);
    }
  });
}

/** kafkajs `send({ topic, messages })`, `sendBatch(…)`, `subscribe({ topic })`; true when it was one. */
function kafkajsCall(state: FileState, method: string, first: Val | undefined, site: Site): boolean {
  if (method === 'send' && prop(first, 'topic') !== undefined && prop(first, 'messages') !== undefined) {
    state.pending.push((out) =>
      topicFact('topic_producer', prop(first, 'topic'), 'kafkajs send', site, state, out),
    );
    return true;
  }
  if (method === 'sendBatch') {
    const batch = prop(first, 'topicMessages');
    if (batch?.k === 'arr')
      state.pending.push((out) =>
        batch.items.forEach((item) =>
          topicFact('topic_producer', prop(item, 'topic'), 'kafkajs send', site, state, out),
        ),
      );
    return true;
  }
  if (method === 'subscribe' && (prop(first, 'topic') !== undefined || prop(first, 'topics') !== undefined)) {
    state.pending.push((out) =>
      topicFact(
        'topic_consumer',
        prop(first, 'topic') ?? prop(first, 'topics'),
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

function isClientModule(state: FileState, name: string): boolean {
  const source = state.importBindings.get(name)?.source;
  return (
    source === 'axios' || source === 'got' || (source === undefined && (name === 'axios' || name === 'got'))
  );
}

function clientModuleVia(state: FileState, name: string): string {
  return state.importBindings.get(name)?.source ?? name;
}

function directCall(state: FileState, node: Node, name: string, site: Site): void {
  const list = args(node);
  if (list.length === 0 || site.locals(name) !== undefined) return;
  const values = list.slice(0, 2).map((a) => toVal(a, site.locals, site.cls));
  state.pending.push((out) => {
    if (name === 'fetch') httpCall(state, out, site, 'fetch', 'fetch', values, undefined);
    else if (isClientModule(state, name) && !state.moduleVars.has(name))
      httpCall(state, out, site, clientModuleVia(state, name), 'call', values, undefined);
  });
}

/**
 * One HTTP call. `verb` is the client method (`get`, `post`, `request`), `call` for `axios(…)`/`got(…)`,
 * `fetch` for `fetch(url, init)`.
 */
function httpCall(
  state: FileState,
  out: FactBuilder,
  site: Site,
  via: string,
  verb: string,
  values: readonly Val[],
  base: Val | undefined,
): void {
  const [a, b] = values;
  let url: Val | undefined = a;
  let method: Val | undefined;
  let defaulted = false;
  if (verb === 'fetch') {
    method = prop(b, 'method');
    defaulted = b === undefined || (b.k === 'obj' && method === undefined);
  } else if (verb === 'call' || verb === 'request') {
    const config = a?.k === 'obj' ? a : b;
    url = a?.k === 'obj' ? prop(a, 'url') : a;
    method = prop(config, 'method');
    defaulted = config === undefined || (config.k === 'obj' && method === undefined);
  } else {
    method = { k: 'str', v: verb };
  }
  if (url === undefined) return;
  let resolved = resolveUrl(url, state.tables);
  // A relative path on a client created with a base URL (`axios.create({ baseURL })`) goes to that base.
  if (base !== undefined && resolved !== undefined && resolved.base === undefined && resolved.exact) {
    resolved = resolveUrl({ k: 'cat', parts: [base, { k: 'str', v: '/' }, url] }, state.tables);
  }
  if (resolved === undefined) return;
  const verbName = method === undefined ? undefined : resolveString(method, state.tables);
  const httpMethod = defaulted ? 'GET' : (verbName?.value.toUpperCase() ?? 'ANY');
  const exact = resolved.exact && (defaulted || verbName?.exact === true);
  out.addContract({
    kind: 'http_call',
    method: httpMethod,
    path: resolved.path,
    ...(resolved.base === undefined ? {} : { base: resolved.base }),
    ...symbolOf(site),
    line: site.line,
    confidence: exact ? 'exact' : 'heuristic',
    via,
  });
}
