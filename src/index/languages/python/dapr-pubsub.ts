/**
 * Dapr pub/sub subscriptions declared in Python: `@dapr_app.subscribe(pubsub='p', topic='t')` on the
 * FastAPI extension's `DaprApp` or the gRPC extension's `App`, and the programmatic `/dapr/subscribe` route,
 * whose returned `{'pubsubname': …, 'topic': …, 'route': …}` entries subscribe the app to each topic.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import { DAPR_SUBSCRIPTIONS } from './brokers.js';
import { slotArgument } from './contracts.js';
import { callArguments, literalString, resolveParts, type ValueScope } from './values.js';
import { destinationOf, topicFact } from '../shared/broker-topology.js';
import { startLineOf } from '../shared/tree-utils.js';

/** The consumer `@app.subscribe(…)` declares on a Dapr app; undefined for another decorator. */
export function daprSubscribeFact(
  decorator: string,
  call: Node,
  values: ValueScope,
  line: number,
): ContractFact | undefined {
  if (decorator !== DAPR_SUBSCRIPTIONS.decorator) return undefined;
  const { positional, keywords } = callArguments(call.childForFieldName('arguments'));
  const topic = slotArgument(DAPR_SUBSCRIPTIONS.topic, positional, keywords);
  if (topic === undefined) return undefined;
  const site = { line, owner: undefined, via: 'dapr @subscribe', broker: 'dapr' };
  return topicFact('topic_consumer', destinationOf(resolveParts(topic, values), topic.text), site);
}

/** The topics of the subscription entries a `/dapr/subscribe` handler returns. */
export function daprSubscriptionEntries(body: Node, values: ValueScope): ContractFact[] {
  const facts: ContractFact[] = [];
  const { pubsub, topic: topicKey } = DAPR_SUBSCRIPTIONS.entryKeys;
  const visit = (node: Node): void => {
    if (node.type === 'dictionary') {
      const entries = new Map<string, Node>();
      for (const pair of node.namedChildren) {
        const key = pair?.type === 'pair' ? literalString(pair.childForFieldName('key')) : undefined;
        const value = pair?.childForFieldName('value');
        if (key !== undefined && value !== null && value !== undefined) entries.set(key, value);
      }
      const topic = entries.get(topicKey);
      if (entries.has(pubsub) && topic !== undefined) {
        const site = {
          line: startLineOf(node),
          owner: undefined,
          via: 'dapr /dapr/subscribe',
          broker: 'dapr',
        };
        facts.push(topicFact('topic_consumer', destinationOf(resolveParts(topic, values), topic.text), site));
        return;
      }
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return facts;
}
