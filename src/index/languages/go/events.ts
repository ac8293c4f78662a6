/**
 * Go Kafka producers and consumers: segmentio kafka-go (`ReaderConfig`/`Writer`/`Message` literals),
 * sarama (`ProducerMessage`, `ConsumePartition`, `ConsumerGroup.Consume`) and confluent-kafka-go
 * (`Message{TopicPartition: …}`, `Subscribe`/`SubscribeTopics`). Each recogniser needs its library to be
 * imported; topics resolve from literals, same-file constants and value helpers, and a package-level name
 * declared in another file becomes a `${go:pkg.Name}` placeholder (go-values.ts).
 */
import type { Node } from 'web-tree-sitter';
import { stringList, unwrapParens, type GoScope, type Resolved } from './scope.js';
import { topicValue } from './values.js';
import { startLineOf } from '../shared/tree-utils.js';

function emitTopic(
  kind: 'topic_producer' | 'topic_consumer',
  topic: Resolved | undefined,
  line: number,
  via: string,
  scope: GoScope,
): void {
  if (topic === undefined || topic.value.trim() === '') return;
  scope.file.facts.addContract({
    kind,
    topic: topic.value,
    broker: 'kafka',
    symbol: scope.symbol,
    line,
    confidence: topic.inferred ? 'heuristic' : 'exact',
    via,
  });
}

/** sarama `ConsumePartition`/`Consume`, confluent `Subscribe`/`SubscribeTopics` (only when the library is imported). */
export function onConsumerCall(name: string, args: readonly Node[], line: number, scope: GoScope): void {
  const { sarama, confluent } = scope.file.kafka;
  const [first, second] = args;
  if (sarama && name === 'ConsumePartition' && args.length === 3 && first !== undefined) {
    emitTopic('topic_consumer', topicValue(first, scope), line, 'sarama ConsumePartition', scope);
  } else if (sarama && name === 'Consume' && args.length === 3 && second !== undefined) {
    for (const topic of stringList(second, scope, 0, topicValue))
      emitTopic('topic_consumer', topic, line, 'sarama ConsumerGroup', scope);
  } else if (confluent && name === 'SubscribeTopics' && args.length === 2 && first !== undefined) {
    for (const topic of stringList(first, scope, 0, topicValue))
      emitTopic('topic_consumer', topic, line, 'confluent-kafka-go Subscribe', scope);
  } else if (confluent && name === 'Subscribe' && args.length === 2 && first !== undefined) {
    emitTopic('topic_consumer', topicValue(first, scope), line, 'confluent-kafka-go Subscribe', scope);
  }
}

/** `Name: value` elements of a composite literal, by field name. */
export function keyedFields(literal: Node): Map<string, Node> {
  const fields = new Map<string, Node>();
  for (const element of literal.childForFieldName('body')?.namedChildren ?? []) {
    if (element?.type !== 'keyed_element') continue;
    const key = element.childForFieldName('key') ?? element.namedChild(0);
    const value = element.childForFieldName('value') ?? element.namedChild(1);
    if (key !== null && value !== null) fields.set(unwrapParens(key).text, value);
  }
  return fields;
}

/** Kafka messages and reader/writer configurations written as composite literals. */
export function onKafkaComposite(literal: Node, type: Node, scope: GoScope): void {
  const { segmentio, confluent, sarama } = scope.file.kafka;
  if (!segmentio && !confluent && !sarama) return;
  const pkg = scope.packagePath(type.childForFieldName('package')?.text ?? '') ?? '';
  const name = type.childForFieldName('name')?.text ?? '';
  const library = pkg.includes('segmentio/kafka-go')
    ? 'kafka-go'
    : pkg.includes('confluent-kafka-go')
      ? 'confluent'
      : /(^|\/)sarama$/.test(pkg)
        ? 'sarama'
        : undefined;
  if (library === undefined) return;
  const fields = keyedFields(literal);
  const topic = fields.get('Topic');
  const line = (node: Node): number => startLineOf(node.parent ?? node);
  if (library === 'kafka-go') {
    if (name === 'ReaderConfig') {
      if (topic !== undefined)
        emitTopic('topic_consumer', topicValue(topic, scope), line(topic), 'kafka-go Reader', scope);
      const group = fields.get('GroupTopics');
      if (group !== undefined) {
        for (const t of stringList(group, scope, 0, topicValue))
          emitTopic('topic_consumer', t, line(group), 'kafka-go Reader', scope);
      }
    } else if ((name === 'Writer' || name === 'WriterConfig' || name === 'Message') && topic !== undefined) {
      const via = name === 'Message' ? 'kafka-go Message' : 'kafka-go Writer';
      emitTopic('topic_producer', topicValue(topic, scope), line(topic), via, scope);
    }
  } else if (library === 'confluent' && name === 'Message') {
    const partition = fields.get('TopicPartition');
    const inner = partition === undefined ? undefined : unwrapParens(partition);
    const innerTopic = inner?.type === 'composite_literal' ? keyedFields(inner).get('Topic') : undefined;
    if (innerTopic !== undefined) {
      emitTopic(
        'topic_producer',
        topicValue(innerTopic, scope),
        line(innerTopic),
        'confluent-kafka-go Produce',
        scope,
      );
    }
  } else if (library === 'sarama' && name === 'ProducerMessage' && topic !== undefined) {
    emitTopic('topic_producer', topicValue(topic, scope), line(topic), 'sarama ProducerMessage', scope);
  }
}
