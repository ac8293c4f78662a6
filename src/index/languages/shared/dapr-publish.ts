/**
 * Dapr publishing over plain HTTP: a POST to the local sidecar's publish API
 * (`http://localhost:3500/v1.0/publish/<pubsub>/<topic>`) publishes to `<topic>` on the pub/sub component
 * `<pubsub>`. Every language's HTTP clients can send it, so the rewrite is applied to a file's facts once:
 * such a call is a topic producer, not a call of an HTTP route.
 */
import type { ContractFact, FileFacts } from '../../facts.js';

// Anywhere in the path: a sidecar address built as `host + ":" + port` may leave the port before it.
const PUBLISH = /\/v1\.0(?:-alpha1)?\/publish\/([^/]+)\/([^/?]+)/;

/** The file's facts with each HTTP call to the sidecar's publish API turned into a topic producer. */
export function rewriteSidecarPublishes(facts: FileFacts): FileFacts {
  if (!facts.contracts.some((fact) => fact.kind === 'http_call' && PUBLISH.test(fact.path))) return facts;
  // A language that read the publish itself (resolving the topic through its own values) keeps its fact.
  const readAlready = new Set(
    facts.contracts
      .filter((fact) => fact.kind === 'topic_producer' && fact.broker === 'dapr')
      .map((fact) => fact.line),
  );
  const contracts = facts.contracts.flatMap((fact): ContractFact[] => {
    if (fact.kind !== 'http_call' || (fact.method !== 'POST' && fact.method !== 'ANY')) return [fact];
    const topic = PUBLISH.exec(fact.path)?.[2];
    if (topic === undefined) return [fact];
    if (readAlready.has(fact.line)) return [];
    // A topic the code computes became a `{name}` path placeholder: it names no topic.
    const computed = /[{}]/.test(topic);
    return [
      {
        kind: 'topic_producer',
        topic: computed ? '' : topic,
        broker: 'dapr',
        ...(computed ? { unresolved: fact.path } : {}),
        line: fact.line,
        confidence: computed ? 'heuristic' : fact.confidence,
        via: 'dapr http publish',
        ...(fact.symbol === undefined ? {} : { symbol: fact.symbol }),
      },
    ];
  });
  return { ...facts, contracts };
}
