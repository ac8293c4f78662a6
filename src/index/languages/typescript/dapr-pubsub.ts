/**
 * Dapr pub/sub without the SDK. An app subscribes programmatically by serving `GET /dapr/subscribe` with
 * `[{ pubsubname, topic, route }]` (each entry a consumer of its topic), and publishes by POSTing to its
 * sidecar at `…/v1.0/publish/<pubsub>/<topic>` with any HTTP client (a producer of the topic). The SDK's
 * `client.pubsub.publish` and `server.pubsub.subscribe` are rows of the broker table (brokers.ts).
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { exprText, topicFact } from './event-facts.js';
import { args, type Site } from './holders.js';
import type { FileState } from './model.js';
import { itemsOf, topicName } from './topic-names.js';
import { toVal, type Val } from './values.js';
import { lookup, type ValueTables } from './resolve-values.js';

const SUBSCRIBE_PATH = '/dapr/subscribe';
const PUBLISH_URL = /\/v1\.0\/publish\/([^/?#]+)\/([^/?#]+)/;
const HOLE = /^\uE000(\d+)\uE000$/;

/** `app.get('/dapr/subscribe', handler)`: every `{ pubsubname, topic }` the handler answers with. */
export function daprSubscribeRoute(state: FileState, node: Node, method: string, site: Site): void {
  if (method !== 'get' && method !== 'route' && method !== 'all') return;
  const [path, ...rest] = args(node);
  if (path?.type !== 'string' || path.text.slice(1, -1) !== SUBSCRIBE_PATH) return;
  const answers: Val[] = [];
  for (const handler of rest) {
    for (const object of handler.descendantsOfType('object'))
      if (object !== null) answers.push(toVal(object, site.locals, site.cls));
    // `res.json(subscriptions)` with the list declared as a constant.
    for (const call of handler.descendantsOfType('call_expression')) {
      const first = call === null ? undefined : args(call)[0];
      if (first?.type === 'identifier') answers.push(toVal(first, site.locals, site.cls));
    }
  }
  if (answers.length === 0) return;
  state.pending.push((out) => {
    const seen = new Set<string>();
    for (const entry of answers.flatMap((a) => subscriptions(a, state.tables))) {
      const topic = entry.props.get('topic');
      const pubsub = entry.props.get('pubsubname') ?? entry.props.get('pubsubName');
      if (topic === undefined || pubsub === undefined) continue;
      const key = JSON.stringify(topic);
      if (seen.has(key)) continue;
      seen.add(key);
      out.addContract(
        topicFact(
          state,
          'topic_consumer',
          'dapr',
          { val: topic, text: 'topic' },
          'dapr /dapr/subscribe',
          site,
        ),
      );
    }
  });
}

/** Subscription objects in a handler's answer: an object, an array of them, or a constant holding either. */
function subscriptions(val: Val, t: ValueTables, depth = 0): Extract<Val, { k: 'obj' }>[] {
  if (depth > 4) return [];
  if (val.k === 'obj') return val.props.has('topic') ? [val] : [];
  if (val.k === 'ref') {
    const target = lookup(val, t, depth);
    return target?.kind === 'val' ? subscriptions(target.val, t, depth + 1) : [];
  }
  return (itemsOf(val, t) ?? []).flatMap((item) => subscriptions(item, t, depth + 1));
}

/** Any call whose URL argument is the sidecar's publish endpoint: `axios.post(`${dapr}/v1.0/publish/ps/orders`)`. */
export function daprHttpPublish(state: FileState, node: Node, site: Site): void {
  const first = args(node)[0];
  // Cheap test first: the URL is written here, or held by a local built from one.
  const local = first?.type === 'identifier' ? site.locals(first.text) : undefined;
  if (first === undefined || (!first.text.includes('publish') && local?.val === undefined)) return;
  const val = toVal(first, site.locals, site.cls);
  const url = val.k === 'obj' ? val.props.get('url') : val;
  if (url === undefined) return;
  const text = exprText(first);
  state.pending.push((out: FactBuilder) => {
    const holes: Val[] = [];
    const rendered = render(url, state.tables, holes, 0);
    const match = rendered === undefined ? null : PUBLISH_URL.exec(rendered);
    const topic = match?.[2];
    if (topic === undefined) return;
    const hole = HOLE.exec(topic);
    const dest: Val =
      hole === null
        ? topic.includes('\uE000')
          ? { k: 'opaque' }
          : { k: 'str', v: topic }
        : (holes[Number(hole[1])] ?? { k: 'opaque' });
    out.addContract(
      topicFact(state, 'topic_producer', 'dapr', { val: dest, text }, 'dapr HTTP publish', site),
    );
  });
}

/** A URL with its constant pieces written out and every other piece a numbered hole. */
function render(val: Val, t: ValueTables, holes: Val[], depth: number): string | undefined {
  if (depth > 8) return undefined;
  switch (val.k) {
    case 'str':
      return val.v;
    case 'cat': {
      let out = '';
      for (const part of val.parts) out += render(part, t, holes, depth + 1) ?? '';
      return out;
    }
    case 'ref': {
      const target = lookup(val, t, depth);
      if (
        target?.kind === 'val' &&
        (target.val.k === 'str' || target.val.k === 'cat' || target.val.k === 'ref')
      )
        return render(target.val, t, holes, depth + 1);
      break;
    }
    default:
      break;
  }
  const name = topicName(val, t)?.value;
  holes.push(name === undefined ? val : { k: 'str', v: name });
  return `\uE000${holes.length - 1}\uE000`;
}
