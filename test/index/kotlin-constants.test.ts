/**
 * Kotlin constants across files, extracted from source and reconciled: a `const val` (or string `val`) of an
 * `object`, a `companion object` or a file's top level names a topic written in another Kotlin file (through
 * an import, an alias, the same package, `Companion`) or in a Java file (`Topics.NAME`, `NamesKt.NAME`,
 * `Orders.NAME`), and a Kotlin file names a Java constant. A private or non-String constant, or one of a
 * package the file does not import, leaves the topic unresolved.
 */
import { describe, expect, test } from 'vitest';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import { parseFile } from '../../src/index/parse/parser.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

async function parsed(path: string, source: string): Promise<IndexedFile> {
  const language = path.endsWith('.kt') ? 'kotlin' : 'java';
  const outcome = await parseFile({ path, language, source });
  if (outcome.kind === 'failed') throw new Error(`${path}: ${outcome.reason}`);
  return indexedFile('shop', path, outcome.facts, language);
}

function produced(graph: ContractGraph): string[] {
  return graph.edges
    .filter((edge) => edge.kind === 'produces')
    .map((edge) => graph.node(edge.to).name)
    .sort();
}

const KAFKA = `import org.springframework.kafka.core.KafkaTemplate`;

const holders = (): Promise<IndexedFile[]> =>
  Promise.all([
    parsed(
      'messaging/Topics.kt',
      `package shop.messaging\n\nobject Topics {\n    const val ORDERS = "orders"\n}\n`,
    ),
    parsed('messaging/Names.kt', `package shop.messaging\n\nconst val AUDIT = "audit"\n`),
    parsed(
      'messaging/Orders.kt',
      `package shop.messaging\n\nclass Orders {\n    companion object {\n        const val REFUNDS = "refunds"\n    }\n}\n`,
    ),
    parsed(
      'events/Events.java',
      `package shop.events;\n\npublic final class Events {\n    public static final String CREATED = "order-created";\n}\n`,
    ),
    parsed(
      'internal/Holder.kt',
      `package shop.internal\n\nobject Holder {\n    private const val HIDDEN = "hidden"\n    const val PARTITIONS = 3\n}\n`,
    ),
  ]);

describe('Kotlin constants declared in another file', () => {
  test('Kotlin and Java files name each other’s constants', async () => {
    const files = [
      ...(await holders()),
      await parsed(
        'orders/OrderPublisher.kt',
        `package shop.orders

${KAFKA}
import shop.events.Events
import shop.messaging.AUDIT
import shop.messaging.Orders
import shop.messaging.Topics as T

class OrderPublisher(private val kafkaTemplate: KafkaTemplate<String, String>) {
    fun publish(order: String) {
        kafkaTemplate.send(T.ORDERS, order)
        kafkaTemplate.send(AUDIT, order)
        kafkaTemplate.send(Orders.Companion.REFUNDS, order)
        kafkaTemplate.send(Events.CREATED, order)
    }
}
`,
      ),
      await parsed(
        'messaging/SamePackage.kt',
        `package shop.messaging

${KAFKA}

class SamePackage(private val kafkaTemplate: KafkaTemplate<String, String>) {
    fun publish(order: String) {
        kafkaTemplate.send(AUDIT, order)
    }
}
`,
      ),
      await parsed(
        'billing/JavaPublisher.java',
        `package shop.billing;

import org.springframework.kafka.core.KafkaTemplate;
import shop.messaging.NamesKt;
import shop.messaging.Orders;
import shop.messaging.Topics;

public class JavaPublisher {
    private final KafkaTemplate<String, String> kafkaTemplate;

    JavaPublisher(KafkaTemplate<String, String> kafkaTemplate) {
        this.kafkaTemplate = kafkaTemplate;
    }

    void publish(String order) {
        kafkaTemplate.send(Topics.ORDERS, order);
        kafkaTemplate.send(NamesKt.AUDIT, order);
        kafkaTemplate.send(Orders.REFUNDS, order);
    }
}
`,
      ),
    ];
    const graph = reconcile({ files, services: new Map() });
    expect(produced(graph)).toEqual([
      'audit',
      'audit',
      'audit',
      'order-created',
      'orders',
      'orders',
      'refunds',
      'refunds',
    ]);
    expect(graph.unresolvedTopics).toEqual([]);
  });

  test('a private, non-String or unimported constant stays unresolved', async () => {
    const files = [
      ...(await holders()),
      await parsed(
        'other/Consumer.kt',
        `package shop.other

${KAFKA}
import shop.internal.Holder

class Consumer(private val kafkaTemplate: KafkaTemplate<String, String>) {
    fun publish(order: String) {
        kafkaTemplate.send(Holder.HIDDEN, order)
        kafkaTemplate.send(Holder.PARTITIONS, order)
        kafkaTemplate.send(Topics.ORDERS, order)
    }
}
`,
      ),
    ];
    const graph = reconcile({ files, services: new Map() });
    expect(produced(graph)).toEqual([]);
    expect(graph.unresolvedTopics.map((topic) => topic.topic).sort()).toEqual([
      '${jv:Topics.ORDERS}',
      '${jv:shop.internal.Holder.HIDDEN}',
      '${jv:shop.internal.Holder.PARTITIONS}',
    ]);
  });
});
