/**
 * rascal publishes to a publication and subscribes to a subscription, both named in its configuration:
 * `broker.publish('order_created')` reaches the exchange and routing key publication `order_created` names.
 * When the configuration is a constant of the same file (`{ vhosts: { '/': { publications, subscriptions,
 * bindings } } }`) the names are resolved through it (rascal also makes a default publication and
 * subscription per declared exchange and queue); otherwise the fact is kept unresolved.
 */
import type { FactBuilder } from '../shared/fact-builder.js';
import { topicFact, type Dest, type EventCall } from './event-facts.js';
import type { FileState } from './model.js';
import { topicName } from './topic-names.js';
import { type Val } from './values.js';
import { lookup } from './resolve-values.js';

interface Binding {
  readonly exchange: string;
  readonly queue: string;
  readonly key?: string;
}

interface RascalConfig {
  readonly publications: Map<string, Val>;
  readonly subscriptions: Map<string, Val>;
  readonly exchanges: Set<string>;
  readonly queues: Set<string>;
  readonly bindings: Binding[];
}

function follow(state: FileState, val: Val | undefined, depth = 0): Val | undefined {
  if (val?.k !== 'ref' || depth > 8) return val;
  const target = lookup(val, state.tables, depth);
  return target?.kind === 'val' ? follow(state, target.val, depth + 1) : undefined;
}

function str(state: FileState, val: Val | undefined): string | undefined {
  const v = follow(state, val);
  return v === undefined ? undefined : topicName(v, state.tables)?.value;
}

/** Names declared as an array of names or as the keys of an object. */
function names(state: FileState, val: Val | undefined): string[] {
  const v = follow(state, val);
  if (v?.k === 'obj') return [...v.props.keys()];
  if (v?.k !== 'arr') return [];
  return v.items.flatMap((item) => {
    const name =
      str(state, item) ??
      str(state, follow(state, item)?.k === 'obj' ? prop(state, item, 'name') : undefined);
    return name === undefined ? [] : [name];
  });
}

function prop(state: FileState, val: Val | undefined, name: string): Val | undefined {
  const v = follow(state, val);
  return v?.k === 'obj' ? follow(state, v.props.get(name)) : undefined;
}

/** `'exchange[a.b, c] -> queue'` or `{ source, destination, bindingKey(s) }`. */
function bindingsOf(state: FileState, val: Val | undefined): Binding[] {
  const v = follow(state, val);
  const items = v?.k === 'arr' ? v.items : v?.k === 'obj' ? [...v.props.values()] : [];
  return items.flatMap((item): Binding[] => {
    const text = str(state, item);
    if (text !== undefined) {
      const m = /^\s*([^[\s]+)\s*(?:\[([^\]]*)\])?\s*->\s*(\S+)\s*$/.exec(text);
      if (m === null) return [];
      const keys = (m[2] ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== '');
      const [exchange = '', , queue = ''] = [m[1], m[2], m[3]];
      return keys.length === 0 ? [{ exchange, queue }] : keys.map((key) => ({ exchange, queue, key }));
    }
    const exchange = str(state, prop(state, item, 'source'));
    const queue = str(state, prop(state, item, 'destination'));
    if (exchange === undefined || queue === undefined) return [];
    const many = prop(state, item, 'bindingKeys');
    const keys =
      many?.k === 'arr'
        ? many.items.map((k) => str(state, k))
        : [str(state, prop(state, item, 'bindingKey'))];
    return keys.map((key) => ({ exchange, queue, ...(key === undefined || key === '' ? {} : { key }) }));
  });
}

/** The first constant of the file shaped like a rascal configuration. */
function configOf(state: FileState): RascalConfig | undefined {
  for (const val of state.consts.values()) {
    const vhosts = prop(state, val, 'vhosts');
    if (vhosts?.k !== 'obj') continue;
    const config: RascalConfig = {
      publications: new Map(),
      subscriptions: new Map(),
      exchanges: new Set(),
      queues: new Set(),
      bindings: [],
    };
    for (const scope of [val, ...vhosts.props.values()]) {
      for (const [k, v] of (prop(state, scope, 'publications') as Extract<Val, { k: 'obj' }> | undefined)
        ?.props ?? [])
        config.publications.set(k, v);
      for (const [k, v] of (prop(state, scope, 'subscriptions') as Extract<Val, { k: 'obj' }> | undefined)
        ?.props ?? [])
        config.subscriptions.set(k, v);
      names(state, prop(state, scope, 'exchanges')).forEach((n) => config.exchanges.add(n));
      names(state, prop(state, scope, 'queues')).forEach((n) => config.queues.add(n));
      config.bindings.push(...bindingsOf(state, prop(state, scope, 'bindings')));
    }
    return config;
  }
  return undefined;
}

function literal(value: string): Dest {
  return { val: { k: 'str', v: value }, text: value };
}

export function rascalCall(state: FileState, out: FactBuilder, call: EventCall): void {
  const arg = call.vals[0];
  if (arg === undefined) return;
  const written: Dest = { val: arg, text: call.texts[0] ?? '' };
  const name = topicName(arg, state.tables)?.value;
  const config = name === undefined ? undefined : configOf(state);
  const publish = call.rule.role === 'rascalPublish';
  const kind = publish ? 'topic_producer' : 'topic_consumer';
  const unresolved = (): void => {
    out.addContract({
      ...topicFact(state, kind, 'amqp', written, call.via, call.site),
      topic: '',
      unresolved: written.text,
      confidence: 'heuristic',
    });
  };
  if (name === undefined || config === undefined) return unresolved();
  if (publish) {
    const publication = config.publications.get(name);
    const exchange = str(state, prop(state, publication, 'exchange'));
    const queue = str(state, prop(state, publication, 'queue'));
    const key = str(state, prop(state, publication, 'routingKey'));
    if (exchange !== undefined && exchange !== '')
      out.addContract(
        topicFact(
          state,
          kind,
          'amqp',
          literal(exchange),
          call.via,
          call.site,
          false,
          key === undefined || key === '' ? {} : { routingKey: key },
        ),
      );
    else if (queue !== undefined)
      out.addContract(topicFact(state, kind, 'amqp', literal(queue), call.via, call.site));
    else if (publication === undefined && (config.exchanges.has(name) || config.queues.has(name)))
      out.addContract(topicFact(state, kind, 'amqp', literal(name), call.via, call.site));
    else unresolved();
    return;
  }
  const subscription = config.subscriptions.get(name);
  const queue =
    str(state, prop(state, subscription, 'queue')) ??
    (subscription === undefined && config.queues.has(name) ? name : undefined);
  if (queue === undefined) return unresolved();
  const bound = config.bindings.filter((b) => b.queue === queue);
  if (bound.length === 0) {
    out.addContract(topicFact(state, kind, 'amqp', literal(queue), call.via, call.site));
    return;
  }
  for (const b of bound)
    out.addContract(
      topicFact(state, kind, 'amqp', literal(b.exchange), call.via, call.site, false, {
        ...(b.key === undefined ? {} : { routingKey: b.key }),
        queue,
      }),
    );
}
