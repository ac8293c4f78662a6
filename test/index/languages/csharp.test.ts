import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractCsharp } from '../../../src/index/languages/csharp/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/csharp');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-c-sharp');

async function extractSource(source: string, file = 'Inline.cs'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'csharp', source },
    { grammarsDir, extractors: { csharp: extractCsharp } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/cs/${name}`);
}

describe('csharp golden fixtures', () => {
  test('PaymentServiceImpl.cs', async () => {
    const facts = await extract('PaymentServiceImpl.cs');
    expect(facts.package).toBe('Shop.Payments.Grpc');
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'PaymentServiceImpl',
        qualifiedName: 'PaymentServiceImpl',
        signature: 'public sealed class PaymentServiceImpl : PaymentService.PaymentServiceBase',
        startLine: 11,
        endLine: 32,
        exported: true,
        docstring: 'Settles payments and announces them on the bus.',
      },
      {
        id: 1,
        kind: 'const',
        name: 'SettledTopic',
        qualifiedName: 'PaymentServiceImpl.SettledTopic',
        signature: 'private const string SettledTopic = "payment.settled"',
        startLine: 13,
        endLine: 13,
        exported: false,
        parent: 0,
      },
      {
        id: 2,
        kind: 'method',
        name: 'PaymentServiceImpl',
        qualifiedName: 'PaymentServiceImpl.PaymentServiceImpl',
        signature: 'public PaymentServiceImpl(IProducer<string, string> producer)',
        startLine: 16,
        endLine: 19,
        exported: true,
        parent: 0,
        bodyStartLine: 18,
        bodyEndLine: 18,
      },
      {
        id: 3,
        kind: 'method',
        name: 'ProcessPayment',
        qualifiedName: 'PaymentServiceImpl.ProcessPayment',
        signature:
          'public override async Task<ProcessPaymentReply> ProcessPayment(ProcessPaymentRequest request, ServerCallContext context)',
        startLine: 21,
        endLine: 26,
        exported: true,
        decorators: ['[Authorize(Roles = "payments")]'],
        parent: 0,
        bodyStartLine: 24,
        bodyEndLine: 25,
      },
      {
        id: 4,
        kind: 'method',
        name: 'RefundPayment',
        qualifiedName: 'PaymentServiceImpl.RefundPayment',
        signature:
          'public override Task<RefundPaymentReply> RefundPayment(RefundPaymentRequest request, ServerCallContext context)',
        startLine: 28,
        endLine: 29,
        exported: true,
        parent: 0,
      },
      {
        id: 5,
        kind: 'method',
        name: 'Describe',
        qualifiedName: 'PaymentServiceImpl.Describe',
        signature: 'private static string Describe(ProcessPaymentRequest request)',
        startLine: 31,
        endLine: 31,
        exported: false,
        parent: 0,
      },
      {
        id: 6,
        kind: 'class',
        name: 'HealthImpl',
        qualifiedName: 'HealthImpl',
        signature: 'public class HealthImpl : Grpc.Health.V1.Health.HealthBase',
        startLine: 34,
        endLine: 36,
        exported: true,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'System.Threading.Tasks', line: 1 },
      { source: 'Confluent.Kafka', line: 2 },
      { source: 'Grpc.Core', line: 3 },
      { source: 'Shop.Payment.V1', line: 4 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_server',
        service: 'PaymentService',
        line: 11,
        confidence: 'exact',
        via: 'ServiceBase subclass',
        symbol: 0,
      },
      {
        kind: 'grpc_server',
        service: 'PaymentService',
        method: 'ProcessPayment',
        line: 22,
        confidence: 'exact',
        via: 'ServiceBase override',
        symbol: 3,
      },
      {
        kind: 'topic_producer',
        topic: 'payment.settled',
        line: 24,
        confidence: 'exact',
        via: 'Confluent.Kafka ProduceAsync',
        symbol: 3,
      },
      {
        kind: 'grpc_server',
        service: 'PaymentService',
        method: 'RefundPayment',
        line: 28,
        confidence: 'exact',
        via: 'ServiceBase override',
        symbol: 4,
      },
    ]);
  });

  test('Program.cs', async () => {
    const facts = await extract('Program.cs');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'StatusService',
        qualifiedName: 'StatusService',
        signature: 'public class StatusService : Status.StatusBase',
        startLine: 21,
        endLine: 24,
        exported: true,
      },
      {
        id: 1,
        kind: 'method',
        name: 'Ping',
        qualifiedName: 'StatusService.Ping',
        signature: 'public override Task<Pong> Ping(Empty request, ServerCallContext context)',
        startLine: 23,
        endLine: 23,
        exported: true,
        parent: 0,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'Grpc.Net.Client', line: 1 },
      { source: 'Shop.Inventory.V1', line: 2 },
      { source: 'Shop.Payments.Grpc', line: 3 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        line: 7,
        confidence: 'exact',
        via: 'AddGrpcClient',
      },
      { kind: 'grpc_server', service: 'Status', line: 12, confidence: 'exact', via: 'MapGrpcService' },
      { kind: 'http_route', method: 'GET', path: '/api/orders/{id}', line: 15, via: 'aspnet MapGet' },
      { kind: 'http_route', method: 'POST', path: '/api/orders', line: 16, via: 'aspnet MapPost' },
      {
        kind: 'http_route',
        method: 'DELETE',
        path: '/api/carts/{cartId}',
        line: 17,
        via: 'aspnet MapDelete',
      },
      {
        kind: 'grpc_server',
        service: 'Status',
        line: 21,
        confidence: 'exact',
        via: 'ServiceBase subclass',
        symbol: 0,
      },
      {
        kind: 'grpc_server',
        service: 'Status',
        method: 'Ping',
        line: 23,
        confidence: 'exact',
        via: 'ServiceBase override',
        symbol: 1,
      },
    ]);
  });

  test('OrdersController.cs', async () => {
    const facts = await extract('OrdersController.cs');
    expect(facts.package).toBe('Shop.Orders.Api');
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'OrdersController',
        qualifiedName: 'OrdersController',
        signature: 'public class OrdersController : ControllerBase',
        startLine: 7,
        endLine: 43,
        exported: true,
        decorators: ['[ApiController]', '[Route("api/[controller]")]'],
      },
      {
        id: 1,
        kind: 'method',
        name: 'OrdersController',
        qualifiedName: 'OrdersController.OrdersController',
        signature: 'public OrdersController(IHttpClientFactory factory, GrpcChannel channel)',
        startLine: 15,
        endLine: 19,
        exported: true,
        parent: 0,
        bodyStartLine: 17,
        bodyEndLine: 18,
      },
      {
        id: 2,
        kind: 'method',
        name: 'Get',
        qualifiedName: 'OrdersController.Get',
        signature: 'public async Task<IActionResult> Get(int id)',
        startLine: 22,
        endLine: 27,
        exported: true,
        docstring: 'Reads one order.',
        decorators: ['[HttpGet("{id:int}")]'],
        parent: 0,
        bodyStartLine: 25,
        bodyEndLine: 26,
      },
      {
        id: 3,
        kind: 'method',
        name: 'Create',
        qualifiedName: 'OrdersController.Create',
        signature: 'public async Task<IActionResult> Create(CreateOrder command)',
        startLine: 29,
        endLine: 37,
        exported: true,
        decorators: ['[HttpPost]', '[ProducesResponseType(201)]'],
        parent: 0,
        bodyStartLine: 33,
        bodyEndLine: 36,
      },
      {
        id: 4,
        kind: 'method',
        name: 'Purge',
        qualifiedName: 'OrdersController.Purge',
        signature: 'public void Purge(int id)',
        startLine: 39,
        endLine: 40,
        exported: true,
        decorators: ['[HttpDelete("/admin/orders/{id}")]'],
        parent: 0,
      },
      {
        id: 5,
        kind: 'property',
        name: 'Count',
        qualifiedName: 'OrdersController.Count',
        signature: 'public int Count { get; private set; }',
        startLine: 42,
        endLine: 42,
        exported: true,
        parent: 0,
      },
      {
        id: 6,
        kind: 'enum',
        name: 'OrderState',
        qualifiedName: 'OrderState',
        signature: 'public enum OrderState',
        startLine: 45,
        endLine: 49,
        exported: true,
      },
      {
        id: 7,
        kind: 'enum_member',
        name: 'Pending',
        qualifiedName: 'OrderState.Pending',
        signature: 'Pending',
        startLine: 47,
        endLine: 47,
        exported: true,
        parent: 6,
      },
      {
        id: 8,
        kind: 'enum_member',
        name: 'Paid',
        qualifiedName: 'OrderState.Paid',
        signature: 'Paid = 2',
        startLine: 48,
        endLine: 48,
        exported: true,
        parent: 6,
      },
      {
        id: 9,
        kind: 'interface',
        name: 'IOrderEvents',
        qualifiedName: 'IOrderEvents',
        signature: 'public interface IOrderEvents',
        startLine: 51,
        endLine: 54,
        exported: true,
      },
      {
        id: 10,
        kind: 'method',
        name: 'PublishAsync',
        qualifiedName: 'IOrderEvents.PublishAsync',
        signature: 'Task PublishAsync(string orderId)',
        startLine: 53,
        endLine: 53,
        exported: false,
        parent: 9,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'System.Net.Http.Json', line: 1 },
      { source: 'Microsoft.AspNetCore.Mvc', line: 2 },
      { source: 'Shop.Inventory.V1', line: 3 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        line: 12,
        confidence: 'exact',
        via: 'typed client field',
        symbol: 0,
      },
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        line: 18,
        confidence: 'exact',
        via: 'new *Client',
        symbol: 1,
      },
      {
        kind: 'http_route',
        method: 'GET',
        path: '/api/Orders/{id}',
        line: 23,
        via: 'aspnet [HttpGet]',
        symbol: 2,
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/stock/{id}',
        line: 25,
        confidence: 'exact',
        via: 'HttpClient GetFromJsonAsync',
        base: 'env:INVENTORY_URL',
        symbol: 2,
      },
      {
        kind: 'http_route',
        method: 'POST',
        path: '/api/Orders',
        line: 31,
        via: 'aspnet [HttpPost]',
        symbol: 3,
      },
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        method: 'ReserveStockAsync',
        line: 33,
        confidence: 'exact',
        via: 'client call',
        symbol: 3,
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/reservations',
        line: 35,
        confidence: 'exact',
        via: 'HttpClient SendAsync',
        base: 'env:INVENTORY_URL',
        symbol: 3,
      },
      {
        kind: 'http_route',
        method: 'DELETE',
        path: '/admin/orders/{id}',
        line: 40,
        via: 'aspnet [HttpDelete]',
        symbol: 4,
      },
    ]);
  });

  test('OrderEvents.cs', async () => {
    const facts = await extract('OrderEvents.cs');
    expect(facts.package).toBe('Shop.Orders.Events');
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'Topics',
        qualifiedName: 'Topics',
        signature: 'public static class Topics',
        startLine: 5,
        endLine: 9,
        exported: true,
      },
      {
        id: 1,
        kind: 'const',
        name: 'Created',
        qualifiedName: 'Topics.Created',
        signature: 'public const string Created = "orders.created"',
        startLine: 7,
        endLine: 7,
        exported: true,
        parent: 0,
      },
      {
        id: 2,
        kind: 'const',
        name: 'Cancelled',
        qualifiedName: 'Topics.Cancelled',
        signature: 'public const string Cancelled = "orders.cancelled"',
        startLine: 8,
        endLine: 8,
        exported: true,
        parent: 0,
      },
      {
        id: 3,
        kind: 'class',
        name: 'OrderCreated',
        qualifiedName: 'OrderCreated',
        signature: 'public record OrderCreated(string OrderId, decimal Total)',
        startLine: 11,
        endLine: 11,
        exported: true,
      },
      {
        id: 4,
        kind: 'class',
        name: 'OrderEventsConsumer',
        qualifiedName: 'OrderEventsConsumer',
        signature: 'public class OrderEventsConsumer : BackgroundService',
        startLine: 13,
        endLine: 26,
        exported: true,
      },
      {
        id: 5,
        kind: 'method',
        name: 'ExecuteAsync',
        qualifiedName: 'OrderEventsConsumer.ExecuteAsync',
        signature: 'protected override Task ExecuteAsync(CancellationToken stoppingToken)',
        startLine: 17,
        endLine: 25,
        exported: false,
        parent: 4,
        bodyStartLine: 19,
        bodyEndLine: 24,
      },
    ]);
    expect(facts.imports).toEqual([{ source: 'Confluent.Kafka', line: 1 }]);
    expect(facts.contracts).toEqual([
      {
        kind: 'topic_consumer',
        topic: 'orders.created',
        line: 20,
        confidence: 'exact',
        via: 'Confluent.Kafka Subscribe',
        symbol: 5,
      },
      {
        kind: 'topic_consumer',
        topic: 'orders.cancelled',
        line: 20,
        confidence: 'exact',
        via: 'Confluent.Kafka Subscribe',
        symbol: 5,
      },
      {
        kind: 'topic_producer',
        topic: 'orders.audit',
        line: 23,
        confidence: 'exact',
        via: 'Confluent.Kafka Produce',
        symbol: 5,
      },
    ]);
  });
});

describe('csharp negative fixture', () => {
  test('LookAlikes.cs', async () => {
    const facts = await extract('negative/LookAlikes.cs');
    expect(facts.package).toBe('Shop.Fakes');
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'Mailer',
        qualifiedName: 'Mailer',
        signature: 'public class Mailer',
        startLine: 5,
        endLine: 28,
        exported: true,
      },
      {
        id: 1,
        kind: 'const',
        name: 'OrdersTopic',
        qualifiedName: 'Mailer.OrdersTopic',
        signature: 'private const string OrdersTopic = "orders.created"',
        startLine: 9,
        endLine: 9,
        exported: false,
        parent: 0,
      },
      {
        id: 2,
        kind: 'method',
        name: 'Send',
        qualifiedName: 'Mailer.Send',
        signature: 'public void Send(string topic)',
        startLine: 11,
        endLine: 11,
        exported: true,
        parent: 0,
      },
      {
        id: 3,
        kind: 'method',
        name: 'Run',
        qualifiedName: 'Mailer.Run',
        signature: 'public async Task Run(string topicName, IQueue queue)',
        startLine: 13,
        endLine: 25,
        exported: true,
        parent: 0,
        bodyStartLine: 15,
        bodyEndLine: 24,
      },
      {
        id: 4,
        kind: 'method',
        name: 'MapGet',
        qualifiedName: 'Mailer.MapGet',
        signature: 'public string MapGet(string key)',
        startLine: 27,
        endLine: 27,
        exported: true,
        parent: 0,
      },
    ]);
    expect(facts.imports).toEqual([{ source: 'Microsoft.Extensions.Logging', line: 1 }]);
    expect(facts.contracts).toEqual([]);
  });
});
