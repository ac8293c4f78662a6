/**
 * Topic facts → `produces`/`consumes` edges: placeholders read through the service's configuration and
 * environment (a MicroProfile channel defaults to its name), brokers on the topic node, the AMQP routing key
 * and queue on the edge, and destinations nobody can resolve listed instead of dropped.
 */
import { describe, expect, test } from 'vitest';
import type { ContractFact, PropertyFact } from '../../src/index/facts.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { RootIdentity } from '../../src/index/services/types.js';
import { indexedFile } from '../helpers/indexed-file.js';

type TopicFact = Extract<ContractFact, { kind: 'topic_producer' | 'topic_consumer' }>;

const producer = (topic: string, extra: Partial<TopicFact> = {}): TopicFact => ({
  kind: 'topic_producer',
  topic,
  line: 3,
  confidence: 'exact',
  via: 'client publish',
  ...extra,
});
const consumer = (topic: string, extra: Partial<TopicFact> = {}): TopicFact => ({
  ...producer(topic, extra),
  kind: 'topic_consumer',
  via: 'client consume',
});
const property = (key: string, value: string, profile?: string): PropertyFact => ({
  key,
  value,
  line: 1,
  ...(profile === undefined ? {} : { profile }),
});

function topicEdges(graph: ContractGraph): string[] {
  return graph.edges
    .filter((e) => e.kind === 'produces' || e.kind === 'consumes')
    .map((e) => {
      const topic = graph.node(e.to);
      const detail = [e.routingKey && `key=${e.routingKey}`, e.queue && `queue=${e.queue}`].filter(Boolean);
      return `${e.root} ${e.kind} ${topic.name}${topic.broker ? ` [${topic.broker}]` : ''} ${e.confidence}${detail.length ? ` ${detail.join(' ')}` : ''}`;
    })
    .sort();
}

