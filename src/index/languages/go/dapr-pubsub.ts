/**
 * Dapr pub/sub without the SDK. Subscribing: an app that serves `/dapr/subscribe` answers the sidecar with
 * a list of `{pubsubname, topic, route}` entries, written in Go as struct or map literals. (Publishing over
 * HTTP, a POST to the sidecar's `/v1.0/publish/<pubsub>/<topic>`, is read for every language at once:
 * shared/dapr-publish.ts.)
 */
import type { Node } from 'web-tree-sitter';
import { emitTopic, destinationOf } from './messaging.js';
import { goStringLiteral, unwrapParens, type GoScope } from './scope.js';
import { startLineOf } from '../shared/tree-utils.js';

const SUBSCRIBE_ROUTE = '/dapr/subscribe';

/** Entries of the programmatic subscription list: literals with both a pubsub name and a topic. */
export function collectDaprSubscriptions(root: Node, scope: GoScope): void {
  if (!scope.file.source.includes(SUBSCRIBE_ROUTE)) return;
  for (const literal of root.descendantsOfType('literal_value')) {
    if (literal === null) continue;
    const fields = entryFields(literal);
    const topic = fields.get('topic');
    if (topic === undefined || !fields.has('pubsubname')) continue;
    const destination = destinationOf(topic, scope);
    if (destination === undefined) continue;
    emitTopic(scope, 'consumer', destination, {
      broker: 'dapr',
      via: 'dapr subscribe',
      line: startLineOf(topic),
      symbol: undefined,
    });
  }
}

/** `PubsubName: …` or `"pubsubname": …` elements, keyed in lower case. */
function entryFields(literal: Node): Map<string, Node> {
  const fields = new Map<string, Node>();
  for (const element of literal.namedChildren) {
    if (element?.type !== 'keyed_element') continue;
    const key = element.namedChild(0);
    const value = element.namedChild(1);
    if (key === null || value === null) continue;
    const inner = unwrapParens(key);
    const name = goStringLiteral(inner) ?? inner.text;
    fields.set(name.toLowerCase(), value);
  }
  return fields;
}
