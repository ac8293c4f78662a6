import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ContractFact, FileFacts } from '../../../src/index/facts.js';
import { extractGo } from '../../../src/index/languages/go/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/go');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-go');

async function extractSource(source: string, file = 'services/payments/inline.go'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'go', source },
    { grammarsDir, extractors: { go: extractGo } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/payments/${name}`);
}

async function contractsOf(source: string): Promise<readonly ContractFact[]> {
  return (await extractSource(source)).contracts;
}

describe('go golden fixtures', () => {
  test('server.go', async () => {
    expect(await extract('server.go')).toEqual({
      language: 'go',
      package: 'main',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'DefaultPort',
          qualifiedName: 'DefaultPort',
          signature: 'const DefaultPort = ":50051"',
          startLine: 18,
          endLine: 18,
          docstring: 'DefaultPort is where the gRPC server listens.',
          exported: true,
        },
        {
          id: 1,
          kind: 'type',
          name: 'Currency',
          qualifiedName: 'Currency',
          signature: 'type Currency = string',
          startLine: 21,
          endLine: 21,
          docstring: 'Currency is an ISO 4217 code.',
          exported: true,
        },
        {
          id: 2,
          kind: 'interface',
          name: 'Ledger',
          qualifiedName: 'Ledger',
          signature: 'type Ledger interface',
          startLine: 24,
          endLine: 26,
          docstring: 'Ledger records money movements.',
          exported: true,
        },
        {
          id: 3,
          kind: 'struct',
          name: 'paymentServer',
          qualifiedName: 'paymentServer',
          signature: 'type paymentServer struct',
          startLine: 29,
          endLine: 33,
          docstring: 'paymentServer implements shop.payment.v1.PaymentService.',
          exported: false,
        },
        {
          id: 4,
          kind: 'function',
          name: 'newPaymentServer',
          qualifiedName: 'newPaymentServer',
          signature: 'func newPaymentServer(ledger Ledger, conn *grpc.ClientConn) *paymentServer',
          startLine: 35,
          endLine: 37,
          bodyStartLine: 36,
          bodyEndLine: 36,
          exported: false,
        },
        {
          id: 5,
          kind: 'method',
          name: 'ProcessPayment',
          qualifiedName: 'paymentServer.ProcessPayment',
          signature:
            'func (s *paymentServer) ProcessPayment(ctx context.Context, req *pb.ProcessPaymentRequest) (*pb.ProcessPaymentResponse, error)',
          startLine: 40,
          endLine: 45,
          bodyStartLine: 41,
          bodyEndLine: 44,
          docstring: 'ProcessPayment charges the order total.',
          exported: true,
          parent: 3,
        },
        {
          id: 6,
          kind: 'method',
          name: 'RefundPayment',
          qualifiedName: 'paymentServer.RefundPayment',
          signature:
            'func (s *paymentServer) RefundPayment(ctx context.Context, req *pb.RefundPaymentRequest) (*pb.RefundPaymentResponse, error)',
          startLine: 47,
          endLine: 52,
          bodyStartLine: 48,
          bodyEndLine: 51,
          exported: true,
          parent: 3,
        },
        {
          id: 7,
          kind: 'method',
          name: 'WatchPayments',
          qualifiedName: 'paymentServer.WatchPayments',
          signature:
            'func (s *paymentServer) WatchPayments(req *pb.WatchPaymentsRequest, stream pb.PaymentService_WatchPaymentsServer) error',
          startLine: 54,
          endLine: 56,
          bodyStartLine: 55,
          bodyEndLine: 55,
          exported: true,
          parent: 3,
        },
        {
          id: 8,
          kind: 'method',
          name: 'audit',
          qualifiedName: 'paymentServer.audit',
          signature: 'func (s *paymentServer) audit(orderID string)',
          startLine: 59,
          endLine: 61,
          bodyStartLine: 60,
          bodyEndLine: 60,
          docstring: 'audit is a helper, not an RPC.',
          exported: false,
          parent: 3,
        },
        {
          id: 9,
          kind: 'function',
          name: 'main',
          qualifiedName: 'main',
          signature: 'func main()',
          startLine: 63,
          endLine: 78,
          bodyStartLine: 64,
          bodyEndLine: 77,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'context',
          line: 6,
        },
        {
          source: 'log',
          line: 7,
        },
        {
          source: 'net',
          line: 8,
        },
        {
          source: 'google.golang.org/grpc',
          line: 10,
        },
        {
          source: 'google.golang.org/grpc/health/grpc_health_v1',
          names: ['healthpb'],
          line: 11,
        },
        {
          source: 'github.com/acme/genproto/shop/inventory/v1',
          names: ['inventoryv1'],
          line: 13,
        },
        {
          source: 'github.com/acme/genproto/shop/payment/v1',
          names: ['pb'],
          line: 14,
        },
      ],
      contracts: [
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          symbol: 3,
          line: 30,
          confidence: 'exact',
          via: 'Unimplemented*Server',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          symbol: 3,
          line: 32,
          confidence: 'exact',
          via: 'field *Client',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          symbol: 4,
          line: 36,
          confidence: 'exact',
          via: 'New*Client',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          method: 'ProcessPayment',
          symbol: 5,
          line: 40,
          confidence: 'exact',
          via: 'Unimplemented*Server',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          method: 'RefundPayment',
          symbol: 6,
          line: 47,
          confidence: 'exact',
          via: 'Unimplemented*Server',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          method: 'ReleaseStock',
          symbol: 6,
          line: 48,
          confidence: 'exact',
          via: 'New*Client',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          method: 'WatchPayments',
          symbol: 7,
          line: 54,
          confidence: 'exact',
          via: 'Unimplemented*Server',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          symbol: 9,
          line: 68,
          confidence: 'exact',
          via: 'New*Client',
        },
        {
          kind: 'grpc_client',
          service: 'InventoryService',
          method: 'ReserveStock',
          symbol: 9,
          line: 69,
          confidence: 'exact',
          via: 'New*Client',
        },
        {
          kind: 'grpc_server',
          service: 'PaymentService',
          symbol: 9,
          line: 74,
          confidence: 'exact',
          via: 'Register*Server',
        },
      ],
      properties: [{ key: 'go:main.DefaultPort', value: ':50051', line: 18 }],
    });
  });

  test('events.go', async () => {
    expect(await extract('events.go')).toEqual({
      language: 'go',
      package: 'events',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'ordersTopic',
          qualifiedName: 'ordersTopic',
          signature: 'const ordersTopic   = "orders.created"',
          startLine: 12,
          endLine: 12,
          exported: false,
        },
        {
          id: 1,
          kind: 'const',
          name: 'paymentsTopic',
          qualifiedName: 'paymentsTopic',
          signature: 'const paymentsTopic = "payments." + "settled"',
          startLine: 13,
          endLine: 13,
          exported: false,
        },
        {
          id: 2,
          kind: 'variable',
          name: 'auditTopics',
          qualifiedName: 'auditTopics',
          signature: 'var auditTopics = []string{"audit.payments", "audit.refunds"}',
          startLine: 16,
          endLine: 16,
          exported: false,
        },
        {
          id: 3,
          kind: 'function',
          name: 'refundsTopic',
          qualifiedName: 'refundsTopic',
          signature: 'func refundsTopic() string',
          startLine: 19,
          endLine: 24,
          bodyStartLine: 20,
          bodyEndLine: 23,
          docstring: 'refundsTopic lets operators rename the topic; the literal is the default.',
          exported: false,
        },
        {
          id: 4,
          kind: 'function',
          name: 'envOr',
          qualifiedName: 'envOr',
          signature: 'func envOr(key, fallback string) string',
          startLine: 26,
          endLine: 31,
          bodyStartLine: 27,
          bodyEndLine: 30,
          exported: false,
        },
        {
          id: 5,
          kind: 'function',
          name: 'consumeOrders',
          qualifiedName: 'consumeOrders',
          signature: 'func consumeOrders(ctx context.Context)',
          startLine: 33,
          endLine: 43,
          bodyStartLine: 34,
          bodyEndLine: 42,
          exported: false,
        },
        {
          id: 6,
          kind: 'function',
          name: 'consumeAudit',
          qualifiedName: 'consumeAudit',
          signature:
            'func consumeAudit(group sarama.ConsumerGroup, consumer sarama.Consumer, handler sarama.ConsumerGroupHandler)',
          startLine: 45,
          endLine: 49,
          bodyStartLine: 46,
          bodyEndLine: 48,
          exported: false,
        },
        {
          id: 7,
          kind: 'function',
          name: 'publishAudit',
          qualifiedName: 'publishAudit',
          signature: 'func publishAudit(producer sarama.SyncProducer)',
          startLine: 51,
          endLine: 53,
          bodyStartLine: 52,
          bodyEndLine: 52,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'context',
          line: 4,
        },
        {
          source: 'os',
          line: 5,
        },
        {
          source: 'github.com/IBM/sarama',
          line: 7,
        },
        {
          source: 'github.com/segmentio/kafka-go',
          line: 8,
        },
      ],
      contracts: [
        {
          kind: 'topic_consumer',
          topic: 'orders.created',
          symbol: 5,
          line: 37,
          confidence: 'exact',
          via: 'kafka-go Reader',
        },
        {
          kind: 'topic_producer',
          topic: 'payments.settled',
          symbol: 5,
          line: 40,
          confidence: 'exact',
          via: 'kafka-go Writer',
        },
        {
          kind: 'topic_producer',
          topic: 'payments.refunded',
          symbol: 5,
          line: 41,
          confidence: 'heuristic',
          via: 'kafka-go Message',
        },
        {
          kind: 'topic_producer',
          topic: 'payments.chargeback',
          symbol: 5,
          line: 42,
          confidence: 'heuristic',
          via: 'kafka-go Message',
        },
        {
          kind: 'topic_consumer',
          topic: 'audit.raw',
          symbol: 6,
          line: 47,
          confidence: 'exact',
          via: 'sarama ConsumePartition',
        },
        {
          kind: 'topic_consumer',
          topic: 'audit.payments',
          symbol: 6,
          line: 48,
          confidence: 'exact',
          via: 'sarama ConsumerGroup',
        },
        {
          kind: 'topic_consumer',
          topic: 'audit.refunds',
          symbol: 6,
          line: 48,
          confidence: 'exact',
          via: 'sarama ConsumerGroup',
        },
        {
          kind: 'topic_producer',
          topic: 'audit.raw',
          symbol: 7,
          line: 52,
          confidence: 'exact',
          via: 'sarama ProducerMessage',
        },
      ],
      properties: [
        { key: 'go:events.ordersTopic', value: 'orders.created', line: 12 },
        { key: 'go:events.paymentsTopic', value: 'payments.settled', line: 13 },
      ],
    });
  });

  test('confluent.go', async () => {
    expect(await extract('confluent.go')).toEqual({
      language: 'go',
      package: 'events',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'shipmentsTopic',
          qualifiedName: 'shipmentsTopic',
          signature: 'const shipmentsTopic = "shipments.dispatched"',
          startLine: 7,
          endLine: 7,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'relay',
          qualifiedName: 'relay',
          signature: 'func relay(p *kafka.Producer, c *kafka.Consumer) error',
          startLine: 9,
          endLine: 21,
          bodyStartLine: 10,
          bodyEndLine: 20,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'github.com/confluentinc/confluent-kafka-go/v2/kafka',
          line: 4,
        },
      ],
      contracts: [
        {
          kind: 'topic_consumer',
          topic: 'orders.created',
          symbol: 1,
          line: 10,
          confidence: 'exact',
          via: 'confluent-kafka-go Subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'shipments.dispatched',
          symbol: 1,
          line: 10,
          confidence: 'exact',
          via: 'confluent-kafka-go Subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'orders.cancelled',
          symbol: 1,
          line: 13,
          confidence: 'exact',
          via: 'confluent-kafka-go Subscribe',
        },
        {
          kind: 'topic_producer',
          topic: 'shipments.dispatched',
          symbol: 1,
          line: 18,
          confidence: 'exact',
          via: 'confluent-kafka-go Produce',
        },
      ],
      properties: [{ key: 'go:events.shipmentsTopic', value: 'shipments.dispatched', line: 7 }],
    });
  });

  test('routes_std.go', async () => {
    expect(await extract('routes_std.go')).toEqual({
      language: 'go',
      package: 'api',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'billingURL',
          qualifiedName: 'billingURL',
          signature: 'const billingURL = "http://billing:8080/api"',
          startLine: 10,
          endLine: 10,
          exported: false,
        },
        {
          id: 1,
          kind: 'struct',
          name: 'StockClient',
          qualifiedName: 'StockClient',
          signature: 'type StockClient struct',
          startLine: 12,
          endLine: 15,
          exported: true,
        },
        {
          id: 2,
          kind: 'function',
          name: 'Register',
          qualifiedName: 'Register',
          signature: 'func Register(mux *http.ServeMux)',
          startLine: 17,
          endLine: 22,
          bodyStartLine: 18,
          bodyEndLine: 21,
          exported: true,
        },
        {
          id: 3,
          kind: 'method',
          name: 'Level',
          qualifiedName: 'StockClient.Level',
          signature: 'func (c *StockClient) Level(sku string) (*http.Response, error)',
          startLine: 24,
          endLine: 26,
          bodyStartLine: 25,
          bodyEndLine: 25,
          exported: true,
          parent: 1,
        },
        {
          id: 4,
          kind: 'function',
          name: 'fetchInvoice',
          qualifiedName: 'fetchInvoice',
          signature: 'func fetchInvoice(id string) (*http.Response, error)',
          startLine: 28,
          endLine: 32,
          bodyStartLine: 29,
          bodyEndLine: 31,
          exported: false,
        },
        {
          id: 5,
          kind: 'function',
          name: 'createInvoice',
          qualifiedName: 'createInvoice',
          signature: 'func createInvoice(orderID string) error',
          startLine: 34,
          endLine: 46,
          bodyStartLine: 35,
          bodyEndLine: 45,
          exported: false,
        },
        {
          id: 6,
          kind: 'function',
          name: 'getItem',
          qualifiedName: 'getItem',
          signature: 'func getItem(w http.ResponseWriter, r *http.Request)',
          startLine: 48,
          endLine: 48,
          exported: false,
        },
        {
          id: 7,
          kind: 'function',
          name: 'createItem',
          qualifiedName: 'createItem',
          signature: 'func createItem(w http.ResponseWriter, r *http.Request)',
          startLine: 49,
          endLine: 49,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'fmt',
          line: 4,
        },
        {
          source: 'net/http',
          line: 5,
        },
        {
          source: 'os',
          line: 6,
        },
        {
          source: 'strings',
          line: 7,
        },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/items/{id}',
          symbol: 2,
          line: 18,
          via: 'net/http HandleFunc',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/items',
          symbol: 2,
          line: 19,
          via: 'net/http HandleFunc',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/static/{path}',
          symbol: 2,
          line: 20,
          via: 'net/http Handle',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/healthz',
          symbol: 2,
          line: 21,
          via: 'net/http HandleFunc',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/stock/{sku}',
          symbol: 3,
          line: 25,
          confidence: 'heuristic',
          via: 'http.Client Get',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/invoices/{id}',
          base: 'env:BILLING_URL',
          symbol: 4,
          line: 31,
          confidence: 'exact',
          via: 'net/http Get',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/api/invoices',
          base: 'http://billing:8080',
          symbol: 5,
          line: 35,
          confidence: 'exact',
          via: 'http.NewRequest',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/entries/{orderID}',
          base: 'http://ledger:9000',
          symbol: 5,
          line: 44,
          confidence: 'exact',
          via: 'net/http Post',
        },
      ],
      properties: [{ key: 'go:api.billingURL', value: 'http://billing:8080/api', line: 10 }],
    });
  });

  test('routes_gin.go', async () => {
    expect(await extract('routes_gin.go')).toEqual({
      language: 'go',
      package: 'api',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'routes',
          qualifiedName: 'routes',
          signature: 'func routes(r *gin.Engine)',
          startLine: 5,
          endLine: 15,
          bodyStartLine: 6,
          bodyEndLine: 14,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'ping',
          qualifiedName: 'ping',
          signature: 'func ping(c *gin.Context)',
          startLine: 17,
          endLine: 17,
          exported: false,
        },
        {
          id: 2,
          kind: 'function',
          name: 'getOrder',
          qualifiedName: 'getOrder',
          signature: 'func getOrder(c *gin.Context)',
          startLine: 18,
          endLine: 18,
          exported: false,
        },
        {
          id: 3,
          kind: 'function',
          name: 'createOrder',
          qualifiedName: 'createOrder',
          signature: 'func createOrder(c *gin.Context)',
          startLine: 19,
          endLine: 19,
          exported: false,
        },
        {
          id: 4,
          kind: 'function',
          name: 'serveFile',
          qualifiedName: 'serveFile',
          signature: 'func serveFile(c *gin.Context)',
          startLine: 20,
          endLine: 20,
          exported: false,
        },
        {
          id: 5,
          kind: 'function',
          name: 'flush',
          qualifiedName: 'flush',
          signature: 'func flush(c *gin.Context)',
          startLine: 21,
          endLine: 21,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'github.com/gin-gonic/gin',
          line: 3,
        },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/ping',
          symbol: 0,
          line: 6,
          via: 'gin GET',
        },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/api/v1/orders/{id}',
          symbol: 0,
          line: 10,
          via: 'gin GET',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/api/v1/orders',
          symbol: 0,
          line: 11,
          via: 'gin POST',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/api/v1/files/{path}',
          symbol: 0,
          line: 12,
          via: 'gin Any',
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/cache',
          symbol: 0,
          line: 14,
          via: 'gin Handle',
        },
      ],
    });
  });

  test('routes_chi.go', async () => {
    expect(await extract('routes_chi.go')).toEqual({
      language: 'go',
      package: 'api',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'router',
          qualifiedName: 'router',
          signature: 'func router() http.Handler',
          startLine: 9,
          endLine: 21,
          bodyStartLine: 10,
          bodyEndLine: 20,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'home',
          qualifiedName: 'home',
          signature: 'func home(w http.ResponseWriter, r *http.Request)',
          startLine: 23,
          endLine: 23,
          exported: false,
        },
        {
          id: 2,
          kind: 'function',
          name: 'createCart',
          qualifiedName: 'createCart',
          signature: 'func createCart(w http.ResponseWriter, r *http.Request)',
          startLine: 24,
          endLine: 24,
          exported: false,
        },
        {
          id: 3,
          kind: 'function',
          name: 'getCart',
          qualifiedName: 'getCart',
          signature: 'func getCart(w http.ResponseWriter, r *http.Request)',
          startLine: 25,
          endLine: 25,
          exported: false,
        },
        {
          id: 4,
          kind: 'function',
          name: 'removeItem',
          qualifiedName: 'removeItem',
          signature: 'func removeItem(w http.ResponseWriter, r *http.Request)',
          startLine: 26,
          endLine: 26,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'net/http',
          line: 4,
        },
        {
          source: 'github.com/go-chi/chi/v5',
          line: 6,
        },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/',
          symbol: 0,
          line: 11,
          via: 'chi Get',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/carts',
          symbol: 0,
          line: 13,
          via: 'chi Post',
        },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/carts/{cartID}',
          symbol: 0,
          line: 15,
          via: 'chi Get',
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/carts/{cartID}/items/{itemID}',
          symbol: 0,
          line: 16,
          via: 'chi Delete',
        },
        {
          kind: 'http_route',
          method: 'PATCH',
          path: '/carts/{cartID}/note',
          symbol: 0,
          line: 19,
          via: 'chi Method',
        },
      ],
    });
  });

  test('routes_gorilla.go', async () => {
    expect(await extract('routes_gorilla.go')).toEqual({
      language: 'go',
      package: 'api',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'newRouter',
          qualifiedName: 'newRouter',
          signature: 'func newRouter() *mux.Router',
          startLine: 9,
          endLine: 16,
          bodyStartLine: 10,
          bodyEndLine: 15,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'listProducts',
          qualifiedName: 'listProducts',
          signature: 'func listProducts(w http.ResponseWriter, r *http.Request)',
          startLine: 18,
          endLine: 18,
          exported: false,
        },
        {
          id: 2,
          kind: 'function',
          name: 'updateProduct',
          qualifiedName: 'updateProduct',
          signature: 'func updateProduct(w http.ResponseWriter, r *http.Request)',
          startLine: 19,
          endLine: 19,
          exported: false,
        },
      ],
      imports: [
        {
          source: 'net/http',
          line: 4,
        },
        {
          source: 'github.com/gorilla/mux',
          line: 6,
        },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/products',
          symbol: 0,
          line: 11,
          via: 'gorilla/mux HandleFunc',
        },
        {
          kind: 'http_route',
          method: 'HEAD',
          path: '/products',
          symbol: 0,
          line: 11,
          via: 'gorilla/mux HandleFunc',
        },
        {
          kind: 'http_route',
          method: 'PUT',
          path: '/admin/products/{id}',
          symbol: 0,
          line: 13,
          via: 'gorilla/mux HandleFunc',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/admin/metrics',
          symbol: 0,
          line: 14,
          via: 'gorilla/mux Handle',
        },
      ],
    });
  });
});

describe('go negative fixture', () => {
  test('look-alikes in strings, comments, loggers and unrelated calls create no contract', async () => {
    const facts = await extract('negative/lookalikes.go');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols.map((s) => s.qualifiedName)).toEqual(['notifier', 'notifier.Send', 'lookalikes']);
  });
});

describe('go resolution rules', () => {
  test('a stub built from an unproven connection is heuristic; one built from a URL is no stub', async () => {
    const contracts = await contractsOf(`package x

import "github.com/acme/clients"

func wire(s *state) {
	orders := clients.NewOrderServiceClient(s.conn)
	_, _ = orders.PlaceOrder(nil, nil)
	_ = clients.NewBillingClient("http://billing:8080")
}
`);
    expect(contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'OrderService',
        symbol: 0,
        line: 6,
        confidence: 'heuristic',
        via: 'New*Client',
      },
      {
        kind: 'grpc_client',
        service: 'OrderService',
        method: 'PlaceOrder',
        symbol: 0,
        line: 7,
        confidence: 'heuristic',
        via: 'New*Client',
      },
    ]);
  });

  test('handlers are tied to a service through the registered value; other types stay plain methods', async () => {
    const contracts = await contractsOf(`package x

import (
	"context"

	pb "github.com/acme/gen/orders/v1"
)

type orders struct{}

type other struct{}

func (o *orders) PlaceOrder(ctx context.Context, req *pb.PlaceOrderRequest) (*pb.PlaceOrderResponse, error) {
	return nil, nil
}

func (o *other) PlaceOrder(ctx context.Context, req *pb.PlaceOrderRequest) (*pb.PlaceOrderResponse, error) {
	return nil, nil
}

func register(s pb.Registrar) {
	impl := &orders{}
	pb.RegisterOrderServiceServer(s, impl)
}
`);
    expect(contracts).toEqual([
      {
        kind: 'grpc_server',
        service: 'OrderService',
        method: 'PlaceOrder',
        symbol: 2,
        line: 13,
        confidence: 'exact',
        via: 'Register*Server',
      },
      {
        kind: 'grpc_server',
        service: 'OrderService',
        symbol: 4,
        line: 23,
        confidence: 'exact',
        via: 'Register*Server',
      },
    ]);
  });

  test('topics from parameters, shadowing locals, conflicting assignments and env keys are never emitted', async () => {
    const contracts = await contractsOf(`package x

import (
	"os"

	"github.com/segmentio/kafka-go"
)

const ordersTopic = "orders.created"

func shadowed(ordersTopic string) kafka.Message {
	return kafka.Message{Topic: ordersTopic}
}

func conflicting(retry bool) kafka.Message {
	t := "orders.created"
	if retry {
		t = "orders.retry"
	}
	return kafka.Message{Topic: t}
}

func fromEnv() kafka.Message {
	return kafka.Message{Topic: os.Getenv("ORDERS_TOPIC")}
}

func resolved() kafka.Message {
	return kafka.Message{Topic: ordersTopic}
}
`);
    expect(contracts).toEqual([
      {
        kind: 'topic_producer',
        topic: 'orders.created',
        symbol: 4,
        line: 28,
        confidence: 'exact',
        via: 'kafka-go Message',
      },
    ]);
  });

  test('a URL the extractor cannot read gives no call, and explicit Sprintf indexes are not guessed', async () => {
    const contracts = await contractsOf(`package x

import (
	"fmt"
	"net/http"
)

func calls(url, base, id string) {
	_, _ = http.Get(url)
	_, _ = http.Get(fmt.Sprintf("%[1]s/orders/%[2]s", base, id))
	_, _ = http.Head(fmt.Sprintf("%s/orders/%d", base, 42))
}
`);
    expect(contracts).toEqual([
      {
        kind: 'http_call',
        method: 'HEAD',
        path: '/orders/42',
        symbol: 0,
        line: 11,
        confidence: 'heuristic',
        via: 'net/http Head',
      },
    ]);
  });

  test('echo groups prefix their routes; NewRequestWithContext reads its method and URL', async () => {
    const contracts = await contractsOf(`package x

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
)

const ledgerURL = "http://ledger:9000"

func routes(e *echo.Echo) {
	admin := e.Group("/admin")
	admin.PUT("/limits/:account", nil)
}

func post(ctx context.Context, account string) {
	req, _ := http.NewRequestWithContext(ctx, "post", ledgerURL+"/accounts/"+account+"/entries", nil)
	_ = req
}
`);
    expect(contracts).toEqual([
      {
        kind: 'http_route',
        method: 'PUT',
        path: '/admin/limits/{account}',
        symbol: 1,
        line: 14,
        via: 'echo PUT',
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/accounts/{account}/entries',
        base: 'http://ledger:9000',
        symbol: 2,
        line: 18,
        confidence: 'exact',
        via: 'http.NewRequestWithContext',
      },
    ]);
  });
});
