import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractorOf } from '../../../src/index/languages/registry.js';
import { extractKotlin } from '../../../src/index/languages/kotlin/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/kotlin');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/@tree-sitter-grammars/tree-sitter-kotlin');

async function extractSource(source: string, file = 'inline.kt'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'kotlin', source },
    { grammarsDir, extractors: { kotlin: extractKotlin } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/kotlin/${name}`);
}

test('the extractor is registered', async () => {
  expect(await extractorOf('kotlin')).toBe(extractKotlin);
});

describe('kotlin golden fixtures', () => {
  test('NotificationListener.kt: KafkaListener arrays with escaped placeholders and const vals, KafkaTemplate, kafka-clients, declarations and KDoc', async () => {
    expect(await extract('NotificationListener.kt')).toEqual({
      language: 'kotlin',
      package: 'com.shop.notify',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'STOCK_TOPIC',
          qualifiedName: 'STOCK_TOPIC',
          signature: 'const val STOCK_TOPIC = "stock-reserved-topic"',
          startLine: 10,
          endLine: 10,
          exported: true,
        },
        {
          id: 1,
          kind: 'variable',
          name: 'defaultChannel',
          qualifiedName: 'defaultChannel',
          signature: 'val defaultChannel: Channel = Channel.EMAIL',
          startLine: 11,
          endLine: 11,
          exported: true,
        },
        {
          id: 2,
          kind: 'class',
          name: 'NotificationListener',
          qualifiedName: 'NotificationListener',
          signature:
            'class NotificationListener(private val kafkaTemplate: KafkaTemplate<String, String>, private val consumer: KafkaConsumer<String, String>,)',
          startLine: 17,
          endLine: 43,
          bodyStartLine: 21,
          bodyEndLine: 43,
          docstring: 'Sends customer notifications\nfor order and stock events.',
          decorators: ['@Service'],
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'onOrderEvent',
          qualifiedName: 'NotificationListener.onOrderEvent',
          signature: 'fun onOrderEvent(payload: String)',
          startLine: 22,
          endLine: 25,
          bodyStartLine: 23,
          bodyEndLine: 25,
          decorators: [
            '@KafkaListener(topics = ["\\${shop.topics.orders}", PAYMENT_TOPIC], groupId = "notify")',
          ],
          parent: 2,
          exported: true,
        },
        {
          id: 4,
          kind: 'method',
          name: 'onStock',
          qualifiedName: 'NotificationListener.onStock',
          signature: 'fun onStock(payload: String)',
          startLine: 27,
          endLine: 28,
          bodyStartLine: 28,
          bodyEndLine: 28,
          decorators: ['@KafkaListener(topics = [STOCK_TOPIC])'],
          parent: 2,
          exported: true,
        },
        {
          id: 5,
          kind: 'method',
          name: 'forward',
          qualifiedName: 'NotificationListener.forward',
          signature: 'private fun forward(payload: String)',
          startLine: 30,
          endLine: 33,
          bodyStartLine: 30,
          bodyEndLine: 33,
          parent: 2,
          exported: false,
        },
        {
          id: 6,
          kind: 'method',
          name: 'start',
          qualifiedName: 'NotificationListener.start',
          signature: 'fun start()',
          startLine: 35,
          endLine: 37,
          bodyStartLine: 35,
          bodyEndLine: 37,
          parent: 2,
          exported: true,
        },
        {
          id: 7,
          kind: 'class',
          name: 'Companion',
          qualifiedName: 'NotificationListener.Companion',
          signature: 'companion object',
          startLine: 39,
          endLine: 42,
          bodyStartLine: 39,
          bodyEndLine: 42,
          parent: 2,
          exported: true,
        },
        {
          id: 8,
          kind: 'const',
          name: 'PAYMENT_TOPIC',
          qualifiedName: 'NotificationListener.Companion.PAYMENT_TOPIC',
          signature: 'const val PAYMENT_TOPIC = "payment-settled-topic"',
          startLine: 40,
          endLine: 40,
          parent: 7,
          exported: true,
        },
        {
          id: 9,
          kind: 'const',
          name: 'AUDIT_TOPIC',
          qualifiedName: 'NotificationListener.Companion.AUDIT_TOPIC',
          signature: 'const val AUDIT_TOPIC: String = "notify.audit"',
          startLine: 41,
          endLine: 41,
          parent: 7,
          exported: true,
        },
        {
          id: 10,
          kind: 'class',
          name: 'Notification',
          qualifiedName: 'Notification',
          signature: 'data class Notification(val to: String, val body: String)',
          startLine: 45,
          endLine: 45,
          exported: true,
        },
        {
          id: 11,
          kind: 'enum',
          name: 'Channel',
          qualifiedName: 'Channel',
          signature: 'enum class Channel(val label: String)',
          startLine: 47,
          endLine: 52,
          bodyStartLine: 47,
          bodyEndLine: 52,
          exported: true,
        },
        {
          id: 12,
          kind: 'enum_member',
          name: 'EMAIL',
          qualifiedName: 'Channel.EMAIL',
          signature: 'EMAIL("e-mail")',
          startLine: 48,
          endLine: 48,
          parent: 11,
          exported: true,
        },
        {
          id: 13,
          kind: 'enum_member',
          name: 'SMS',
          qualifiedName: 'Channel.SMS',
          signature: 'SMS("sms")',
          startLine: 49,
          endLine: 49,
          parent: 11,
          exported: true,
        },
        {
          id: 14,
          kind: 'method',
          name: 'display',
          qualifiedName: 'Channel.display',
          signature: 'fun display(): String',
          startLine: 51,
          endLine: 51,
          bodyStartLine: 51,
          bodyEndLine: 51,
          parent: 11,
          exported: true,
        },
        {
          id: 15,
          kind: 'class',
          name: 'Templates',
          qualifiedName: 'Templates',
          signature: 'object Templates',
          startLine: 54,
          endLine: 60,
          bodyStartLine: 54,
          bodyEndLine: 60,
          exported: true,
        },
        {
          id: 16,
          kind: 'property',
          name: 'greeting',
          qualifiedName: 'Templates.greeting',
          signature: 'val greeting = "Hello"',
          startLine: 55,
          endLine: 55,
          parent: 15,
          exported: true,
        },
        {
          id: 17,
          kind: 'method',
          name: 'render',
          qualifiedName: 'Templates.render',
          signature: 'fun render(name: String): String',
          startLine: 57,
          endLine: 59,
          bodyStartLine: 57,
          bodyEndLine: 59,
          parent: 15,
          exported: true,
        },
        {
          id: 18,
          kind: 'interface',
          name: 'Notifier',
          qualifiedName: 'Notifier',
          signature: 'interface Notifier',
          startLine: 62,
          endLine: 64,
          bodyStartLine: 62,
          bodyEndLine: 64,
          exported: true,
        },
        {
          id: 19,
          kind: 'method',
          name: 'notify',
          qualifiedName: 'Notifier.notify',
          signature: 'fun notify(notification: Notification): Boolean',
          startLine: 63,
          endLine: 63,
          parent: 18,
          exported: true,
        },
        {
          id: 20,
          kind: 'type',
          name: 'Recipients',
          qualifiedName: 'Recipients',
          signature: 'typealias Recipients = List<String>',
          startLine: 66,
          endLine: 66,
          exported: true,
        },
        {
          id: 21,
          kind: 'function',
          name: 'topLevelHelper',
          qualifiedName: 'topLevelHelper',
          signature: 'fun topLevelHelper(values: Recipients): Int',
          startLine: 68,
          endLine: 68,
          bodyStartLine: 68,
          bodyEndLine: 68,
          exported: true,
        },
      ],
      imports: [
        { source: 'org.apache.kafka.clients.consumer.KafkaConsumer', names: ['KafkaConsumer'], line: 3 },
        { source: 'org.apache.kafka.clients.producer.ProducerRecord', names: ['ProducerRecord'], line: 4 },
        { source: 'org.springframework.kafka.annotation.KafkaListener', names: ['KafkaListener'], line: 5 },
        { source: 'org.springframework.kafka.core.KafkaTemplate', names: ['KafkaTemplate'], line: 6 },
        { source: 'org.springframework.stereotype.Service', names: ['Service'], line: 7 },
        { source: 'java.time', names: ['*'], line: 8 },
      ],
      contracts: [
        {
          kind: 'topic_consumer',
          topic: '${shop.topics.orders}',
          symbol: 3,
          line: 23,
          confidence: 'exact',
          via: '@KafkaListener',
        },
        {
          kind: 'topic_consumer',
          topic: 'payment-settled-topic',
          symbol: 3,
          line: 23,
          confidence: 'exact',
          via: '@KafkaListener',
        },
        {
          kind: 'topic_producer',
          topic: 'notification-sent-topic',
          symbol: 3,
          line: 24,
          confidence: 'exact',
          via: 'KafkaTemplate.send',
        },
        {
          kind: 'topic_consumer',
          topic: 'stock-reserved-topic',
          symbol: 4,
          line: 28,
          confidence: 'exact',
          via: '@KafkaListener',
        },
        {
          kind: 'topic_producer',
          topic: 'notify.audit',
          symbol: 5,
          line: 31,
          confidence: 'exact',
          via: 'ProducerRecord',
        },
        {
          kind: 'topic_consumer',
          topic: 'order-cancelled-topic',
          symbol: 6,
          line: 36,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'notify.audit',
          symbol: 6,
          line: 36,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
      ],
    });
  });

  test('OrderController.kt: Spring routes (with annotations the grammar detaches) and Ktor routing with nested prefixes', async () => {
    expect(await extract('OrderController.kt')).toEqual({
      language: 'kotlin',
      package: 'com.shop.orders',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'OrderController',
          qualifiedName: 'OrderController',
          signature: 'class OrderController(private val service: OrderService)',
          startLine: 7,
          endLine: 24,
          bodyStartLine: 9,
          bodyEndLine: 24,
          decorators: ['@RestController', '@RequestMapping("/api/orders")'],
          exported: true,
        },
        {
          id: 1,
          kind: 'method',
          name: 'get',
          qualifiedName: 'OrderController.get',
          signature: 'fun get(@PathVariable id: String): Order',
          startLine: 10,
          endLine: 11,
          bodyStartLine: 11,
          bodyEndLine: 11,
          decorators: ['@GetMapping("/{id}")'],
          parent: 0,
          exported: true,
        },
        {
          id: 2,
          kind: 'method',
          name: 'create',
          qualifiedName: 'OrderController.create',
          signature: 'fun create(@RequestBody order: Order): Order',
          startLine: 13,
          endLine: 17,
          bodyStartLine: 14,
          bodyEndLine: 17,
          decorators: ['@PostMapping'],
          parent: 0,
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'items',
          qualifiedName: 'OrderController.items',
          signature: 'fun items(@PathVariable id: String): List<String>',
          startLine: 19,
          endLine: 20,
          bodyStartLine: 20,
          bodyEndLine: 20,
          decorators: [
            '@RequestMapping(value = ["/{id}/items", "/{id}/lines"], method = [RequestMethod.GET])',
          ],
          parent: 0,
          exported: true,
        },
        {
          id: 4,
          kind: 'method',
          name: 'export',
          qualifiedName: 'OrderController.export',
          signature: 'fun export(): String',
          startLine: 22,
          endLine: 23,
          bodyStartLine: 23,
          bodyEndLine: 23,
          decorators: ['@RequestMapping("/export")'],
          parent: 0,
          exported: true,
        },
        {
          id: 5,
          kind: 'function',
          name: 'orderRoutes',
          qualifiedName: 'orderRoutes',
          signature: 'fun Application.orderRoutes()',
          startLine: 26,
          endLine: 37,
          bodyStartLine: 26,
          bodyEndLine: 37,
          exported: true,
        },
        {
          id: 6,
          kind: 'function',
          name: 'adminRoutes',
          qualifiedName: 'adminRoutes',
          signature: 'fun Route.adminRoutes()',
          startLine: 39,
          endLine: 41,
          bodyStartLine: 39,
          bodyEndLine: 41,
          exported: true,
        },
      ],
      imports: [
        { source: 'io.ktor.server.application.Application', names: ['Application'], line: 3 },
        { source: 'io.ktor.server.routing', names: ['*'], line: 4 },
        { source: 'org.springframework.web.bind.annotation', names: ['*'], line: 5 },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/api/orders/{id}',
          symbol: 1,
          line: 11,
          via: '@GetMapping',
        },
        { kind: 'http_route', method: 'POST', path: '/api/orders', symbol: 2, line: 14, via: '@PostMapping' },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/api/orders/{id}/items',
          symbol: 3,
          line: 20,
          via: '@RequestMapping',
        },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/api/orders/{id}/lines',
          symbol: 3,
          line: 20,
          via: '@RequestMapping',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/api/orders/export',
          symbol: 4,
          line: 23,
          via: '@RequestMapping',
        },
        { kind: 'http_route', method: 'GET', path: '/health', symbol: 5, line: 28, via: 'Ktor routing' },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/v2/orders/{id}',
          symbol: 5,
          line: 30,
          via: 'Ktor routing',
        },
        { kind: 'http_route', method: 'POST', path: '/v2/orders', symbol: 5, line: 31, via: 'Ktor routing' },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/v2/orders/{id}/items/{itemId}',
          symbol: 5,
          line: 33,
          via: 'Ktor routing',
        },
        {
          kind: 'http_route',
          method: 'PUT',
          path: '/admin/reindex',
          symbol: 6,
          line: 40,
          via: 'Ktor routing',
        },
      ],
    });
  });

  test('PaymentService.kt: grpc-kotlin server and coroutine stubs assigned in a property and in init', async () => {
    expect(await extract('PaymentService.kt')).toEqual({
      language: 'kotlin',
      package: 'com.shop.payment',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'PaymentService',
          qualifiedName: 'PaymentService',
          signature:
            'class PaymentService(channel: ManagedChannel) : PaymentServiceGrpcKt.PaymentServiceCoroutineImplBase()',
          startLine: 9,
          endLine: 18,
          bodyStartLine: 9,
          bodyEndLine: 18,
          exported: true,
        },
        {
          id: 1,
          kind: 'property',
          name: 'inventory',
          qualifiedName: 'PaymentService.inventory',
          signature: 'private val inventory = InventoryServiceGrpcKt.InventoryServiceCoroutineStub(channel)',
          startLine: 10,
          endLine: 10,
          parent: 0,
          exported: false,
        },
        {
          id: 2,
          kind: 'method',
          name: 'processPayment',
          qualifiedName: 'PaymentService.processPayment',
          signature:
            'override suspend fun processPayment(request: ProcessPaymentRequest): ProcessPaymentResponse',
          startLine: 12,
          endLine: 15,
          bodyStartLine: 12,
          bodyEndLine: 15,
          parent: 0,
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'audit',
          qualifiedName: 'PaymentService.audit',
          signature: 'private fun audit(request: ProcessPaymentRequest)',
          startLine: 17,
          endLine: 17,
          bodyStartLine: 17,
          bodyEndLine: 17,
          parent: 0,
          exported: false,
        },
        {
          id: 4,
          kind: 'class',
          name: 'RefundSaga',
          qualifiedName: 'RefundSaga',
          signature: 'class RefundSaga(private val channel: ManagedChannel)',
          startLine: 20,
          endLine: 30,
          bodyStartLine: 20,
          bodyEndLine: 30,
          exported: true,
        },
        {
          id: 5,
          kind: 'property',
          name: 'payments',
          qualifiedName: 'RefundSaga.payments',
          signature: 'private lateinit var payments: PaymentServiceGrpcKt.PaymentServiceCoroutineStub',
          startLine: 21,
          endLine: 21,
          parent: 4,
          exported: false,
        },
        {
          id: 6,
          kind: 'method',
          name: 'refund',
          qualifiedName: 'RefundSaga.refund',
          signature: 'suspend fun refund(request: ProcessPaymentRequest)',
          startLine: 27,
          endLine: 29,
          bodyStartLine: 27,
          bodyEndLine: 29,
          parent: 4,
          exported: true,
        },
      ],
      imports: [
        { source: 'com.shop.payment.v1.InventoryServiceGrpcKt', names: ['InventoryServiceGrpcKt'], line: 3 },
        { source: 'com.shop.payment.v1.PaymentServiceGrpcKt', names: ['PaymentServiceGrpcKt'], line: 4 },
        { source: 'com.shop.payment.v1.ProcessPaymentRequest', names: ['ProcessPaymentRequest'], line: 5 },
        { source: 'com.shop.payment.v1.ProcessPaymentResponse', names: ['ProcessPaymentResponse'], line: 6 },
        { source: 'io.grpc.ManagedChannel', names: ['ManagedChannel'], line: 7 },
      ],
      contracts: [
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          symbol: 0,
          line: 9,
          confidence: 'exact',
          via: 'extends CoroutineImplBase',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          symbol: 1,
          line: 10,
          confidence: 'exact',
          via: 'CoroutineStub',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          method: 'processPayment',
          symbol: 2,
          line: 12,
          confidence: 'exact',
          via: 'extends CoroutineImplBase',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          method: 'reserveStock',
          symbol: 2,
          line: 13,
          confidence: 'exact',
          via: 'stub call',
        },
        { kind: 'saga', name: 'RefundSaga', symbol: 4, line: 20, via: 'class name' },
        {
          kind: 'grpc_client',
          service: 'PaymentService',
          symbol: 4,
          line: 24,
          confidence: 'exact',
          via: 'CoroutineStub',
        },
        {
          kind: 'grpc_client',
          service: 'PaymentService',
          method: 'refundPayment',
          symbol: 6,
          line: 28,
          confidence: 'exact',
          via: 'stub call',
        },
      ],
    });
  });
});

describe('kotlin negative fixture', () => {
  test('look-alikes yield declarations only', async () => {
    const facts = await extract('negative/Lookalikes.kt');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'Lookalikes',
        qualifiedName: 'Lookalikes',
        signature:
          'class Lookalikes(private val kafkaTemplate: KafkaTemplate<String, String>, private val mailer: Mailer,)',
        startLine: 7,
        endLine: 31,
        bodyStartLine: 10,
        bodyEndLine: 31,
        docstring: 'Looks like contracts, is not: no route, topic or client may come out of this file.',
        exported: true,
      },
      {
        id: 1,
        kind: 'property',
        name: 'log',
        qualifiedName: 'Lookalikes.log',
        signature: 'private val log = LoggerFactory.getLogger(Lookalikes::class.java)',
        startLine: 11,
        endLine: 11,
        parent: 0,
        exported: false,
      },
      {
        id: 2,
        kind: 'method',
        name: 'describe',
        qualifiedName: 'Lookalikes.describe',
        signature: 'fun describe(): String',
        startLine: 13,
        endLine: 13,
        bodyStartLine: 13,
        bodyEndLine: 13,
        parent: 0,
        exported: true,
      },
      {
        id: 3,
        kind: 'method',
        name: 'publish',
        qualifiedName: 'Lookalikes.publish',
        signature: 'fun publish(orderTopic: String, id: String)',
        startLine: 15,
        endLine: 23,
        bodyStartLine: 15,
        bodyEndLine: 23,
        parent: 0,
        exported: true,
      },
      {
        id: 4,
        kind: 'method',
        name: 'handlers',
        qualifiedName: 'Lookalikes.handlers',
        signature: 'fun handlers()',
        startLine: 25,
        endLine: 30,
        bodyStartLine: 25,
        bodyEndLine: 30,
        parent: 0,
        exported: true,
      },
      {
        id: 5,
        kind: 'class',
        name: 'Mailer',
        qualifiedName: 'Mailer',
        signature: 'class Mailer',
        startLine: 33,
        endLine: 35,
        bodyStartLine: 33,
        bodyEndLine: 35,
        exported: true,
      },
      {
        id: 6,
        kind: 'method',
        name: 'send',
        qualifiedName: 'Mailer.send',
        signature: 'fun send(to: String, body: String)',
        startLine: 34,
        endLine: 34,
        bodyStartLine: 34,
        bodyEndLine: 34,
        parent: 5,
        exported: true,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'org.slf4j.LoggerFactory', names: ['LoggerFactory'], line: 3 },
      { source: 'org.springframework.kafka.core.KafkaTemplate', names: ['KafkaTemplate'], line: 4 },
    ]);
  });
});

describe('kotlin contract rules', () => {
  const contractsOf = async (source: string) => (await extractSource(source)).contracts;

  test('arrayOf topics, object constants, @StreamListener, unresolvable topics', async () => {
    expect(
      await contractsOf(`
object Topics {
    const val REFUNDS = "refunds-topic"
}
class Listener(private val kafkaTemplate: KafkaTemplate<String, String>) {
    @KafkaListener(topics = arrayOf(Topics.REFUNDS, "ledger-topic"))
    fun a(s: String) {}
    @StreamListener("orders-in")
    fun b(s: String) {}
    @KafkaListener(topicPattern = "orders-.*")
    fun c(s: String) {}
    @KafkaListener(topics = [ExternalTopics.ORDERS])
    fun d(topic: String) {
        kafkaTemplate.send(topic, "x")
        kafkaTemplate.send("\${'$'}{topic}", "x")
    }
}`),
    ).toEqual([
      {
        kind: 'topic_consumer',
        topic: 'refunds-topic',
        symbol: 3,
        line: 7,
        confidence: 'exact',
        via: '@KafkaListener',
      },
      {
        kind: 'topic_consumer',
        topic: 'ledger-topic',
        symbol: 3,
        line: 7,
        confidence: 'exact',
        via: '@KafkaListener',
      },
      {
        kind: 'topic_consumer',
        topic: 'orders-in',
        symbol: 4,
        line: 9,
        confidence: 'exact',
        via: '@StreamListener',
      },
    ]);
  });

  test('KafkaTemplate receivers: type wins over name, unknown type falls back to the name', async () => {
    expect(
      await contractsOf(`
class Producer(private val kafkaTemplate: AuditClient, private val template: KafkaTemplate<String, String>) : Base() {
    fun a() {
        template.send("typed-topic", "x")
        kafkaTemplate.send("not-kafka-topic", "x")
        inheritedKafkaTemplate.send("inherited-topic", "x")
    }
}`),
    ).toEqual([
      {
        kind: 'topic_producer',
        topic: 'typed-topic',
        symbol: 1,
        line: 4,
        confidence: 'exact',
        via: 'KafkaTemplate.send',
      },
      {
        kind: 'topic_producer',
        topic: 'inherited-topic',
        symbol: 1,
        line: 6,
        confidence: 'heuristic',
        via: 'KafkaTemplate.send',
      },
    ]);
  });

  test('grpc-java stubs from Kotlin: factories, @GrpcClient properties, chained calls; Health filtered', async () => {
    expect(
      await contractsOf(`
class Clients(channel: ManagedChannel) {
    @GrpcClient("inventory")
    private lateinit var inventory: InventoryServiceGrpc.InventoryServiceBlockingStub
    private val payments = PaymentServiceGrpc.newBlockingStub(channel)
    private val health = HealthGrpc.newBlockingStub(channel)

    fun call() {
        inventory.reserveStock(request)
        payments.withDeadlineAfter(1, TimeUnit.SECONDS).processPayment(request)
        health.check(request)
    }
}`),
    ).toEqual([
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        symbol: 1,
        line: 4,
        confidence: 'exact',
        via: '@GrpcClient',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        symbol: 2,
        line: 5,
        confidence: 'exact',
        via: 'newBlockingStub',
      },
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        method: 'reserveStock',
        symbol: 4,
        line: 9,
        confidence: 'exact',
        via: 'stub call',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'processPayment',
        symbol: 4,
        line: 10,
        confidence: 'exact',
        via: 'stub call',
      },
    ]);
  });

  test('Ktor verbs outside a routing block are not routes', async () => {
    expect(
      await contractsOf(`
fun notRouting(cache: Cache) {
    get("/not-a-route") { }
    cache.get("/key") { }
}`),
    ).toEqual([]);
  });
});

describe('kotlin scope functions and environment defaults', () => {
  test('FraudConsumer.kt: subscribe inside apply/with/also/let, and `System.getenv(…) ?: "x"` defaults (heuristic)', async () => {
    expect(await extract('FraudConsumer.kt')).toEqual({
      language: 'kotlin',
      package: 'com.shop.fraud',
      symbols: [
        {
          id: 0,
          kind: 'variable',
          name: 'ordersTopic',
          qualifiedName: 'ordersTopic',
          signature: 'val ordersTopic: String = System.getenv("ORDERS_TOPIC") ?: "orders"',
          startLine: 8,
          endLine: 8,
          exported: true,
        },
        {
          id: 1,
          kind: 'const',
          name: 'ALERTS',
          qualifiedName: 'ALERTS',
          signature: 'const val ALERTS = "fraud-alerts"',
          startLine: 9,
          endLine: 9,
          exported: true,
        },
        {
          id: 2,
          kind: 'function',
          name: 'main',
          qualifiedName: 'main',
          signature: 'fun main()',
          startLine: 12,
          endLine: 26,
          bodyStartLine: 12,
          bodyEndLine: 26,
          docstring: 'Reads orders and raises alerts; the topics can be renamed through the environment.',
          exported: true,
        },
      ],
      imports: [
        { source: 'org.apache.kafka.clients.consumer.KafkaConsumer', names: ['KafkaConsumer'], line: 3 },
        { source: 'org.apache.kafka.clients.producer.KafkaProducer', names: ['KafkaProducer'], line: 4 },
        { source: 'org.apache.kafka.clients.producer.ProducerRecord', names: ['ProducerRecord'], line: 5 },
        { source: 'java.util.Properties', names: ['Properties'], line: 6 },
      ],
      contracts: [
        {
          kind: 'topic_consumer',
          topic: 'orders',
          symbol: 2,
          line: 15,
          confidence: 'heuristic',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'orders-audit',
          symbol: 2,
          line: 19,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'fraud-alerts',
          symbol: 2,
          line: 21,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'orders-replay',
          symbol: 2,
          line: 22,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_producer',
          topic: 'fraud-alerts',
          symbol: 2,
          line: 24,
          confidence: 'heuristic',
          via: 'ProducerRecord',
        },
      ],
    });
  });

  test('scope functions on other objects, shadowing lambdas and non-environment elvis defaults yield nothing', async () => {
    const facts = await extract('negative/ScopeLookalikes.kt');
    expect(facts.contracts).toEqual([]);
  });
});

describe('kotlin Spring HTTP clients', () => {
  const contractsOf = async (source: string) => (await extractSource(source)).contracts;

  test('RestClient fluent chain: a `$billingUrl` template over a @Value parameter is the base, `{orderId}` a path parameter', async () => {
    expect(
      await contractsOf(`
class BillingClient(
    private val restClient: RestClient,
    @Value("\\\${BILLING_URL}") private val billingUrl: String,
) {
    fun invoice(orderId: String) =
        restClient.get().uri("$billingUrl/invoices/{orderId}", orderId).retrieve().body(String::class.java)

    fun cancel(orderId: String) {
        restClient.method(HttpMethod.DELETE).uri("\${billingUrl}/invoices/$orderId").retrieve()
    }
}`),
    ).toEqual([
      {
        kind: 'http_call',
        method: 'GET',
        path: '/invoices/{orderId}',
        base: '${BILLING_URL}',
        symbol: 1,
        line: 7,
        confidence: 'exact',
        via: 'RestClient',
      },
      {
        kind: 'http_call',
        method: 'DELETE',
        path: '/invoices/{orderId}',
        base: '${BILLING_URL}',
        symbol: 2,
        line: 10,
        confidence: 'heuristic',
        via: 'RestClient',
      },
    ]);
  });

  test('RestTemplate: typed, constructed and name-only receivers; getForObject, exchange with HttpMethod, environment bases', async () => {
    expect(
      await contractsOf(`
object Urls {
    const val ORDERS = "http://orders:8080/api"
}
class OrdersClient(private val rest: RestTemplate) : Base() {
    private val template = RestTemplate()

    fun calls(id: String, method: HttpMethod) {
        rest.getForObject("\${Urls.ORDERS}/orders/{id}", String::class.java, id)
        template.exchange(Urls.ORDERS + "/orders/" + id, HttpMethod.PUT, null, String::class.java)
        rest.postForEntity("http://orders:8080/orders", id, String::class.java)
        restTemplate.delete(System.getenv("ORDERS_URL") + "/orders/{id}", id)
        rest.exchange("/orders", method, null, String::class.java)
    }
}`),
    ).toEqual([
      {
        kind: 'http_call',
        method: 'GET',
        path: '/api/orders/{id}',
        base: 'http://orders:8080',
        symbol: 4,
        line: 9,
        confidence: 'exact',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'PUT',
        path: '/api/orders/{id}',
        base: 'http://orders:8080',
        symbol: 4,
        line: 10,
        confidence: 'heuristic',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/orders',
        base: 'http://orders:8080',
        symbol: 4,
        line: 11,
        confidence: 'exact',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'DELETE',
        path: '/orders/{id}',
        base: 'env:ORDERS_URL',
        symbol: 4,
        line: 12,
        confidence: 'heuristic',
        via: 'RestTemplate',
      },
    ]);
  });

  test('WebClient: a builder base through a @Value parameter, WebClient.create bases, URI-builder lambdas skipped', async () => {
    expect(
      await contractsOf(`
class ShippingClient(builder: WebClient.Builder, @Value("\\\${shipping.url}") shippingUrl: String) {
    private val webClient = builder.baseUrl(shippingUrl).build()
    private val carrier = WebClient.create("http://carrier:8080")

    fun track(parcelId: String) = webClient.get().uri("/parcels/{id}", parcelId).retrieve().bodyToMono<String>()

    fun label(parcelId: String) {
        webClient.post().uri("/parcels/$parcelId/label").retrieve()
    }

    fun pickup() = carrier.put().uri("/pickups").retrieve()

    fun quote() = WebClient.create(System.getenv("RATES_URL")).post().uri("/quotes?zone=eu").retrieve()

    fun search() = webClient.get().uri { it.path("/parcels").build() }.retrieve()
}`),
    ).toEqual([
      {
        kind: 'http_call',
        method: 'GET',
        path: '/parcels/{id}',
        base: '${shipping.url}',
        symbol: 3,
        line: 6,
        confidence: 'exact',
        via: 'WebClient',
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/parcels/{parcelId}/label',
        base: '${shipping.url}',
        symbol: 4,
        line: 9,
        confidence: 'heuristic',
        via: 'WebClient',
      },
      {
        kind: 'http_call',
        method: 'PUT',
        path: '/pickups',
        base: 'http://carrier:8080',
        symbol: 5,
        line: 12,
        confidence: 'exact',
        via: 'WebClient',
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/quotes',
        base: 'env:RATES_URL',
        symbol: 6,
        line: 14,
        confidence: 'exact',
        via: 'WebClient',
      },
    ]);
  });

  test("string templates: locals, companion constants, environment defaults and `${'$'}{…}` placeholders", async () => {
    expect(
      await contractsOf(`
class Templates(private val restTemplate: RestTemplate) {
    companion object {
        const val BILLING = "http://billing:8080"
    }
    private val ledger = System.getenv("LEDGER_URL") ?: "http://localhost:9090"

    fun calls(id: String) {
        val base = "$BILLING/v1"
        restTemplate.getForObject("$base/invoices/{id}", String::class.java, id)
        restTemplate.getForObject("$ledger/entries", String::class.java)
        restTemplate.getForObject("\${'$'}{billing.url}/refunds", String::class.java)
    }
}`),
    ).toEqual([
      {
        kind: 'http_call',
        method: 'GET',
        path: '/v1/invoices/{id}',
        base: 'http://billing:8080',
        symbol: 4,
        line: 10,
        confidence: 'exact',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/entries',
        base: 'env:LEDGER_URL',
        symbol: 4,
        line: 11,
        confidence: 'exact',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/refunds',
        base: '${billing.url}',
        symbol: 4,
        line: 12,
        confidence: 'exact',
        via: 'RestTemplate',
      },
    ]);
  });

  test('look-alikes: other types with get().uri() or getForObject, client-like names of other types, receiverless calls', async () => {
    expect(
      await contractsOf(`
class Lookalikes(private val cache: Cache, private val restClient: BillingApi, private val mapper: ObjectMapper) {
    private val requests = RequestBuilder()

    fun run(id: String) {
        cache.get().uri("/not-a-call/{id}", id)
        restClient.get().uri("/typed-not-a-client")
        requests.post().uri("/also-not")
        mapper.getForObject("/not-a-rest-template", String::class.java)
        val restTemplate = AuditLog()
        restTemplate.getForObject("/audit", String::class.java)
        repository.delete("/x")
        get("/not-ktor-either")
        getForObject("/own-method")
    }

    fun getForObject(url: String): String = url
}`),
    ).toEqual([]);
  });
});
