/**
 * Dapr programmatic subscriptions in Java: the Spring handler of `GET /dapr/subscribe` answers the sidecar
 * with the subscriptions the app wants, each naming a topic. Whatever builds them counts: a builder link
 * (`DaprSubscription.builder().pubSubName("p").topic("orders")`, a setter `setTopic("orders")`), a
 * constructor taking `(pubsubname, topic, route)`, or a map (`Map.of("pubsubname", …, "topic", "orders")`,
 * `map.put("topic", "orders")`). Outside that handler the same calls are nobody's subscription.
 */
import type { Node } from 'web-tree-sitter';
import { methodRoutes, routePrefixes } from '../shared/jvm/annotations.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import { ordered, type TopicFact, unresolvedTopic } from '../shared/jvm/messaging-model.js';
import { callArg } from '../shared/jvm/messaging-values.js';
import { isForeignConstant, topicValuesIn } from './cross-file-constants.js';
import {
  argumentsOf,
  javaString,
  type JavaClass,
  type JavaFile,
  type JavaMethod,
  JavaResolver,
  plainType,
} from './model.js';

const SUBSCRIBE_ROUTE = '/dapr/subscribe';
const VIA = `Dapr ${SUBSCRIBE_ROUTE}`;
const TOPIC_LINKS: ReadonlySet<string> = new Set(['topic', 'setTopic', 'withTopic']);
/** Dapr's subscription order: pub/sub component, topic, route. */
const CONSTRUCTOR_TOPIC = 1;

/** The topic consumers of the class's `GET /dapr/subscribe` handlers. */
export function daprSubscriptions(file: JavaFile, cls: JavaClass, facts: ContractSink): void {
  const resolver = new JavaResolver(file, cls);
  const prefixes = routePrefixes(cls.annotations, resolver);
  for (const method of cls.methods) {
    if (method.body === undefined) continue;
    const routes = methodRoutes(prefixes, method.annotations, resolver);
    if (!routes.some((route) => route.method === 'GET' && route.path === SUBSCRIBE_ROUTE)) continue;
    const seen = new Set<string>();
    for (const topic of topicNodes(method.body)) {
      const fact = subscription(file, method, topic);
      const key = JSON.stringify(fact);
      if (seen.has(key)) continue;
      seen.add(key);
      facts.addContract(fact);
    }
  }
}

/** The expressions naming a subscription's topic in a handler body. */
function topicNodes(body: Node): Node[] {
  const out: Node[] = [];
  for (const node of body.descendantsOfType(['method_invocation', 'object_creation_expression'])) {
    if (node === null) continue;
    const args = argumentsOf(node);
    if (node.type === 'object_creation_expression') {
      const type = lastSegment(plainType(node.childForFieldName('type')) ?? '');
      const topic = args[CONSTRUCTOR_TOPIC];
      if (type.endsWith('Subscription') && args.length >= 2 && topic !== undefined) out.push(topic);
      continue;
    }
    const name = node.childForFieldName('name')?.text ?? '';
    if (TOPIC_LINKS.has(name) && args.length === 1 && args[0] !== undefined) out.push(args[0]);
    else if (name === 'put' && args.length === 2 && isTopicKey(args[0]) && args[1] !== undefined)
      out.push(args[1]);
    else if (name === 'of' || name === 'ofEntries' || name === 'entry') out.push(...mapTopics(args));
  }
  return out;
}

/** `Map.of(k1, v1, k2, v2, …)` and `Map.entry("topic", v)`: the value after a `"topic"` key. */
function mapTopics(args: readonly Node[]): Node[] {
  const out: Node[] = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    const value = args[i + 1];
    if (isTopicKey(args[i]) && value !== undefined) out.push(value);
  }
  return out;
}

const isTopicKey = (node: Node | undefined): boolean =>
  node?.type === 'string_literal' && javaString(node) === 'topic';

function subscription(file: JavaFile, method: JavaMethod, node: Node): TopicFact {
  const head = {
    kind: 'topic_consumer',
    broker: 'dapr',
    symbol: method.id,
    line: lineOf(node),
    via: VIA,
  } as const;
  const topic = topicValuesIn(file, method.scope).string(node);
  if (topic === undefined)
    return ordered({ ...head, ...unresolvedTopic(callArg(node.text, undefined, false, false).text) });
  return ordered({ ...head, topic, confidence: isForeignConstant(topic) ? 'heuristic' : 'exact' });
}
