import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractorOf } from '../../../src/index/languages/registry.js';
import { extractScala } from '../../../src/index/languages/scala/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/scala');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-scala');

async function extractSource(source: string, file = 'inline.scala'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'scala', source },
    { grammarsDir, extractors: { scala: extractScala } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/scala/${name}`);
}

test('the extractor is registered', async () => {
  expect(await extractorOf('scala')).toBe(extractScala);
});

describe('scala golden fixtures', () => {
  test('Analytics.scala: declarations, Scaladoc, annotations and every import form', async () => {
    expect(await extract('Analytics.scala')).toEqual({
      language: 'scala',
      package: 'com.shop.analytics',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'Revenue',
          qualifiedName: 'Revenue',
          signature: 'final case class Revenue(day: String, cents: Long)',
          startLine: 10,
          endLine: 11,
          docstring: 'Aggregates order events into daily revenue.',
          decorators: ['@SerialVersionUID(1L)'],
          exported: true,
        },
        {
          id: 1,
          kind: 'trait',
          name: 'RevenueStore',
          qualifiedName: 'RevenueStore',
          signature: 'trait RevenueStore[F[_]]',
          startLine: 13,
          endLine: 16,
          bodyStartLine: 13,
          bodyEndLine: 16,
          exported: true,
        },
        {
          id: 2,
          kind: 'method',
          name: 'load',
          qualifiedName: 'RevenueStore.load',
          signature: 'def load(day: String): F[Option[Revenue]]',
          startLine: 14,
          endLine: 14,
          parent: 1,
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'save',
          qualifiedName: 'RevenueStore.save',
          signature: 'def save(revenue: Revenue): F[Unit]',
          startLine: 15,
          endLine: 15,
          parent: 1,
          exported: true,
        },
        {
          id: 4,
          kind: 'class',
          name: 'Analytics',
          qualifiedName: 'Analytics',
          signature: 'object Analytics extends App',
          startLine: 18,
          endLine: 33,
          bodyStartLine: 18,
          bodyEndLine: 33,
          exported: true,
        },
        {
          id: 5,
          kind: 'property',
          name: 'Topic',
          qualifiedName: 'Analytics.Topic',
          signature: 'val Topic = "analytics-events"',
          startLine: 19,
          endLine: 19,
          parent: 4,
          exported: true,
        },
        {
          id: 6,
          kind: 'property',
          name: 'processed',
          qualifiedName: 'Analytics.processed',
          signature: 'private var processed: Long = 0L',
          startLine: 20,
          endLine: 20,
          parent: 4,
          exported: false,
        },
        {
          id: 7,
          kind: 'method',
          name: 'record',
          qualifiedName: 'Analytics.record',
          signature: 'def record(event: OrderCreated)(implicit ec: ExecutionContext): Future[Revenue]',
          startLine: 23,
          endLine: 26,
          bodyStartLine: 23,
          bodyEndLine: 26,
          docstring: 'Adds one order to the running total.',
          parent: 4,
          exported: true,
        },
        {
          id: 8,
          kind: 'class',
          name: 'Worker',
          qualifiedName: 'Analytics.Worker',
          signature: 'class Worker extends Actor',
          startLine: 28,
          endLine: 30,
          bodyStartLine: 28,
          bodyEndLine: 30,
          parent: 4,
          exported: true,
        },
        {
          id: 9,
          kind: 'method',
          name: 'receive',
          qualifiedName: 'Analytics.Worker.receive',
          signature: 'def receive: Receive',
          startLine: 29,
          endLine: 29,
          bodyStartLine: 29,
          bodyEndLine: 29,
          parent: 8,
          exported: true,
        },
        {
          id: 10,
          kind: 'type',
          name: 'Totals',
          qualifiedName: 'Analytics.Totals',
          signature: 'type Totals = Map[String, Long]',
          startLine: 32,
          endLine: 32,
          parent: 4,
          exported: true,
        },
        {
          id: 11,
          kind: 'class',
          name: 'Period',
          qualifiedName: 'Period',
          signature: 'sealed abstract class Period(val days: Int)',
          startLine: 35,
          endLine: 35,
          exported: true,
        },
        {
          id: 12,
          kind: 'enum',
          name: 'Granularity',
          qualifiedName: 'Granularity',
          signature: 'enum Granularity',
          startLine: 37,
          endLine: 39,
          bodyStartLine: 37,
          bodyEndLine: 39,
          exported: true,
        },
        {
          id: 13,
          kind: 'enum_member',
          name: 'Daily',
          qualifiedName: 'Granularity.Daily',
          signature: 'Daily',
          startLine: 38,
          endLine: 38,
          parent: 12,
          exported: true,
        },
        {
          id: 14,
          kind: 'enum_member',
          name: 'Weekly',
          qualifiedName: 'Granularity.Weekly',
          signature: 'Weekly',
          startLine: 38,
          endLine: 38,
          parent: 12,
          exported: true,
        },
        {
          id: 15,
          kind: 'enum_member',
          name: 'Monthly',
          qualifiedName: 'Granularity.Monthly',
          signature: 'Monthly',
          startLine: 39,
          endLine: 39,
          parent: 12,
          exported: true,
        },
        {
          id: 16,
          kind: 'function',
          name: 'summarize',
          qualifiedName: 'summarize',
          signature: 'def summarize(totals: Analytics.Totals): String',
          startLine: 41,
          endLine: 42,
          bodyStartLine: 42,
          bodyEndLine: 42,
          exported: true,
        },
      ],
      imports: [
        { source: 'scala.concurrent.ExecutionContext', names: ['ExecutionContext'], line: 4 },
        { source: 'scala.concurrent.Future', names: ['Future'], line: 4 },
        { source: 'scala.util.Try', names: ['Try'], line: 5 },
        { source: 'scala.util.control.NonFatal', names: ['NonFatal'], line: 5 },
        { source: 'akka.actor.Actor', names: ['Actor'], line: 6 },
        { source: 'akka.actor.Props', names: ['Props'], line: 6 },
        { source: 'akka.actor', names: ['*'], line: 6 },
        { source: 'com.shop.events.OrderCreated', names: ['OrderCreated'], line: 7 },
      ],
      contracts: [],
    });
  });
});

describe('scala negative fixture', () => {
  test('look-alikes yield declarations only', async () => {
    const facts = await extract('negative/Lookalikes.scala');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'Publisher',
        qualifiedName: 'Publisher',
        signature: 'class Publisher(producer: KafkaProducer[String, String])',
        startLine: 6,
        endLine: 13,
        bodyStartLine: 6,
        bodyEndLine: 13,
        docstring: 'Scala contracts are not extracted: even real producer code yields declarations only.',
        exported: true,
      },
      {
        id: 1,
        kind: 'property',
        name: 'banner',
        qualifiedName: 'Publisher.banner',
        signature: 'val banner = "@GetMapping(\\"/fake\\") @KafkaListener(topics = \\"fake-topic\\")"',
        startLine: 7,
        endLine: 7,
        parent: 0,
        exported: true,
      },
      {
        id: 2,
        kind: 'method',
        name: 'publish',
        qualifiedName: 'Publisher.publish',
        signature: 'def publish(id: String): Unit',
        startLine: 9,
        endLine: 12,
        bodyStartLine: 9,
        bodyEndLine: 12,
        parent: 0,
        exported: true,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'org.apache.kafka.clients.producer.KafkaProducer', names: ['KafkaProducer'], line: 3 },
      { source: 'org.apache.kafka.clients.producer.ProducerRecord', names: ['ProducerRecord'], line: 3 },
    ]);
  });
});
