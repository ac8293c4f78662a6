import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractorOf } from '../../../src/index/languages/registry.js';
import { extractJava } from '../../../src/index/languages/java/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/java');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-java');

async function extractSource(source: string, file = 'inline.java'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'java', source },
    { grammarsDir, extractors: { java: extractJava } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/java/${name}`);
}

test('the extractor is registered', async () => {
  expect(await extractorOf('java')).toBe(extractJava);
});

describe('java golden fixtures', () => {
  test('BillingSaga.java: saga, Kafka listeners and producers, gRPC stub in the constructor, RestTemplate with a @Value base', async () => {
    expect(await extract('BillingSaga.java')).toEqual({
      language: 'java',
      package: 'com.shop.billing',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'BillingSaga',
          qualifiedName: 'BillingSaga',
          signature: 'public class BillingSaga',
          startLine: 17,
          endLine: 49,
          bodyStartLine: 18,
          bodyEndLine: 49,
          docstring:
            'Orchestrates billing once an order exists: charges the payment,\nstores the invoice and announces it.',
          decorators: ['@Component'],
          exported: true,
        },
        {
          id: 1,
          kind: 'const',
          name: 'INVOICE_TOPIC',
          qualifiedName: 'BillingSaga.INVOICE_TOPIC',
          signature: 'public static final String INVOICE_TOPIC = "invoice-generated-topic"',
          startLine: 19,
          endLine: 19,
          parent: 0,
          exported: true,
        },
        {
          id: 2,
          kind: 'const',
          name: 'AUDIT_TOPIC',
          qualifiedName: 'BillingSaga.AUDIT_TOPIC',
          signature: 'private static final String AUDIT_TOPIC = "billing." + "audit"',
          startLine: 20,
          endLine: 20,
          parent: 0,
          exported: false,
        },
        {
          id: 3,
          kind: 'field',
          name: 'kafkaTemplate',
          qualifiedName: 'BillingSaga.kafkaTemplate',
          signature: 'private final KafkaTemplate<String, String> kafkaTemplate',
          startLine: 22,
          endLine: 22,
          parent: 0,
          exported: false,
        },
        {
          id: 4,
          kind: 'field',
          name: 'paymentStub',
          qualifiedName: 'BillingSaga.paymentStub',
          signature: 'private final PaymentServiceGrpc.PaymentServiceBlockingStub paymentStub',
          startLine: 23,
          endLine: 23,
          parent: 0,
          exported: false,
        },
        {
          id: 5,
          kind: 'field',
          name: 'restTemplate',
          qualifiedName: 'BillingSaga.restTemplate',
          signature: 'private final RestTemplate restTemplate = new RestTemplate()',
          startLine: 24,
          endLine: 24,
          parent: 0,
          exported: false,
        },
        {
          id: 6,
          kind: 'field',
          name: 'billingUrl',
          qualifiedName: 'BillingSaga.billingUrl',
          signature: 'private String billingUrl',
          startLine: 26,
          endLine: 27,
          decorators: ['@Value("${billing.url}")'],
          parent: 0,
          exported: false,
        },
        {
          id: 7,
          kind: 'method',
          name: 'BillingSaga',
          qualifiedName: 'BillingSaga.BillingSaga',
          signature:
            'public BillingSaga(KafkaTemplate<String, String> kafkaTemplate, ManagedChannel channel)',
          startLine: 29,
          endLine: 32,
          bodyStartLine: 29,
          bodyEndLine: 32,
          parent: 0,
          exported: true,
        },
        {
          id: 8,
          kind: 'method',
          name: 'onOrderCreated',
          qualifiedName: 'BillingSaga.onOrderCreated',
          signature: 'public void onOrderCreated(String orderId)',
          startLine: 35,
          endLine: 41,
          bodyStartLine: 36,
          bodyEndLine: 41,
          docstring: 'Starts the saga for a new order.',
          decorators: ['@KafkaListener(topics = "${shop.topics.orders}", groupId = "billing")'],
          parent: 0,
          exported: true,
        },
        {
          id: 9,
          kind: 'method',
          name: 'onPaymentFailed',
          qualifiedName: 'BillingSaga.onPaymentFailed',
          signature: 'public void onPaymentFailed(String orderId)',
          startLine: 43,
          endLine: 48,
          bodyStartLine: 44,
          bodyEndLine: 48,
          decorators: ['@KafkaListener(topics = {"payment-failed-topic", "payment-expired-topic"})'],
          parent: 0,
          exported: true,
        },
      ],
      imports: [
        { source: 'com.shop.payment.v1.PaymentServiceGrpc', names: ['PaymentServiceGrpc'], line: 3 },
        { source: 'com.shop.payment.v1.ProcessPaymentRequest', names: ['ProcessPaymentRequest'], line: 4 },
        { source: 'io.grpc.ManagedChannel', names: ['ManagedChannel'], line: 5 },
        { source: 'java.util.concurrent.TimeUnit', names: ['TimeUnit'], line: 6 },
        { source: 'org.springframework.beans.factory.annotation.Value', names: ['Value'], line: 7 },
        { source: 'org.springframework.kafka.annotation.KafkaListener', names: ['KafkaListener'], line: 8 },
        { source: 'org.springframework.kafka.core.KafkaTemplate', names: ['KafkaTemplate'], line: 9 },
        { source: 'org.springframework.stereotype.Component', names: ['Component'], line: 10 },
        { source: 'org.springframework.web.client.RestTemplate', names: ['RestTemplate'], line: 11 },
      ],
      contracts: [
        { kind: 'saga', name: 'BillingSaga', symbol: 0, line: 18, via: 'class name' },
        {
          kind: 'grpc_client',
          service: 'PaymentService',
          symbol: 7,
          line: 31,
          confidence: 'exact',
          via: 'newBlockingStub',
        },
        {
          kind: 'topic_consumer',
          topic: '${shop.topics.orders}',
          symbol: 8,
          line: 36,
          confidence: 'exact',
          via: '@KafkaListener',
        },
        {
          kind: 'grpc_client',
          service: 'PaymentService',
          method: 'processPayment',
          symbol: 8,
          line: 38,
          confidence: 'exact',
          via: 'stub call',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/invoices',
          base: '${billing.url}',
          symbol: 8,
          line: 39,
          confidence: 'exact',
          via: 'RestTemplate',
        },
        {
          kind: 'topic_producer',
          topic: 'invoice-generated-topic',
          symbol: 8,
          line: 40,
          confidence: 'exact',
          via: 'KafkaTemplate.send',
        },
        {
          kind: 'topic_consumer',
          topic: 'payment-failed-topic',
          symbol: 9,
          line: 44,
          confidence: 'exact',
          via: '@KafkaListener',
        },
        {
          kind: 'topic_consumer',
          topic: 'payment-expired-topic',
          symbol: 9,
          line: 44,
          confidence: 'exact',
          via: '@KafkaListener',
        },
        {
          kind: 'grpc_client',
          service: 'PaymentService',
          method: 'refundPayment',
          symbol: 9,
          line: 45,
          confidence: 'exact',
          via: 'stub call',
        },
        {
          kind: 'http_call',
          method: 'DELETE',
          path: '/invoices/{orderId}',
          base: '${billing.url}',
          symbol: 9,
          line: 46,
          confidence: 'heuristic',
          via: 'RestTemplate',
        },
        {
          kind: 'topic_producer',
          topic: 'billing.audit',
          symbol: 9,
          line: 47,
          confidence: 'exact',
          via: 'KafkaTemplate.send',
        },
      ],
    });
  });

  test('PaymentGrpcService.java: gRPC server with @GrpcService, nested types, enum, record, annotation type; Health filtered', async () => {
    expect(await extract('PaymentGrpcService.java')).toEqual({
      language: 'java',
      package: 'com.shop.payment',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'PaymentGrpcService',
          qualifiedName: 'PaymentGrpcService',
          signature: 'public class PaymentGrpcService extends PaymentServiceGrpc.PaymentServiceImplBase',
          startLine: 10,
          endLine: 59,
          bodyStartLine: 11,
          bodyEndLine: 59,
          decorators: ['@GrpcService'],
          exported: true,
        },
        {
          id: 1,
          kind: 'interface',
          name: 'Limits',
          qualifiedName: 'PaymentGrpcService.Limits',
          signature: 'interface Limits',
          startLine: 12,
          endLine: 14,
          bodyStartLine: 12,
          bodyEndLine: 14,
          parent: 0,
          exported: false,
        },
        {
          id: 2,
          kind: 'const',
          name: 'MAX_RETRIES',
          qualifiedName: 'PaymentGrpcService.Limits.MAX_RETRIES',
          signature: 'int MAX_RETRIES = 3',
          startLine: 13,
          endLine: 13,
          parent: 1,
          exported: true,
        },
        {
          id: 3,
          kind: 'enum',
          name: 'Status',
          qualifiedName: 'PaymentGrpcService.Status',
          signature: 'enum Status',
          startLine: 16,
          endLine: 29,
          bodyStartLine: 16,
          bodyEndLine: 29,
          parent: 0,
          exported: false,
        },
        {
          id: 4,
          kind: 'enum_member',
          name: 'SETTLED',
          qualifiedName: 'PaymentGrpcService.Status.SETTLED',
          signature: 'SETTLED("payment-settled-topic")',
          startLine: 17,
          endLine: 17,
          parent: 3,
          exported: true,
        },
        {
          id: 5,
          kind: 'enum_member',
          name: 'FAILED',
          qualifiedName: 'PaymentGrpcService.Status.FAILED',
          signature: 'FAILED',
          startLine: 18,
          endLine: 18,
          parent: 3,
          exported: true,
        },
        {
          id: 6,
          kind: 'field',
          name: 'topic',
          qualifiedName: 'PaymentGrpcService.Status.topic',
          signature: 'private final String topic',
          startLine: 20,
          endLine: 20,
          parent: 3,
          exported: false,
        },
        {
          id: 7,
          kind: 'method',
          name: 'Status',
          qualifiedName: 'PaymentGrpcService.Status.Status',
          signature: 'Status()',
          startLine: 22,
          endLine: 24,
          bodyStartLine: 22,
          bodyEndLine: 24,
          parent: 3,
          exported: false,
        },
        {
          id: 8,
          kind: 'method',
          name: 'Status',
          qualifiedName: 'PaymentGrpcService.Status.Status',
          signature: 'Status(String topic)',
          startLine: 26,
          endLine: 28,
          bodyStartLine: 26,
          bodyEndLine: 28,
          parent: 3,
          exported: false,
        },
        {
          id: 9,
          kind: 'class',
          name: 'Amount',
          qualifiedName: 'PaymentGrpcService.Amount',
          signature: 'record Amount(long cents, String currency)',
          startLine: 31,
          endLine: 31,
          bodyStartLine: 31,
          bodyEndLine: 31,
          parent: 0,
          exported: false,
        },
        {
          id: 10,
          kind: 'interface',
          name: 'Audited',
          qualifiedName: 'PaymentGrpcService.Audited',
          signature: '@interface Audited',
          startLine: 33,
          endLine: 35,
          bodyStartLine: 33,
          bodyEndLine: 35,
          parent: 0,
          exported: false,
        },
        {
          id: 11,
          kind: 'method',
          name: 'value',
          qualifiedName: 'PaymentGrpcService.Audited.value',
          signature: 'String value() default ""',
          startLine: 34,
          endLine: 34,
          parent: 10,
          exported: true,
        },
        {
          id: 12,
          kind: 'method',
          name: 'processPayment',
          qualifiedName: 'PaymentGrpcService.processPayment',
          signature:
            'public void processPayment(ProcessPaymentRequest request, StreamObserver<ProcessPaymentResponse> responseObserver)',
          startLine: 37,
          endLine: 43,
          bodyStartLine: 39,
          bodyEndLine: 43,
          decorators: ['@Override', '@Audited("payments")'],
          parent: 0,
          exported: true,
        },
        {
          id: 13,
          kind: 'method',
          name: 'refundPayment',
          qualifiedName: 'PaymentGrpcService.refundPayment',
          signature:
            'public void refundPayment(RefundPaymentRequest request, StreamObserver<RefundPaymentResponse> responseObserver)',
          startLine: 45,
          endLine: 48,
          bodyStartLine: 46,
          bodyEndLine: 48,
          decorators: ['@Override'],
          parent: 0,
          exported: true,
        },
        {
          id: 14,
          kind: 'method',
          name: 'toAmount',
          qualifiedName: 'PaymentGrpcService.toAmount',
          signature: 'private static Amount toAmount(ProcessPaymentRequest request)',
          startLine: 50,
          endLine: 52,
          bodyStartLine: 50,
          bodyEndLine: 52,
          parent: 0,
          exported: false,
        },
        {
          id: 15,
          kind: 'class',
          name: 'Health',
          qualifiedName: 'PaymentGrpcService.Health',
          signature: 'static class Health extends HealthGrpc.HealthImplBase',
          startLine: 55,
          endLine: 58,
          bodyStartLine: 55,
          bodyEndLine: 58,
          docstring: 'Health is infrastructure: it never shows up as a contract.',
          parent: 0,
          exported: false,
        },
        {
          id: 16,
          kind: 'method',
          name: 'check',
          qualifiedName: 'PaymentGrpcService.Health.check',
          signature:
            'public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> observer)',
          startLine: 56,
          endLine: 57,
          bodyStartLine: 57,
          bodyEndLine: 57,
          decorators: ['@Override'],
          parent: 15,
          exported: true,
        },
      ],
      imports: [
        { source: 'java.util.Objects', names: ['requireNonNull'], line: 3 },
        { source: 'com.shop.payment.v1', names: ['*'], line: 5 },
        { source: 'io.grpc.health.v1.HealthGrpc', names: ['HealthGrpc'], line: 6 },
        { source: 'io.grpc.stub.StreamObserver', names: ['StreamObserver'], line: 7 },
        { source: 'net.devh.boot.grpc.server.service.GrpcService', names: ['GrpcService'], line: 8 },
      ],
      contracts: [
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          symbol: 0,
          line: 11,
          confidence: 'exact',
          via: '@GrpcService',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          method: 'processPayment',
          symbol: 12,
          line: 39,
          confidence: 'exact',
          via: '@GrpcService',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          method: 'refundPayment',
          symbol: 13,
          line: 46,
          confidence: 'exact',
          via: '@GrpcService',
        },
      ],
    });
  });

  test('InvoiceController.java: Spring MVC routes: class prefix, every mapping, arrays, methods, ANY, constant path', async () => {
    expect(await extract('InvoiceController.java')).toEqual({
      language: 'java',
      package: 'com.shop.billing.web',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'InvoiceController',
          qualifiedName: 'InvoiceController',
          signature: 'public class InvoiceController',
          startLine: 5,
          endLine: 43,
          bodyStartLine: 7,
          bodyEndLine: 43,
          decorators: ['@RestController', '@RequestMapping("/invoices/")'],
          exported: true,
        },
        {
          id: 1,
          kind: 'const',
          name: 'ADMIN',
          qualifiedName: 'InvoiceController.ADMIN',
          signature: 'static final String ADMIN = "/admin"',
          startLine: 8,
          endLine: 8,
          parent: 0,
          exported: false,
        },
        {
          id: 2,
          kind: 'method',
          name: 'get',
          qualifiedName: 'InvoiceController.get',
          signature: 'public Invoice get(@PathVariable String id)',
          startLine: 10,
          endLine: 13,
          bodyStartLine: 11,
          bodyEndLine: 13,
          decorators: ['@GetMapping("/{id}")'],
          parent: 0,
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'create',
          qualifiedName: 'InvoiceController.create',
          signature: 'public Invoice create(@RequestBody Invoice invoice)',
          startLine: 15,
          endLine: 19,
          bodyStartLine: 16,
          bodyEndLine: 19,
          decorators: ['@PostMapping'],
          parent: 0,
          exported: true,
        },
        {
          id: 4,
          kind: 'method',
          name: 'update',
          qualifiedName: 'InvoiceController.update',
          signature: 'public Invoice update(@PathVariable String id, @RequestBody Invoice invoice)',
          startLine: 21,
          endLine: 24,
          bodyStartLine: 22,
          bodyEndLine: 24,
          decorators: ['@PutMapping(path = "/{id}")'],
          parent: 0,
          exported: true,
        },
        {
          id: 5,
          kind: 'method',
          name: 'delete',
          qualifiedName: 'InvoiceController.delete',
          signature: 'public void delete(@PathVariable String id)',
          startLine: 26,
          endLine: 27,
          bodyStartLine: 27,
          bodyEndLine: 27,
          decorators: ['@DeleteMapping(value = {"/{id}", "/by-number/{number:[0-9]+}"})'],
          parent: 0,
          exported: true,
        },
        {
          id: 6,
          kind: 'method',
          name: 'patchStatus',
          qualifiedName: 'InvoiceController.patchStatus',
          signature: 'public void patchStatus(@PathVariable String id)',
          startLine: 29,
          endLine: 30,
          bodyStartLine: 30,
          bodyEndLine: 30,
          decorators: ['@PatchMapping(ADMIN + "/{id}/status")'],
          parent: 0,
          exported: true,
        },
        {
          id: 7,
          kind: 'method',
          name: 'search',
          qualifiedName: 'InvoiceController.search',
          signature: 'public String search()',
          startLine: 32,
          endLine: 35,
          bodyStartLine: 33,
          bodyEndLine: 35,
          decorators: [
            '@RequestMapping(value = "/search", method = {RequestMethod.GET, RequestMethod.POST})',
          ],
          parent: 0,
          exported: true,
        },
        {
          id: 8,
          kind: 'method',
          name: 'legacy',
          qualifiedName: 'InvoiceController.legacy',
          signature: 'public String legacy()',
          startLine: 37,
          endLine: 40,
          bodyStartLine: 38,
          bodyEndLine: 40,
          decorators: ['@RequestMapping("/legacy")'],
          parent: 0,
          exported: true,
        },
        {
          id: 9,
          kind: 'class',
          name: 'Invoice',
          qualifiedName: 'InvoiceController.Invoice',
          signature: 'public record Invoice(String id, long total)',
          startLine: 42,
          endLine: 42,
          bodyStartLine: 42,
          bodyEndLine: 42,
          parent: 0,
          exported: true,
        },
      ],
      imports: [{ source: 'org.springframework.web.bind.annotation', names: ['*'], line: 3 }],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/invoices/{id}',
          symbol: 2,
          line: 11,
          via: '@GetMapping',
        },
        { kind: 'http_route', method: 'POST', path: '/invoices', symbol: 3, line: 16, via: '@PostMapping' },
        {
          kind: 'http_route',
          method: 'PUT',
          path: '/invoices/{id}',
          symbol: 4,
          line: 22,
          via: '@PutMapping',
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/invoices/{id}',
          symbol: 5,
          line: 27,
          via: '@DeleteMapping',
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/invoices/by-number/{number}',
          symbol: 5,
          line: 27,
          via: '@DeleteMapping',
        },
        {
          kind: 'http_route',
          method: 'PATCH',
          path: '/invoices/admin/{id}/status',
          symbol: 6,
          line: 30,
          via: '@PatchMapping',
        },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/invoices/search',
          symbol: 7,
          line: 33,
          via: '@RequestMapping',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/invoices/search',
          symbol: 7,
          line: 33,
          via: '@RequestMapping',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/invoices/legacy',
          symbol: 8,
          line: 38,
          via: '@RequestMapping',
        },
      ],
    });
  });

  test('OrderResource.java: JAX-RS resource: class @Path, verbs, regex parameter, sub-resource locator skipped', async () => {
    expect(await extract('OrderResource.java')).toEqual({
      language: 'java',
      package: 'com.shop.orders.api',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'OrderResource',
          qualifiedName: 'OrderResource',
          signature: 'public class OrderResource',
          startLine: 7,
          endLine: 28,
          bodyStartLine: 8,
          bodyEndLine: 28,
          decorators: ['@Path("/orders")'],
          exported: true,
        },
        {
          id: 1,
          kind: 'method',
          name: 'list',
          qualifiedName: 'OrderResource.list',
          signature: 'public String list()',
          startLine: 9,
          endLine: 12,
          bodyStartLine: 10,
          bodyEndLine: 12,
          decorators: ['@GET'],
          parent: 0,
          exported: true,
        },
        {
          id: 2,
          kind: 'method',
          name: 'get',
          qualifiedName: 'OrderResource.get',
          signature: 'public String get(String id)',
          startLine: 14,
          endLine: 18,
          bodyStartLine: 16,
          bodyEndLine: 18,
          decorators: ['@GET', '@Path("/{id: [0-9]+}")'],
          parent: 0,
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'cancel',
          qualifiedName: 'OrderResource.cancel',
          signature: 'public void cancel(String id)',
          startLine: 20,
          endLine: 22,
          bodyStartLine: 22,
          bodyEndLine: 22,
          decorators: ['@POST', '@Path("{id}/cancel/")'],
          parent: 0,
          exported: true,
        },
        {
          id: 4,
          kind: 'method',
          name: 'items',
          qualifiedName: 'OrderResource.items',
          signature: 'public ItemResource items()',
          startLine: 24,
          endLine: 27,
          bodyStartLine: 25,
          bodyEndLine: 27,
          decorators: ['@Path("/items")'],
          parent: 0,
          exported: true,
        },
      ],
      imports: [
        { source: 'javax.ws.rs.GET', names: ['GET'], line: 3 },
        { source: 'javax.ws.rs.POST', names: ['POST'], line: 4 },
        { source: 'javax.ws.rs.Path', names: ['Path'], line: 5 },
      ],
      contracts: [
        { kind: 'http_route', method: 'GET', path: '/orders', symbol: 1, line: 10, via: 'JAX-RS @GET' },
        { kind: 'http_route', method: 'GET', path: '/orders/{id}', symbol: 2, line: 16, via: 'JAX-RS @GET' },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/orders/{id}/cancel',
          symbol: 3,
          line: 22,
          via: 'JAX-RS @POST',
        },
      ],
    });
  });

  test('ShippingClient.java: WebClient with a builder base, java.net.http, kafka-clients producer and consumers, Feign client, topicPattern skipped', async () => {
    expect(await extract('ShippingClient.java')).toEqual({
      language: 'java',
      package: 'com.shop.shipping',
      symbols: [
        {
          id: 0,
          kind: 'class',
          name: 'ShippingClient',
          qualifiedName: 'ShippingClient',
          signature: 'public class ShippingClient',
          startLine: 19,
          endLine: 71,
          bodyStartLine: 19,
          bodyEndLine: 71,
          exported: true,
        },
        {
          id: 1,
          kind: 'const',
          name: 'CARRIER',
          qualifiedName: 'ShippingClient.CARRIER',
          signature: 'private static final String CARRIER = "http://carrier:8080"',
          startLine: 20,
          endLine: 20,
          parent: 0,
          exported: false,
        },
        {
          id: 2,
          kind: 'const',
          name: 'STOCK_TOPIC',
          qualifiedName: 'ShippingClient.STOCK_TOPIC',
          signature: 'private static final String STOCK_TOPIC = "stock-reserved-topic"',
          startLine: 21,
          endLine: 21,
          parent: 0,
          exported: false,
        },
        {
          id: 3,
          kind: 'field',
          name: 'webClient',
          qualifiedName: 'ShippingClient.webClient',
          signature: 'private final WebClient webClient',
          startLine: 23,
          endLine: 23,
          parent: 0,
          exported: false,
        },
        {
          id: 4,
          kind: 'field',
          name: 'producer',
          qualifiedName: 'ShippingClient.producer',
          signature: 'private final KafkaProducer<String, String> producer',
          startLine: 24,
          endLine: 24,
          parent: 0,
          exported: false,
        },
        {
          id: 5,
          kind: 'method',
          name: 'ShippingClient',
          qualifiedName: 'ShippingClient.ShippingClient',
          signature:
            'public ShippingClient(WebClient.Builder builder, @Value("${shipping.url}") String shippingUrl, KafkaProducer<String, String> producer)',
          startLine: 26,
          endLine: 29,
          bodyStartLine: 26,
          bodyEndLine: 29,
          parent: 0,
          exported: true,
        },
        {
          id: 6,
          kind: 'method',
          name: 'track',
          qualifiedName: 'ShippingClient.track',
          signature: 'public String track(String parcelId)',
          startLine: 31,
          endLine: 37,
          bodyStartLine: 31,
          bodyEndLine: 37,
          parent: 0,
          exported: true,
        },
        {
          id: 7,
          kind: 'method',
          name: 'label',
          qualifiedName: 'ShippingClient.label',
          signature: 'public void label(String parcelId)',
          startLine: 39,
          endLine: 41,
          bodyStartLine: 39,
          bodyEndLine: 41,
          parent: 0,
          exported: true,
        },
        {
          id: 8,
          kind: 'method',
          name: 'quote',
          qualifiedName: 'ShippingClient.quote',
          signature: 'public HttpRequest quote(String zone)',
          startLine: 43,
          endLine: 47,
          bodyStartLine: 43,
          bodyEndLine: 47,
          parent: 0,
          exported: true,
        },
        {
          id: 9,
          kind: 'method',
          name: 'pickup',
          qualifiedName: 'ShippingClient.pickup',
          signature: 'public HttpRequest pickup()',
          startLine: 49,
          endLine: 51,
          bodyStartLine: 49,
          bodyEndLine: 51,
          parent: 0,
          exported: true,
        },
        {
          id: 10,
          kind: 'method',
          name: 'restock',
          qualifiedName: 'ShippingClient.restock',
          signature: 'public void restock(String sku)',
          startLine: 53,
          endLine: 55,
          bodyStartLine: 53,
          bodyEndLine: 55,
          parent: 0,
          exported: true,
        },
        {
          id: 11,
          kind: 'method',
          name: 'listen',
          qualifiedName: 'ShippingClient.listen',
          signature: 'public void listen(KafkaConsumer<String, String> consumer)',
          startLine: 57,
          endLine: 61,
          bodyStartLine: 57,
          bodyEndLine: 61,
          parent: 0,
          exported: true,
        },
        {
          id: 12,
          kind: 'method',
          name: 'onAnyParcelEvent',
          qualifiedName: 'ShippingClient.onAnyParcelEvent',
          signature: 'public void onAnyParcelEvent(String event)',
          startLine: 63,
          endLine: 64,
          bodyStartLine: 64,
          bodyEndLine: 64,
          decorators: ['@KafkaListener(topicPattern = "parcel-.*")'],
          parent: 0,
          exported: true,
        },
        {
          id: 13,
          kind: 'interface',
          name: 'CarrierApi',
          qualifiedName: 'ShippingClient.CarrierApi',
          signature: 'interface CarrierApi',
          startLine: 66,
          endLine: 70,
          bodyStartLine: 67,
          bodyEndLine: 70,
          decorators: ['@FeignClient(name = "carrier", url = "${carrier.url}")'],
          parent: 0,
          exported: false,
        },
        {
          id: 14,
          kind: 'method',
          name: 'rate',
          qualifiedName: 'ShippingClient.CarrierApi.rate',
          signature: 'String rate(@PathVariable("zone") String zone)',
          startLine: 68,
          endLine: 69,
          decorators: ['@GetMapping("/rates/{zone}")'],
          parent: 13,
          exported: true,
        },
      ],
      imports: [
        { source: 'java.net.URI', names: ['URI'], line: 3 },
        { source: 'java.net.http.HttpRequest', names: ['HttpRequest'], line: 4 },
        { source: 'java.util.Arrays', names: ['Arrays'], line: 5 },
        { source: 'java.util.Collections', names: ['Collections'], line: 6 },
        { source: 'java.util.List', names: ['List'], line: 7 },
        { source: 'org.apache.kafka.clients.consumer.KafkaConsumer', names: ['KafkaConsumer'], line: 8 },
        { source: 'org.apache.kafka.clients.producer.KafkaProducer', names: ['KafkaProducer'], line: 9 },
        { source: 'org.apache.kafka.clients.producer.ProducerRecord', names: ['ProducerRecord'], line: 10 },
        { source: 'org.springframework.beans.factory.annotation.Value', names: ['Value'], line: 11 },
        { source: 'org.springframework.cloud.openfeign.FeignClient', names: ['FeignClient'], line: 12 },
        { source: 'org.springframework.http.HttpMethod', names: ['HttpMethod'], line: 13 },
        { source: 'org.springframework.kafka.annotation.KafkaListener', names: ['KafkaListener'], line: 14 },
        { source: 'org.springframework.web.bind.annotation.GetMapping', names: ['GetMapping'], line: 15 },
        { source: 'org.springframework.web.bind.annotation.PathVariable', names: ['PathVariable'], line: 16 },
        {
          source: 'org.springframework.web.reactive.function.client.WebClient',
          names: ['WebClient'],
          line: 17,
        },
      ],
      contracts: [
        {
          kind: 'http_call',
          method: 'GET',
          path: '/parcels/{id}',
          base: '${shipping.url}',
          symbol: 6,
          line: 32,
          confidence: 'exact',
          via: 'WebClient',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/parcels/{parcelId}/label',
          base: '${shipping.url}',
          symbol: 7,
          line: 40,
          confidence: 'heuristic',
          via: 'WebClient',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/quotes',
          base: 'env:RATES_URL',
          symbol: 8,
          line: 44,
          confidence: 'exact',
          via: 'HttpRequest',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/pickups',
          base: 'http://carrier:8080',
          symbol: 9,
          line: 50,
          confidence: 'exact',
          via: 'HttpRequest',
        },
        {
          kind: 'topic_producer',
          topic: 'stock-reserved-topic',
          symbol: 10,
          line: 54,
          confidence: 'exact',
          via: 'new ProducerRecord',
        },
        {
          kind: 'topic_consumer',
          topic: 'parcel-shipped-topic',
          symbol: 11,
          line: 58,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'parcel-lost-topic',
          symbol: 11,
          line: 59,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'stock-reserved-topic',
          symbol: 11,
          line: 59,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'parcel-returned-topic',
          symbol: 11,
          line: 60,
          confidence: 'exact',
          via: 'KafkaConsumer.subscribe',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/rates/{zone}',
          base: '${carrier.url}',
          symbol: 14,
          line: 69,
          confidence: 'exact',
          via: '@FeignClient',
        },
      ],
    });
  });
});

describe('java negative fixture', () => {
  test('look-alikes yield declarations only', async () => {
    const facts = await extract('negative/Lookalikes.java');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'Lookalikes',
        qualifiedName: 'Lookalikes',
        signature: 'public class Lookalikes',
        startLine: 11,
        endLine: 49,
        bodyStartLine: 11,
        bodyEndLine: 49,
        docstring:
          'Code that looks like contracts but is not: nothing here may become a route, a topic or a client.',
        exported: true,
      },
      {
        id: 1,
        kind: 'const',
        name: 'log',
        qualifiedName: 'Lookalikes.log',
        signature: 'private static final Logger log = LoggerFactory.getLogger(Lookalikes.class)',
        startLine: 12,
        endLine: 12,
        parent: 0,
        exported: false,
      },
      {
        id: 2,
        kind: 'field',
        name: 'mailer',
        qualifiedName: 'Lookalikes.mailer',
        signature: 'private final MailSender mailer = new MailSender()',
        startLine: 13,
        endLine: 13,
        parent: 0,
        exported: false,
      },
      {
        id: 3,
        kind: 'field',
        name: 'kafkaTemplate',
        qualifiedName: 'Lookalikes.kafkaTemplate',
        signature: 'private final KafkaTemplate<String, String> kafkaTemplate',
        startLine: 14,
        endLine: 14,
        parent: 0,
        exported: false,
      },
      {
        id: 4,
        kind: 'method',
        name: 'Lookalikes',
        qualifiedName: 'Lookalikes.Lookalikes',
        signature: 'public Lookalikes(KafkaTemplate<String, String> kafkaTemplate)',
        startLine: 16,
        endLine: 18,
        bodyStartLine: 16,
        bodyEndLine: 18,
        parent: 0,
        exported: true,
      },
      {
        id: 5,
        kind: 'method',
        name: 'describe',
        qualifiedName: 'Lookalikes.describe',
        signature: 'public String describe()',
        startLine: 20,
        endLine: 23,
        bodyStartLine: 20,
        bodyEndLine: 23,
        parent: 0,
        exported: true,
      },
      {
        id: 6,
        kind: 'method',
        name: 'notifyCustomer',
        qualifiedName: 'Lookalikes.notifyCustomer',
        signature: 'public void notifyCustomer(String orderTopic, String topic)',
        startLine: 25,
        endLine: 34,
        bodyStartLine: 25,
        bodyEndLine: 34,
        parent: 0,
        exported: true,
      },
      {
        id: 7,
        kind: 'method',
        name: 'subscribeAll',
        qualifiedName: 'Lookalikes.subscribeAll',
        signature:
          'public void subscribeAll(org.apache.kafka.clients.consumer.Consumer<String, String> consumer)',
        startLine: 36,
        endLine: 39,
        bodyStartLine: 36,
        bodyEndLine: 39,
        parent: 0,
        exported: true,
      },
      {
        id: 8,
        kind: 'method',
        name: 'notAStub',
        qualifiedName: 'Lookalikes.notAStub',
        signature: 'public void notAStub(Channel channel)',
        startLine: 41,
        endLine: 44,
        bodyStartLine: 41,
        bodyEndLine: 44,
        parent: 0,
        exported: true,
      },
      {
        id: 9,
        kind: 'class',
        name: 'MailSender',
        qualifiedName: 'Lookalikes.MailSender',
        signature: 'static class MailSender',
        startLine: 46,
        endLine: 48,
        bodyStartLine: 46,
        bodyEndLine: 48,
        parent: 0,
        exported: false,
      },
      {
        id: 10,
        kind: 'method',
        name: 'send',
        qualifiedName: 'Lookalikes.MailSender.send',
        signature: 'void send(String to, String body)',
        startLine: 47,
        endLine: 47,
        bodyStartLine: 47,
        bodyEndLine: 47,
        parent: 9,
        exported: false,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'java.util.regex.Pattern', names: ['Pattern'], line: 3 },
      { source: 'org.slf4j.Logger', names: ['Logger'], line: 4 },
      { source: 'org.slf4j.LoggerFactory', names: ['LoggerFactory'], line: 5 },
      { source: 'org.springframework.kafka.core.KafkaTemplate', names: ['KafkaTemplate'], line: 6 },
    ]);
  });
});

describe('java contract rules', () => {
  const contractsOf = async (source: string) => (await extractSource(source)).contracts;

  test('class-level @KafkaListener, nested @TopicPartition and @StreamListener', async () => {
    expect(
      await contractsOf(`
@KafkaListener(topics = Topics.REFUNDS)
class RefundHandler {
    @KafkaHandler
    void on(String s) {}

    @KafkaListener(topicPartitions = {@TopicPartition(topic = "ledger-topic", partitions = "0")})
    void ledger(String s) {}

    @StreamListener(Sink.INPUT)
    void unknownBinding(String s) {}

    @StreamListener("orders-in")
    void binding(String s) {}
}
class Topics {
    static final String REFUNDS = "refunds-topic";
}`),
    ).toEqual([
      {
        kind: 'topic_consumer',
        topic: 'refunds-topic',
        symbol: 0,
        line: 3,
        confidence: 'exact',
        via: '@KafkaListener',
      },
      {
        kind: 'topic_consumer',
        topic: 'ledger-topic',
        symbol: 2,
        line: 8,
        confidence: 'exact',
        via: '@KafkaListener',
      },
      {
        kind: 'topic_consumer',
        topic: 'orders-in',
        symbol: 4,
        line: 14,
        confidence: 'exact',
        via: '@StreamListener',
      },
    ]);
  });

  test('topicPattern and unresolvable topics yield nothing; constant cycles terminate', async () => {
    expect(
      await contractsOf(`
class C {
    static final String A = B;
    static final String B = A;
    private final KafkaTemplate<String, String> kafkaTemplate;
    @KafkaListener(topicPattern = "orders-.*")
    void any(String s) {}
    @KafkaListener(topics = "#{'\${shop.topics.all}'.split(',')}")
    void spel(String s) {}
    @KafkaListener(topics = ExternalTopics.ORDERS)
    void external(String s) {}
    void send(String topic) {
        kafkaTemplate.send(A, "x");
        kafkaTemplate.send(topic, "x");
        kafkaTemplate.send("retry-" + topic, "x");
    }
}`),
    ).toEqual([]);
  });

  test('KafkaTemplate receivers: type wins over name, unknown type falls back to the name', async () => {
    expect(
      await contractsOf(`
class C extends BaseProducer {
    private final AuditClient kafkaTemplate;
    void a(KafkaTemplate<String, String> template) {
        template.send("typed-topic", "x");
        kafkaTemplate.send("not-kafka-topic", "x");
        this.inheritedKafkaTemplate.send("inherited-topic", "x");
    }
}`),
    ).toEqual([
      {
        kind: 'topic_producer',
        topic: 'typed-topic',
        symbol: 2,
        line: 5,
        confidence: 'exact',
        via: 'KafkaTemplate.send',
      },
      {
        kind: 'topic_producer',
        topic: 'inherited-topic',
        symbol: 2,
        line: 7,
        confidence: 'heuristic',
        via: 'KafkaTemplate.send',
      },
    ]);
  });

  test('gRPC: every stub construction in source order, @GrpcClient injection, AsyncService and imported ImplBase', async () => {
    expect(
      await contractsOf(`
import shop.inventory.v1.InventoryServiceGrpc.InventoryServiceImplBase;
class Clients {
    private final PaymentServiceGrpc.PaymentServiceFutureStub futures = PaymentServiceGrpc.newFutureStub(channel);
    @GrpcClient("inventory")
    private InventoryServiceGrpc.InventoryServiceBlockingStub inventory;
    Clients() {
        var async = PaymentServiceGrpc.newStub(channel);
        async.refundPayment(request, observer);
    }
    void call() {
        inventory.reserveStock(request);
        futures.processPayment(request);
        PaymentServiceGrpc.newBlockingStub(channel).processPayment(request);
        HealthGrpc.newBlockingStub(channel).check(request);
    }
}
class Inventory extends InventoryServiceImplBase {
    @Override
    public void reserveStock(Req r, StreamObserver<Res> o) {}
}
class Payments implements PaymentServiceGrpc.AsyncService {
    public void processPayment(Req r, StreamObserver<Res> o) {}
    private void helper() {}
}`),
    ).toEqual([
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        symbol: 1,
        line: 4,
        confidence: 'exact',
        via: 'newFutureStub',
      },
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        symbol: 2,
        line: 6,
        confidence: 'exact',
        via: '@GrpcClient',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        symbol: 3,
        line: 8,
        confidence: 'exact',
        via: 'newStub',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'refundPayment',
        symbol: 3,
        line: 9,
        confidence: 'exact',
        via: 'stub call',
      },
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        method: 'reserveStock',
        symbol: 4,
        line: 12,
        confidence: 'exact',
        via: 'stub call',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'processPayment',
        symbol: 4,
        line: 13,
        confidence: 'exact',
        via: 'stub call',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        symbol: 4,
        line: 14,
        confidence: 'exact',
        via: 'newBlockingStub',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'processPayment',
        symbol: 4,
        line: 14,
        confidence: 'exact',
        via: 'stub call',
      },
      {
        kind: 'grpc_server',
        service: 'InventoryService',
        symbol: 5,
        line: 18,
        confidence: 'exact',
        via: 'extends InventoryServiceImplBase',
      },
      {
        kind: 'grpc_server',
        service: 'InventoryService',
        method: 'reserveStock',
        symbol: 6,
        line: 20,
        confidence: 'exact',
        via: 'extends InventoryServiceImplBase',
      },
      {
        kind: 'grpc_server',
        service: 'PaymentService',
        symbol: 7,
        line: 22,
        confidence: 'exact',
        via: 'implements AsyncService',
      },
      {
        kind: 'grpc_server',
        service: 'PaymentService',
        method: 'processPayment',
        symbol: 8,
        line: 23,
        confidence: 'exact',
        via: 'implements AsyncService',
      },
    ]);
  });

  test('HTTP calls: literal hosts, locals, unknown bases, exchange methods', async () => {
    expect(
      await contractsOf(`
class Calls {
    private static final String BILLING = "http://billing:8080/api";
    void calls(RestTemplate rest, String baseUrl, String id) {
        rest.getForObject("http://billing:8080/invoices?page=" + id, String.class);
        String url = BILLING + "/invoices/" + id;
        restTemplate.exchange(url, HttpMethod.PUT, null, String.class);
        rest.getForEntity(baseUrl + "/invoices/{id}", String.class, id);
        rest.exchange(url, method, null, String.class);
        rest.getForObject(baseUrl, String.class);
    }
}`),
    ).toEqual([
      {
        kind: 'http_call',
        method: 'GET',
        path: '/invoices',
        base: 'http://billing:8080',
        symbol: 2,
        line: 5,
        confidence: 'exact',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'PUT',
        path: '/api/invoices/{id}',
        base: 'http://billing:8080',
        symbol: 2,
        line: 7,
        confidence: 'heuristic',
        via: 'RestTemplate',
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/invoices/{id}',
        symbol: 2,
        line: 8,
        confidence: 'heuristic',
        via: 'RestTemplate',
      },
    ]);
  });
});
