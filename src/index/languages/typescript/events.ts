/**
 * Message producers and consumers on any broker, read from the library table (brokers.ts): a call or `new`
 * whose name a library gives a rule for is read into plain data while its node is alive (arguments, and
 * where the receiver came from); once the file is walked, the library is the one the receiver traces to,
 * else the one the file imports, and the fact is written (AMQP and rascal calls are put together first).
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { amqpCall } from './amqp.js';
import {
  BROKER_CTORS,
  BROKER_LIBRARIES,
  BROKER_METHODS,
  isLibraryModule,
  type BrokerLibrary,
  type CallRule,
  type Destination,
} from './brokers.js';
import { receiverOrigin } from './event-origin.js';
import { destinations, exprText, topicFact, type EventArgs, type EventSite } from './event-facts.js';
import { args, type Site } from './holders.js';
import type { FileState } from './model.js';
import { rascalCall } from './rascal.js';
import { topicName } from './topic-names.js';
import { memberPath, toVal, unwrap } from './values.js';
import { type ValueTables } from './resolve-values.js';

function readArgs(list: readonly Node[], site: Site): EventArgs {
  return {
    vals: list.map((a) => toVal(a, site.locals, site.cls)),
    texts: list.map(exprText),
    loops: list.map((a) => {
      const iterable = a.type === 'identifier' ? loopOver(a) : undefined;
      return iterable === undefined ? undefined : toVal(iterable, site.locals, site.cls);
    }),
  };
}

/** The iterable of the innermost enclosing `for (const x of …)` whose variable is `id`. */
function loopOver(id: Node): Node | undefined {
  for (let up = id.parent; up !== null; up = up.parent) {
    if (up.type !== 'for_in_statement') continue;
    const left = up.childForFieldName('left');
    if (left?.text === id.text || left?.childForFieldName('name')?.text === id.text)
      return up.childForFieldName('right') ?? undefined;
  }
  return undefined;
}

function importsBroker(state: FileState): boolean {
  for (const binding of state.importBindings.values())
    if (BROKER_LIBRARIES.some((lib) => isLibraryModule(lib, binding.source))) return true;
  return false;
}

/** `x.m(…)` where some library has a rule for `m`: read now, decided after the walk. */
export function eventCall(state: FileState, node: Node, callee: Node, site: Site): void {
  const method = callee.childForFieldName('property')?.text ?? '';
  const object = callee.childForFieldName('object');
  if (object === null || !BROKER_METHODS.has(method) || !importsBroker(state)) return;
  const receiver = unwrap(object);
  const path = receiver.type === 'member_expression' ? memberPath(receiver) : undefined;
  const onMember = path?.[path.length - 1];
  const rec: EventSite = {
    method,
    ...readArgs(args(node), site),
    origin: receiverOrigin(state, object, site.locals, site.cls),
    ...(onMember === undefined ? {} : { onMember }),
    boundTo: boundNames(node),
    site,
  };
  state.pending.push((out) => {
    const chosen = chooseRule(state, rec, (lib) => lib.calls?.[method]);
    if (chosen !== undefined) emit(state, out, chosen.lib, chosen.rule, rec);
  });
}

/** `new SendMessageCommand({ QueueUrl })`: the AWS SDK v3 commands. */
export function eventNew(state: FileState, node: Node, site: Site): void {
  const ctor = node.childForFieldName('constructor');
  const name = ctor === null ? undefined : memberPath(ctor)?.pop();
  if (ctor === null || name === undefined || !BROKER_CTORS.has(name) || !importsBroker(state)) return;
  const rec: EventSite = {
    method: name,
    ...readArgs(args(node), site),
    origin: receiverOrigin(state, ctor, site.locals, site.cls),
    boundTo: [],
    site,
  };
  state.pending.push((out) => {
    const chosen = chooseRule(state, rec, (lib) => lib.ctors?.[name]);
    if (chosen !== undefined) emit(state, out, chosen.lib, chosen.rule, rec);
  });
}

/**
 * The library a call belongs to: the one its receiver was traced to, else the first imported one whose rule
 * fits. A receiver made by another package, or by a class nobody imports, is no broker client.
 */