describe('topic links', () => {
  test('a MicroProfile channel reads its topic from the service configuration, else its own name', () => {
    const channel = (direction: string, name: string): string =>
      `\${mp.messaging.${direction}.${name}.topic:\${mp.messaging.${direction}.${name}.address:${name}}}`;
    const graph = reconcile({
      files: [
        indexedFile('orders', 'OrderEmitter.java', {
          contracts: [
            producer(channel('outgoing', 'order-out'), { broker: 'channel', confidence: 'heuristic' }),
          ],
        }),
        indexedFile('orders', 'src/main/resources/application.properties', {
          properties: [property('mp.messaging.outgoing.order-out.topic', 'orders')],
        }),
        indexedFile('billing', 'Billing.java', {
          contracts: [
            consumer(channel('incoming', 'orders'), { broker: 'channel', confidence: 'heuristic' }),
          ],
        }),
      ],
      services: new Map(),
    });
    expect(topicEdges(graph)).toEqual([
      'billing consumes orders [channel] heuristic',
      'orders produces orders [channel] heuristic',
    ]);
    expect(graph.unresolvedTopics).toEqual([]);
  });

  test('an environment placeholder resolves through the deploy-time environment of the service', () => {
    const identity = (env: Record<string, string>): RootIdentity => ({
      names: [],
      env: new Map(Object.entries(env)),
    });
    const graph = reconcile({
      files: [
        indexedFile('worker', 'worker.py', {
          contracts: [consumer('${env.QUEUE_NAME:jobs}', { broker: 'amqp', confidence: 'heuristic' })],
        }),
        indexedFile('api', 'api.py', {
          contracts: [producer('${env.QUEUE_NAME:jobs}', { broker: 'amqp', confidence: 'heuristic' })],
        }),
      ],
      services: new Map(),
      identities: new Map([['worker', identity({ QUEUE_NAME: 'emails' })]]),
    });
    expect(topicEdges(graph)).toEqual([
      'api produces jobs [amqp] heuristic',
      'worker consumes emails [amqp] heuristic',
    ]);
  });

  test('AMQP routing and binding keys and the queue ride on the edge; brokers are joined on the node', () => {
    const graph = reconcile({
      files: [
        indexedFile('emitter', 'emit.go', {
          contracts: [producer('topic_logs', { broker: 'amqp', routingKey: 'kern.critical' })],
        }),
        indexedFile('receiver', 'receive.rb', {
          contracts: [consumer('topic_logs', { broker: 'amqp', routingKey: 'kern.*', queue: 'kernel-logs' })],
        }),
        indexedFile('bridge', 'bridge.ts', { contracts: [consumer('topic_logs', { broker: 'kafka' })] }),
      ],
      services: new Map(),
    });
    expect(topicEdges(graph)).toEqual([
      'bridge consumes topic_logs [amqp+kafka] exact',
      'emitter produces topic_logs [amqp+kafka] exact key=kern.critical',
      'receiver consumes topic_logs [amqp+kafka] exact key=kern.* queue=kernel-logs',
    ]);
  });

  test('a queue bound to exchanges in another file of its root is consumed from those exchanges', () => {
    const graph = reconcile({
      files: [
        indexedFile('notifier', 'src/main/java/shop/MessagingConfig.java', {
          properties: [
            property('amqp.binding.order-mails', 'orders\torder.created'),
            property('amqp.binding.order-mails', 'orders\torder.cancelled'),
            property('amqp.binding.audit', 'orders\t#'),
          ],
        }),
        indexedFile('notifier', 'src/main/java/shop/Mailer.java', {
          contracts: [consumer('order-mails', { broker: 'amqp' })],
        }),
        // Another root binding a queue of the same name changes nothing here.
        indexedFile('reports', 'Topology.java', {
          properties: [property('amqp.binding.daily', 'reports\t')],
        }),
        indexedFile('notifier', 'src/main/java/shop/Daily.java', {
          contracts: [consumer('daily', { broker: 'amqp' })],
        }),
      ],
      services: new Map(),
    });
    expect(topicEdges(graph)).toEqual([
      'notifier consumes daily [amqp] exact',
      'notifier consumes orders [amqp] exact key=order.cancelled queue=order-mails',
      'notifier consumes orders [amqp] exact key=order.created queue=order-mails',
    ]);
  });

  test('a destination that is an expression, or a placeholder nothing sets, is listed as unresolved', () => {
    const graph = reconcile({
      files: [
        indexedFile('cli', 'send.py', {
          contracts: [
            producer('', { broker: 'amqp', unresolved: 'sys.argv[1]', confidence: 'heuristic', line: 7 }),
            consumer('${orders.topic}', { broker: 'kafka', confidence: 'heuristic', line: 9 }),
          ],
        }),
      ],
      services: new Map(),
    });
    expect(topicEdges(graph)).toEqual([]);
    expect(graph.unresolvedTopics).toEqual([
      {
        root: 'cli',
        file: 'send.py',
        line: 7,
        role: 'producer',
        topic: 'sys.argv[1]',
        broker: 'amqp',
        via: 'client publish',
        reason: 'destination is an expression the index cannot evaluate',
      },
      {
        root: 'cli',
        file: 'send.py',
        line: 9,
        role: 'consumer',
        topic: '${orders.topic}',
        broker: 'kafka',
        via: 'client consume',
        reason: 'no configuration or environment value for ${orders.topic}',
      },
    ]);
  });

  test("an Elixir topic read from another module's function resolves from that module's value", () => {
    const topicOf = (module: string): string => `\${ex.${module}.topic}`;
    const graph = reconcile({
      files: [
        indexedFile('flagd-ui', 'lib/flagd_ui/storage.ex', {
          contracts: [producer('flags', { broker: 'eventbus' })],
          properties: [property('ex.FlagdUi.Storage.topic', 'flags')],
        }),
        indexedFile('flagd-ui', 'lib/flagd_ui_web/live/dashboard.ex', {
          contracts: [consumer(topicOf('FlagdUi.Storage'), { broker: 'eventbus', confidence: 'heuristic' })],
        }),
        // Another app's module of the same name, with its own value: the same root wins.
        indexedFile('admin', 'lib/flagd_ui/storage.ex', {
          properties: [
            property('ex.FlagdUi.Storage.topic', 'admin-flags'),
            property('ex.Admin.Audit.topic', 'audit'),
          ],
        }),
        // No module of its root gives the value: one the workspace agrees on is taken, else none.
        indexedFile('reports', 'lib/reports/live.ex', {
          contracts: [
            consumer(topicOf('Admin.Audit'), { broker: 'eventbus', confidence: 'heuristic', line: 5 }),
            consumer(topicOf('FlagdUi.Storage'), { broker: 'eventbus', confidence: 'heuristic', line: 6 }),
          ],
        }),
      ],
      services: new Map(),
    });
    expect(topicEdges(graph)).toEqual([
      'flagd-ui consumes flags [eventbus] heuristic',
      'flagd-ui produces flags [eventbus] exact',
      'reports consumes audit [eventbus] heuristic',
    ]);
    expect(graph.unresolvedTopics.map((u) => `${u.root}:${u.line} ${u.topic}`)).toEqual([
      'reports:6 ${ex.FlagdUi.Storage.topic}',
    ]);
  });
});
