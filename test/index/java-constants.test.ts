/**
 * Java constants across files: a `${jv:…}` topic resolves against the `jv:` properties of the constants the
 * referring file sees (its own package, a single-type import of the class, a wildcard or static wildcard
 * import, a fully qualified or statically imported name), in its own root first. A namesake in a package
 * the file does not import, a private or non-String constant (never exported), or an ambiguous pair leaves
 * the topic unresolved.
 */
import { describe, expect, test } from 'vitest';
import type { ContractFact, FileFacts, ImportFact, PropertyFact } from '../../src/index/facts.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import { indexedFile } from '../helpers/indexed-file.js';

const producer = (topic: string): ContractFact => ({
  kind: 'topic_producer',
  topic,
  broker: 'kafka',
  line: 3,
  confidence: 'heuristic',
  via: 'KafkaTemplate.send',
});
const constants = (entries: Record<string, string>): PropertyFact[] =>
  Object.entries(entries).map(([key, value]) => ({ key, value, line: 1 }));
const imports = (...specs: [string, string][]): ImportFact[] =>
  specs.map(([source, name], index) => ({ source, names: [name], line: index + 1 }));
const javaFile = (root: string, path: string, facts: Partial<FileFacts>) =>
  indexedFile(root, path, { ...facts, language: 'java' }, 'java');

function produced(graph: ContractGraph): string[] {
  return graph.edges
    .filter((edge) => edge.kind === 'produces')
    .map((edge) => `${edge.root} ${graph.node(edge.to).name}`)
    .sort();
}

const holders = [
  javaFile('shop', 'messaging/Topics.java', {
    package: 'shop.messaging',
    properties: constants({
      'jv:shop.messaging.Topics.ORDERS': 'orders',
      'jv:shop.messaging.Topics.Kafka.REFUNDS': 'refunds',
    }),
  }),
  javaFile('shop', 'events/Events.java', {
    package: 'shop.events',
    properties: constants({ 'jv:shop.events.Events.REGISTRATION': 'registrations' }),
  }),
  javaFile('shop', 'legacy/Topics.java', {
    package: 'shop.legacy',
    properties: constants({ 'jv:shop.legacy.Topics.ORDERS': 'legacy-orders' }),
  }),
];

describe('Java constants declared in another file', () => {
  test('a class of the same package, an imported class, a static or qualified name names the topic', () => {
    const graph = reconcile({
      files: [
        ...holders,
        javaFile('shop', 'messaging/Publisher.java', {
          package: 'shop.messaging',
          contracts: [producer('${jv:Topics.ORDERS}')],
        }),
        javaFile('shop', 'orders/OrderService.java', {
          package: 'shop.orders',
          imports: imports(['shop.messaging.Topics', 'Topics']),
          contracts: [producer('${jv:Topics.Kafka.REFUNDS}')],
        }),
        javaFile('shop', 'orders/Wildcard.java', {
          package: 'shop.orders',
          imports: imports(['shop.legacy', '*']),
          contracts: [producer('${jv:Topics.ORDERS}')],
        }),
        javaFile('shop', 'shipping/Activity.java', {
          package: 'shop.shipping',
          imports: imports(['shop.events.Events', 'REGISTRATION']),
          contracts: [producer('${jv:shop.events.Events.REGISTRATION}')],
        }),
        javaFile('shop', 'shipping/Several.java', {
          package: 'shop.shipping',
          imports: imports(['shop.events.Events', '*'], ['shop.other.Names', '*']),
          contracts: [producer('${jv:REGISTRATION}')],
        }),
      ],
      services: new Map(),
    });
    expect(produced(graph)).toEqual([
      'shop legacy-orders',
      'shop orders',
      'shop refunds',
      'shop registrations',
      'shop registrations',
    ]);
    expect(graph.unresolvedTopics).toEqual([]);
  });

  test('the root’s own constant wins over another root’s namesake', () => {
    const graph = reconcile({
      files: [
        javaFile('workflow', 'app/Controller.java', {
          package: 'io.app',
          properties: constants({ 'jv:io.app.Controller.TOPIC': 'shipment-registration-events' }),
        }),
        javaFile('other', 'app/Controller.java', {
          package: 'io.app',
          properties: constants({ 'jv:io.app.Controller.TOPIC': 'other-events' }),
        }),
        javaFile('workflow', 'app/activities/Register.java', {
          package: 'io.app.activities',
          imports: imports(['io.app.Controller', 'TOPIC']),
          contracts: [producer('${jv:io.app.Controller.TOPIC}')],
        }),
      ],
      services: new Map(),
    });
    expect(produced(graph)).toEqual(['workflow shipment-registration-events']);
  });

  test('an unimported namesake, an enclosing package, an undeclared or ambiguous constant stays unresolved', () => {
    const graph = reconcile({
      files: [
        ...holders,
        javaFile('shop', 'billing/Invoice.java', {
          package: 'shop.billing',
          contracts: [producer('${jv:Topics.ORDERS}'), producer('${jv:Events.REGISTRATION}')],
        }),
        javaFile('shop', 'messaging/sub/Nested.java', {
          // `shop.messaging` encloses this package, which Java does not make visible.
          package: 'shop.messaging.sub',
          contracts: [producer('${jv:Topics.ORDERS}')],
        }),
        javaFile('shop', 'orders/Both.java', {
          package: 'shop.orders',
          imports: imports(['shop.messaging', '*'], ['shop.legacy', '*']),
          // A private or non-String constant is never exported, so `Topics.HIDDEN` has no value.
          contracts: [producer('${jv:Topics.ORDERS}'), producer('${jv:Topics.HIDDEN}')],
        }),
      ],
      services: new Map(),
    });
    expect(produced(graph)).toEqual([]);
    expect(graph.unresolvedTopics.map((topic) => topic.topic).sort()).toEqual([
      '${jv:Events.REGISTRATION}',
      '${jv:Topics.HIDDEN}',
      '${jv:Topics.ORDERS}',
      '${jv:Topics.ORDERS}',
      '${jv:Topics.ORDERS}',
    ]);
  });
});