function chooseRule(
  state: FileState,
  rec: EventSite,
  ruleOf: (lib: BrokerLibrary) => CallRule | undefined,
): { lib: BrokerLibrary; rule: CallRule } | undefined {
  const { source, global } = rec.origin;
  if (global === true) return undefined;
  const imported = [...state.importBindings.values()].map((b) => b.source);
  let candidates = BROKER_LIBRARIES.filter((lib) => imported.some((s) => isLibraryModule(lib, s)));
  if (source !== undefined && !/^[./]/.test(source)) {
    const traced = BROKER_LIBRARIES.filter((lib) => isLibraryModule(lib, source));
    candidates = traced;
  }
  for (const lib of candidates) {
    const rule = ruleOf(lib);
    if (rule !== undefined && fits(rule, rec)) return { lib, rule };
  }
  return undefined;
}

function fits(rule: CallRule, rec: EventSite): boolean {
  if (rule.on !== undefined && rec.onMember !== rule.on) return false;
  const first = rec.vals[0];
  if (rule.event !== undefined && (first?.k !== 'str' || first.v !== rule.event)) return false;
  const { dest } = rule;
  if (dest.read === 'receiver') return rec.origin.made?.method === dest.made;
  const arg = rec.vals[dest.pos];
  if (arg === undefined) return false;
  return dest.prop === undefined || (arg.k === 'obj' && arg.props.has(dest.prop));
}

function emit(state: FileState, out: FactBuilder, lib: BrokerLibrary, rule: CallRule, rec: EventSite): void {
  const via = `${lib.name} ${rec.method}`;
  const call = { ...rec, rule, via };
  if (rule.role.startsWith('amqp')) amqpCall(state, out, call);
  else if (rule.role.startsWith('rascal')) rascalCall(state, out, call);
  else {
    const kind = rule.role === 'produce' ? 'topic_producer' : 'topic_consumer';
    const queue = subscriptionOf(rule.dest, rec, state.tables);
    const extra = queue === undefined || queue === '' ? {} : { queue };
    for (const dest of destinations(rule.dest, rec, state.tables))
      out.addContract(topicFact(state, kind, lib.broker, dest, via, rec.site, rule.dest.url === true, extra));
  }
}

/** The subscription a consumer reads: Service Bus `createReceiver(topic, sub)`, Pub/Sub `subscription(s)`. */
function subscriptionOf(dest: Destination, rec: EventSite, tables: ValueTables): string | undefined {
  const made = rec.origin.made;
  const val =
    dest.read === 'receiver'
      ? made?.method === 'subscription'
        ? made.args[0]
        : undefined
      : dest.sub === undefined
        ? undefined
        : rec.vals[dest.sub];
  return val === undefined ? undefined : topicName(val, tables)?.value;
}

/**
 * Names a call's result is bound to: `q` of `const q = await ch.assertQueue('')`, or the parameters of its
 * callback (`ch.assertQueue('', {}, (err, q) => …)`).
 */
function boundNames(call: Node): string[] {
  let up = call.parent;
  while (up !== null && (up.type === 'await_expression' || up.type === 'parenthesized_expression'))
    up = up.parent;
  const names: string[] = [];
  if (up?.type === 'variable_declarator') {
    const name = up.childForFieldName('name');
    if (name?.type === 'identifier') names.push(name.text);
    // `const { queue } = await ch.assertQueue('')`
    else if (name !== null && /\bqueue\b/.test(name.text)) names.push('');
  }
  const last = args(call).pop();
  const params = last?.childForFieldName('parameters') ?? last?.childForFieldName('parameter');
  if (params !== null && params !== undefined) {
    const list = params.type === 'identifier' ? [params] : params.namedChildren;
    const named = list
      .filter((p): p is Node => p !== null)
      .map((p) => p.childForFieldName('pattern')?.text ?? p.text);
    // Callback API: `(err, ok)`; the promise-style wrapper has no error parameter.
    const ok = named.length > 1 ? named[1] : named[0];
    if (ok !== undefined) names.push(ok);
  }
  return names;
}
