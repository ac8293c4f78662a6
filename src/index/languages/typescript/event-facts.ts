/**
 * The shared vocabulary of the event recognisers (events.ts, amqp.ts, rascal.ts, dapr-pubsub.ts): a call read
 * into plain data, the destinations its rule names, and the topic fact one destination becomes.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import { oneLine } from '../shared/tree-utils.js';
import type { CallRule, Destination } from './brokers.js';
import type { Origin } from './event-origin.js';
import type { Site } from './holders.js';
import type { FileState } from './model.js';
import { itemsOf, lastSegment, topicName } from './topic-names.js';
import type { Val } from './values.js';
import type { ValueTables } from './resolve-values.js';

type TopicFact = Extract<ContractFact, { kind: 'topic_producer' | 'topic_consumer' }>;

/** A call's arguments as values and as written. */
export interface EventArgs {
  readonly vals: readonly Val[];
  readonly texts: readonly string[];
  /** For an argument that is a `for…of` variable, the iterable: `key` of `for (const key of KEYS)`. */
  readonly loops: readonly (Val | undefined)[];
}

/** One destination as read from the arguments: its value, and its text for an unresolved fact. */
export interface Dest {
  readonly val: Val;
  readonly text: string;
}

export interface EventSite extends EventArgs {
  readonly method: string;
  readonly origin: Origin;
  /** The receiver's last member (`pubsub` in `client.pubsub.publish`). */
  readonly onMember?: string;
  /** Names the call's result is bound to: `q` in `const q = await ch.assertQueue('')`. */
  readonly boundTo: readonly string[];
  readonly site: Site;
}

const MAX_TEXT = 120;
/** An argument written as a function: the callback that ends a list of channels. */
const CALLBACK = /^(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/;

export function exprText(node: Node): string {
  const text = oneLine(node.text);
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

/** A call whose library and rule are known. */
export interface EventCall extends EventSite {
  readonly rule: CallRule;
  readonly via: string;
}

/** A topic fact for one destination: resolved, or kept with the expression it could not resolve. */
export function topicFact(
  state: FileState,
  kind: TopicFact['kind'],
  broker: string,
  dest: Dest,
  via: string,
  site: Site,
  url = false,
  extra: { readonly routingKey?: string; readonly queue?: string; readonly exact?: boolean } = {},
): TopicFact {
  const name = topicName(dest.val, state.tables);
  const where = { ...(site.symbol === undefined ? {} : { symbol: site.symbol }), line: site.line };
  const { exact = true, ...keys } = extra;
  if (url && name === undefined) {
    // `https://sqs.${region}.amazonaws.com/${account}/orders`: the queue is the literal last segment.
    const tail = trailingSegment(dest.val);
    if (tail !== undefined)
      return { kind, topic: tail, broker, ...keys, ...where, confidence: 'heuristic', via };
  }
  if (name === undefined || name.value === '')
    return {
      kind,
      topic: '',
      broker,
      ...keys,
      unresolved: dest.text,
      ...where,
      confidence: 'heuristic',
      via,
    };
  return {
    kind,
    topic: url ? lastSegment(name.value) : name.value,
    broker,
    ...keys,
    ...where,
    confidence: name.exact && exact ? 'exact' : 'heuristic',
    via,
  };
}

/** The literal last segment of a URL or ARN whose earlier pieces are not known. */
function trailingSegment(val: Val): string | undefined {
  const last = val.k === 'cat' ? val.parts[val.parts.length - 1] : undefined;
  if (last?.k !== 'str') return undefined;
  const cut = Math.max(last.v.lastIndexOf('/'), last.v.lastIndexOf(':'));
  const name = cut < 0 ? '' : last.v.slice(cut + 1);
  return /^[\w.-]+$/.test(name) ? name : undefined;
}

/** The destinations a call names, as its rule says to read them. */
export function destinations(
  dest: Destination,
  rec: EventArgs & { readonly origin?: Origin },
  tables: ValueTables,
): Dest[] {
  const { vals, texts } = rec;
  switch (dest.read) {
    case 'receiver': {
      const made = rec.origin?.made;
      const val = made?.args[dest.pos];
      if (val === undefined) return [];
      // `topic('t').subscription('s')` reads topic t; a subscription alone names no topic here.
      if (made?.method === 'subscription')
        return made.from?.method === 'topic' && made.from.args[0] !== undefined
          ? [{ val: made.from.args[0], text: 'topic(…)' }]
          : [{ val: { k: 'opaque' }, text: `subscription(${shortName(val, tables)})` }];
      return [{ val, text: `${made?.method ?? ''}(…)` }];
    }
    case 'rest': {
      const out: Dest[] = [];
      for (const [i, val] of vals.entries()) {
        if (i < dest.pos) continue;
        if (CALLBACK.test(texts[i] ?? '')) break;
        // `subscribe(CHANNEL, onMessage)`: a last argument that names no channel is the listener.
        if (i > dest.pos && i === vals.length - 1 && val.k !== 'str' && topicName(val, tables) === undefined)
          break;
        out.push(...spread(val, texts[i] ?? ''));
      }
      return out;
    }
    case 'streams': {
      const at = vals.findIndex((v) => v.k === 'str' && v.v.toUpperCase() === 'STREAMS');
      if (at < 0) return [];
      const keys = vals.slice(at + 1);
      const half = Math.ceil(keys.length / 2);
      return keys.slice(0, half).map((val, i) => ({ val, text: texts[at + 1 + i] ?? '' }));
    }
    case 'streamKeys': {
      const arg = vals[dest.pos];
      const items = arg?.k === 'arr' ? arg.items : arg === undefined ? [] : [arg];
      return items.flatMap((item) => {
        const key = item.k === 'obj' ? item.props.get('key') : undefined;
        return key === undefined ? [] : [{ val: key, text: texts[dest.pos] ?? '' }];
      });
    }
    default: {
      const looped = rec.loops[dest.pos];
      const arg =
        looped === undefined
          ? vals[dest.pos]
          : { k: 'arr' as const, items: [...(itemsOf(looped, tables) ?? [])] };
      if (looped !== undefined && arg?.k === 'arr' && arg.items.length === 0)
        return [{ val: { k: 'opaque' }, text: texts[dest.pos] ?? '' }];
      // `events$.subscribe((e) => …)`: a callback where a name belongs is some other `subscribe`.
      if (arg === undefined || CALLBACK.test(texts[dest.pos] ?? '')) return [];
      const val = dest.prop === undefined ? arg : arg.k === 'obj' ? arg.props.get(dest.prop) : undefined;
      return val === undefined ? [] : spread(val, texts[dest.pos] ?? '', dest.keys === true);
    }
  }
}

function shortName(val: Val, tables: ValueTables): string {
  const name = topicName(val, tables)?.value;
  return name === undefined ? '…' : `'${name}'`;
}

/**
 * An array is one destination per item; an object one per key where the rule says so (MQTT's
 * `{ 'a/b': { qos: 1 } }`), else none: an options object is not a destination.
 */
function spread(val: Val, text: string, keys = false): Dest[] {
  if (val.k === 'arr') return val.items.map((item) => ({ val: item, text }));
  if (val.k === 'obj')
    return keys ? [...val.props.keys()].map((k) => ({ val: { k: 'str', v: k }, text })) : [];
  return [{ val, text }];
}
