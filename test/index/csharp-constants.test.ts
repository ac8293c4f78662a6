/**
 * C# constants across files: a `${cs:Class.Name}` topic resolves against the `cs:` properties of the
 * constants the referring file can see (global namespace, its own and enclosing namespaces, its `using`
 * imports), in its own root first; an unrelated class of the same name, an ambiguous pair, or a constant
 * nobody declared leaves the topic unresolved.
 */
import { describe, expect, test } from 'vitest';
import type { ContractFact, FileFacts, PropertyFact } from '../../src/index/facts.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import { indexedFile } from '../helpers/indexed-file.js';

const producer = (topic: string): ContractFact => ({
  kind: 'topic_producer',
  topic,
  broker: 'dapr',
  line: 3,
  confidence: 'heuristic',
  via: 'Dapr PublishEventAsync',
});
const constants = (entries: Record<string, string>): PropertyFact[] =>
  Object.entries(entries).map(([key, value]) => ({ key, value, line: 1 }));
const csFile = (root: string, path: string, facts: Partial<FileFacts>) =>
  indexedFile(root, path, { ...facts, language: 'csharp' }, 'csharp');

function produced(graph: ContractGraph): string[] {
  return graph.edges
    .filter((edge) => edge.kind === 'produces')
    .map((edge) => `${edge.root} ${graph.node(edge.to).name}`)
    .sort();
}

describe('C# constants declared in another file', () => {
  test('a class of an enclosing or imported namespace names the topic; an unrelated namesake does not', () => {
    const graph = reconcile({
      files: [
        csFile('workflow', 'Constants.cs', {
          package: 'WorkflowApp',
          properties: constants({ 'cs:WorkflowApp.Constants.TOPIC': 'shipment-registration-events' }),
        }),
        csFile('workflow', 'Activities/Register.cs', {
          package: 'WorkflowApp.Activities',
          contracts: [producer('${cs:Constants.TOPIC}')],
        }),
        csFile('shop', 'Messaging/Topics.cs', {
          package: 'Shop.Messaging',
          properties: constants({
            'cs:Shop.Messaging.Topics.Created': 'orders.created',
            'cs:Shop.Messaging.Topics.Kafka.Payments': 'payments',
          }),
        }),
        csFile('shop', 'Legacy/Topics.cs', {
          package: 'Shop.Legacy',
          properties: constants({ 'cs:Shop.Legacy.Topics.Created': 'legacy.created' }),
        }),
        csFile('shop', 'Ordering/Publisher.cs', {
          package: 'Shop.Ordering',
          imports: [{ source: 'Shop.Messaging', line: 1 }],
          contracts: [producer('${cs:Topics.Created}'), producer('${cs:Topics.Kafka.Payments}')],
        }),
        csFile('shop', 'Ordering/Qualified.cs', {
          package: 'Shop.Ordering',
          contracts: [producer('${cs:Shop.Legacy.Topics.Created}')],
        }),
      ],
      services: new Map(),
    });
    expect(produced(graph)).toEqual([
      'shop legacy.created',
      'shop orders.created',
      'shop payments',
      'workflow shipment-registration-events',
    ]);
    expect(graph.unresolvedTopics).toEqual([]);
  });

  test('the global namespace is seen from everywhere; the root’s own constant wins over another root’s', () => {
    const graph = reconcile({
      files: [
        csFile('shipping', 'Constants.cs', {
          properties: constants({ 'cs:Constants.CONFIRMED': 'confirmed-events' }),
        }),
        csFile('shipping', 'Program.cs', { contracts: [producer('${cs:Constants.CONFIRMED}')] }),
        csFile('other', 'Constants.cs', {
          properties: constants({ 'cs:Constants.CONFIRMED': 'other-events' }),
        }),
      ],
      services: new Map(),
    });
    expect(produced(graph)).toEqual(['shipping confirmed-events']);
  });

  test('an invisible, ambiguous or undeclared constant, or an enum member, stays unresolved', () => {
    const graph = reconcile({
      files: [
        csFile('billing', 'Internal/Topics.cs', {
          package: 'Billing.Internal',
          properties: constants({ 'cs:Billing.Internal.Topics.Created': 'billing.created' }),
        }),
        csFile('billing', 'A/Names.cs', {
          package: 'Billing.A',
          properties: constants({ 'cs:Billing.A.Names.Same': 'one' }),
        }),
        csFile('billing', 'B/Names.cs', {
          package: 'Billing.B',
          properties: constants({ 'cs:Billing.B.Names.Same': 'two' }),
        }),
        csFile('billing', 'Invoice.cs', {
          package: 'Billing',
          imports: [
            { source: 'Billing.A', line: 1 },
            { source: 'Billing.B', line: 2 },
          ],
          contracts: [
            // `Topics` here is an enum of this namespace with no string value; `Billing.Internal` is not seen.
            producer('${cs:Topics.Created}'),
            producer('${cs:Names.Same}'),
            producer('${cs:Nowhere.Declared}'),
          ],
        }),
      ],
      services: new Map(),
    });
    expect(produced(graph)).toEqual([]);
    expect(graph.unresolvedTopics.map((topic) => topic.topic).sort()).toEqual([
      '${cs:Names.Same}',
      '${cs:Nowhere.Declared}',
      '${cs:Topics.Created}',
    ]);
  });
});
