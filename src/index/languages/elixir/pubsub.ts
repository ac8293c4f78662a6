/**
 * Phoenix PubSub, an in-process (or cluster-wide) bus keyed by topic, so broker `eventbus`:
 * `Phoenix.PubSub.broadcast(server, topic, msg)` and its `broadcast!`, `broadcast_from`, `local_broadcast`
 * and `direct_broadcast` variants publish, `Phoenix.PubSub.subscribe(server, topic)` subscribes; a Phoenix
 * endpoint (`MyAppWeb.Endpoint.broadcast(topic, event, payload)`, `.subscribe(topic)`) does the same on the
 * app's own server. The calls are a table: which module, which functions, their arity and the position of
 * the topic. A topic returned by another module's zero-arity function (`FlagdUi.Storage.topic()`) is the
 * placeholder `${ex.FlagdUi.Storage.topic}` (see function-values.ts).
 */
import type { Node } from 'web-tree-sitter';
import type { ImportFact } from '../../facts.js';
import { destinationOf, literalDestination, topicFact, type Destination } from '../shared/broker-topology.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { startLineOf } from '../shared/tree-utils.js';
import { functionValueKey } from './function-values.js';
import { valueScope, type Frame } from './model.js';
import { callName, pipedArgs, type CallName } from './syntax.js';
import { resolveParts } from './values.js';

interface PubSubCall {
  readonly role: 'topic_producer' | 'topic_consumer';
  /** The arities the function takes (a trailing optional argument gives two). */
  readonly arities: readonly number[];
  /** The position of the topic among the positional arguments. */
  readonly topic: number;
}

const produce = (arity: number, topic: number): PubSubCall => ({
  role: 'topic_producer',
  arities: [arity, arity + 1],
  topic,
});

/** `Phoenix.PubSub`: the server comes first (after the node for `direct_broadcast`, the pid for `_from`). */
const PHOENIX_PUBSUB: ReadonlyMap<string, PubSubCall> = new Map([
  ['broadcast', produce(3, 1)],
  ['broadcast!', produce(3, 1)],
  ['broadcast_from', produce(4, 2)],
  ['broadcast_from!', produce(4, 2)],
  ['local_broadcast', produce(3, 1)],
  ['local_broadcast_from', produce(4, 2)],
  ['direct_broadcast', produce(4, 2)],
  ['direct_broadcast!', produce(4, 2)],
  ['subscribe', { role: 'topic_consumer', arities: [2, 3], topic: 1 }],
]);

/** A Phoenix endpoint's wrappers: the server is the endpoint's own, so the topic comes first. */
const ENDPOINT: ReadonlyMap<string, PubSubCall> = new Map([
  ['broadcast', { role: 'topic_producer', arities: [3], topic: 0 }],
  ['broadcast!', { role: 'topic_producer', arities: [3], topic: 0 }],
  ['broadcast_from', { role: 'topic_producer', arities: [4], topic: 1 }],
  ['broadcast_from!', { role: 'topic_producer', arities: [4], topic: 1 }],
  ['local_broadcast', { role: 'topic_producer', arities: [3], topic: 0 }],
  ['local_broadcast_from', { role: 'topic_producer', arities: [4], topic: 1 }],
  ['subscribe', { role: 'topic_consumer', arities: [1, 2], topic: 0 }],
]);

/**
 * The module a receiver names, with a leading alias expanded through the file's `alias`/`import` lines
 * (`alias Phoenix.PubSub` makes `PubSub.broadcast` Phoenix's).
 */
function expandAlias(receiver: string, imports: readonly ImportFact[]): string {
  const [first = receiver, ...rest] = receiver.split('.');
  const imported = imports.find((fact) => fact.source === first || fact.source.endsWith(`.${first}`));
  return imported === undefined ? receiver : [imported.source, ...rest].join('.');
}

/** The library table and its name for a call's module, if it is a PubSub module. */
function tableOf(
  module: string,
): { readonly calls: ReadonlyMap<string, PubSubCall>; readonly via: string } | undefined {
  if (module === 'Phoenix.PubSub') return { calls: PHOENIX_PUBSUB, via: 'Phoenix.PubSub' };
  // An endpoint is named `Endpoint` by Phoenix's generators (`MyAppWeb.Endpoint`).
  if (/(^|\.)Endpoint$/.test(module)) return { calls: ENDPOINT, via: 'Phoenix Endpoint' };
  return undefined;
}

/** The topic an argument names: resolved in the caller's module, or another module's function value. */
function topicOf(node: Node, frame: Frame, imports: readonly ImportFact[]): Destination {
  const remote = node.type === 'call' ? callName(node) : undefined;
  if (remote?.receiver !== undefined && pipedArgs(node).positional.length === 0) {
    const module = expandAlias(remote.receiver, imports);
    if (module !== frame.module?.name) {
      const name = `\${${functionValueKey(module, remote.name)}}`;
      return { ...literalDestination(name), placeholder: true };
    }
    const own = frame.module?.functions.get(`${remote.name}/0`)?.body;
    if (own !== undefined) return destinationOf(resolveParts(own, valueScope(frame)), node.text);
  }
  return destinationOf(resolveParts(node, valueScope(frame)), node.text);
}

/** A Phoenix PubSub publish or subscription at a `Module.fun(…)` call: its topic fact. */
export function readPubSubCall(facts: FactBuilder, node: Node, name: CallName, frame: Frame): void {
  if (name.receiver === undefined) return;
  const table = tableOf(expandAlias(name.receiver, facts.imports));
  const call = table?.calls.get(name.name);
  if (table === undefined || call === undefined) return;
  const args = pipedArgs(node).positional;
  const topic = args[call.topic];
  if (!call.arities.includes(args.length) || topic === undefined) return;
  const site = {
    line: startLineOf(node),
    owner: frame.owner,
    via: `${table.via} ${name.name}`,
    broker: 'eventbus',
  };
  facts.addContract(topicFact(call.role, topicOf(topic, frame, facts.imports), site), {
    owner: frame.owner,
  });
}
