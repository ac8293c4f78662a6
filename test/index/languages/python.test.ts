import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractPython } from '../../../src/index/languages/python/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/python');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-python');

async function extractSource(source: string, file = 'inline.py'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'python', source },
    { grammarsDir, extractors: { python: extractPython } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/py/${name}`);
}

describe('python golden fixtures', () => {
  test('inventory_server.py', async () => {
    const facts = await extract('inventory_server.py');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'const',
        name: 'RESERVED_TOPIC',
        qualifiedName: 'RESERVED_TOPIC',
        signature: 'RESERVED_TOPIC = "stock.reserved"',
        startLine: 13,
        endLine: 13,
      },
      {
        id: 1,
        kind: 'const',
        name: 'RELEASED_TOPIC',
        qualifiedName: 'RELEASED_TOPIC',
        signature: 'RELEASED_TOPIC: str = os.getenv("RELEASED_TOPIC", "stock.released")',
        startLine: 14,
        endLine: 14,
      },
      {
        id: 2,
        kind: 'class',
        name: 'InventoryServicer',
        qualifiedName: 'InventoryServicer',
        signature: 'class InventoryServicer(inventory_pb2_grpc.InventoryServiceServicer)',
        startLine: 18,
        endLine: 37,
        docstring: 'Implements shop.inventory.v1.InventoryService.',
      },
      {
        id: 3,
        kind: 'method',
        name: '__init__',
        qualifiedName: 'InventoryServicer.__init__',
        signature: 'def __init__(self, store: StockStore)',
        startLine: 21,
        endLine: 23,
        parent: 2,
        bodyStartLine: 22,
        bodyEndLine: 23,
      },
      {
        id: 4,
        kind: 'method',
        name: 'ReserveStock',
        qualifiedName: 'InventoryServicer.ReserveStock',
        signature: 'def ReserveStock(self, request, context)',
        startLine: 25,
        endLine: 29,
        docstring: 'Reserves every line or none.',
        parent: 2,
        bodyStartLine: 27,
        bodyEndLine: 29,
      },
      {
        id: 5,
        kind: 'method',
        name: 'ReleaseStock',
        qualifiedName: 'InventoryServicer.ReleaseStock',
        signature: 'def ReleaseStock(self, request, context)',
        startLine: 31,
        endLine: 34,
        parent: 2,
        bodyStartLine: 32,
        bodyEndLine: 34,
      },
      {
        id: 6,
        kind: 'method',
        name: '_audit',
        qualifiedName: 'InventoryServicer._audit',
        signature: 'def _audit(self, sku)',
        startLine: 36,
        endLine: 37,
        parent: 2,
        bodyStartLine: 37,
        bodyEndLine: 37,
      },
      {
        id: 7,
        kind: 'class',
        name: 'StockHealth',
        qualifiedName: 'StockHealth',
        signature: 'class StockHealth(health.HealthServicer)',
        startLine: 40,
        endLine: 41,
      },
      {
        id: 8,
        kind: 'function',
        name: 'serve',
        qualifiedName: 'serve',
        signature: 'def serve(port: int = 50051) -> None',
        startLine: 44,
        endLine: 50,
        bodyStartLine: 45,
        bodyEndLine: 50,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'logging', line: 2 },
      { source: 'os', line: 3 },
      { source: 'concurrent', names: ['futures'], line: 4 },
      { source: 'grpc', line: 6 },
      { source: 'confluent_kafka', names: ['Producer'], line: 7 },
      { source: 'grpc_health.v1', names: ['health', 'health_pb2_grpc'], line: 8 },
      { source: 'shop.inventory.v1', names: ['inventory_pb2', 'inventory_pb2_grpc'], line: 10 },
      { source: '.store', names: ['StockStore'], line: 11 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_server',
        service: 'InventoryService',
        line: 18,
        confidence: 'exact',
        via: 'Servicer subclass',
        symbol: 2,
      },
      {
        kind: 'grpc_server',
        service: 'InventoryService',
        method: 'ReserveStock',
        line: 25,
        confidence: 'exact',
        via: 'Servicer method',
        symbol: 4,
      },
      {
        kind: 'topic_producer',
        topic: 'stock.reserved',
        line: 28,
        confidence: 'exact',
        via: 'confluent_kafka produce',
        symbol: 4,
      },
      {
        kind: 'grpc_server',
        service: 'InventoryService',
        method: 'ReleaseStock',
        line: 31,
        confidence: 'exact',
        via: 'Servicer method',
        symbol: 5,
      },
      {
        kind: 'topic_producer',
        topic: 'stock.released',
        line: 33,
        confidence: 'exact',
        via: 'confluent_kafka produce',
        symbol: 5,
      },
      {
        kind: 'grpc_server',
        service: 'InventoryService',
        line: 46,
        confidence: 'exact',
        via: 'add_*Servicer_to_server',
        symbol: 8,
      },
    ]);
  });

  test('orders_api.py', async () => {
    const facts = await extract('orders_api.py');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'const',
        name: 'INVENTORY_URL',
        qualifiedName: 'INVENTORY_URL',
        signature: 'INVENTORY_URL = os.environ["INVENTORY_URL"]',
        startLine: 13,
        endLine: 13,
      },
      {
        id: 1,
        kind: 'const',
        name: 'BILLING',
        qualifiedName: 'BILLING',
        signature: 'BILLING = "http://billing:8080"',
        startLine: 14,
        endLine: 14,
      },
      {
        id: 2,
        kind: 'class',
        name: 'Topics',
        qualifiedName: 'Topics',
        signature: 'class Topics(str, Enum)',
        startLine: 20,
        endLine: 22,
      },
      {
        id: 3,
        kind: 'class',
        name: 'OrderService',
        qualifiedName: 'OrderService',
        signature: 'class OrderService',
        startLine: 25,
        endLine: 43,
      },
      {
        id: 4,
        kind: 'method',
        name: '__init__',
        qualifiedName: 'OrderService.__init__',
        signature: 'def __init__(self, channel: grpc.aio.Channel)',
        startLine: 26,
        endLine: 29,
        parent: 3,
        bodyStartLine: 27,
        bodyEndLine: 29,
      },
      {
        id: 5,
        kind: 'method',
        name: 'place',
        qualifiedName: 'OrderService.place',
        signature: 'async def place(self, order_id: str, sku: str) -> Optional[str]',
        startLine: 31,
        endLine: 39,
        parent: 3,
        bodyStartLine: 32,
        bodyEndLine: 39,
      },
      {
        id: 6,
        kind: 'method',
        name: 'cancel',
        qualifiedName: 'OrderService.cancel',
        signature: 'async def cancel(self, order_id: str) -> None',
        startLine: 41,
        endLine: 43,
        parent: 3,
        bodyStartLine: 42,
        bodyEndLine: 43,
      },
      {
        id: 7,
        kind: 'function',
        name: 'get_order',
        qualifiedName: 'get_order',
        signature: 'async def get_order(order_id: str) -> dict',
        startLine: 46,
        endLine: 48,
        decorators: ['@router.get("/{order_id}")'],
        bodyStartLine: 48,
        bodyEndLine: 48,
      },
      {
        id: 8,
        kind: 'function',
        name: 'upsert_order',
        qualifiedName: 'upsert_order',
        signature: 'async def upsert_order(order_id: str = "") -> dict',
        startLine: 51,
        endLine: 54,
        decorators: ['@router.post("")', '@router.put("/{order_id:path}")'],
        bodyStartLine: 54,
        bodyEndLine: 54,
      },
      {
        id: 9,
        kind: 'function',
        name: 'health',
        qualifiedName: 'health',
        signature: 'def health() -> str',
        startLine: 57,
        endLine: 59,
        decorators: ['@app.api_route("/health", methods=["GET", "HEAD"])'],
        bodyStartLine: 59,
        bodyEndLine: 59,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'os', line: 1 },
      { source: 'enum', names: ['Enum'], line: 2 },
      { source: 'typing', names: ['Optional'], line: 3 },
      { source: 'grpc', line: 5 },
      { source: 'httpx', line: 6 },
      { source: 'aiokafka', names: ['AIOKafkaProducer'], line: 7 },
      { source: 'fastapi', names: ['APIRouter', 'FastAPI'], line: 8 },
      { source: 'shop.payment.v1', names: ['payment_pb2'], line: 10 },
      { source: 'shop.payment.v1.payment_pb2_grpc', names: ['PaymentServiceStub'], line: 11 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        line: 27,
        confidence: 'exact',
        via: 'pb2_grpc stub',
        symbol: 4,
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/stock/{sku}',
        line: 33,
        confidence: 'exact',
        via: 'httpx get',
        base: 'env:INVENTORY_URL',
        symbol: 5,
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'ProcessPayment',
        line: 36,
        confidence: 'exact',
        via: 'stub call',
        symbol: 5,
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/invoices/{order_id}',
        line: 37,
        confidence: 'exact',
        via: 'httpx post',
        base: 'http://billing:8080',
        symbol: 5,
      },
      {
        kind: 'topic_producer',
        topic: 'orders.created',
        line: 38,
        confidence: 'exact',
        via: 'aiokafka send_and_wait',
        symbol: 5,
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'RefundPayment',
        line: 42,
        confidence: 'exact',
        via: 'stub call',
        symbol: 6,
      },
      {
        kind: 'topic_producer',
        topic: 'orders.cancelled',
        line: 43,
        confidence: 'exact',
        via: 'aiokafka send',
        symbol: 6,
      },
      {
        kind: 'http_route',
        method: 'GET',
        path: '/api/orders/{order_id}',
        line: 47,
        via: 'fastapi @get',
        symbol: 7,
      },
      { kind: 'http_route', method: 'POST', path: '/api/orders', line: 53, via: 'fastapi @post', symbol: 8 },
      {
        kind: 'http_route',
        method: 'PUT',
        path: '/api/orders/{order_id}',
        line: 53,
        via: 'fastapi @put',
        symbol: 8,
      },
      { kind: 'http_route', method: 'GET', path: '/health', line: 58, via: 'fastapi @api_route', symbol: 9 },
      { kind: 'http_route', method: 'HEAD', path: '/health', line: 58, via: 'fastapi @api_route', symbol: 9 },
    ]);
  });

  test('shop_web.py', async () => {
    const facts = await extract('shop_web.py');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'const',
        name: 'CATALOG_URL',
        qualifiedName: 'CATALOG_URL',
        signature: 'CATALOG_URL = "http://catalog:8000/v1"',
        startLine: 6,
        endLine: 6,
      },
      {
        id: 1,
        kind: 'function',
        name: 'change_items',
        qualifiedName: 'change_items',
        signature: 'def change_items(cart_id)',
        startLine: 12,
        endLine: 17,
        decorators: ['@bp.route("/<int:cart_id>/items", methods=["POST", "DELETE"])'],
        bodyStartLine: 14,
        bodyEndLine: 17,
      },
      {
        id: 2,
        kind: 'function',
        name: 'show_cart',
        qualifiedName: 'show_cart',
        signature: 'def show_cart(cart_id)',
        startLine: 20,
        endLine: 22,
        decorators: ['@bp.route(rule="/<cart_id>")'],
        bodyStartLine: 22,
        bodyEndLine: 22,
      },
      {
        id: 3,
        kind: 'function',
        name: 'notify_cart',
        qualifiedName: 'notify_cart',
        signature: 'def notify_cart(self, cart_id)',
        startLine: 25,
        endLine: 27,
        decorators: ['@celery_app.task(bind=True, name="cart.notify")'],
        bodyStartLine: 27,
        bodyEndLine: 27,
      },
      {
        id: 4,
        kind: 'function',
        name: 'rebuild_index',
        qualifiedName: 'rebuild_index',
        signature: 'def rebuild_index()',
        startLine: 30,
        endLine: 32,
        decorators: ['@shared_task'],
        bodyStartLine: 32,
        bodyEndLine: 32,
      },
      {
        id: 5,
        kind: 'function',
        name: 'kick_off',
        qualifiedName: 'kick_off',
        signature: 'def kick_off()',
        startLine: 35,
        endLine: 36,
        bodyStartLine: 36,
        bodyEndLine: 36,
      },
      {
        id: 6,
        kind: 'function',
        name: 'create_app',
        qualifiedName: 'create_app',
        signature: 'def create_app() -> Flask',
        startLine: 39,
        endLine: 47,
        bodyStartLine: 40,
        bodyEndLine: 47,
      },
      {
        id: 7,
        kind: 'function',
        name: 'index',
        qualifiedName: 'index',
        signature: 'def index()',
        startLine: 43,
        endLine: 45,
        decorators: ['@app.route("/")'],
        parent: 6,
        bodyStartLine: 45,
        bodyEndLine: 45,
      },
      {
        id: 8,
        kind: 'function',
        name: 'listen',
        qualifiedName: 'listen',
        signature: 'def listen()',
        startLine: 50,
        endLine: 53,
        bodyStartLine: 51,
        bodyEndLine: 53,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'celery', names: ['Celery', 'shared_task'], line: 1 },
      { source: 'flask', names: ['Blueprint', 'Flask', 'jsonify'], line: 2 },
      { source: 'kafka', names: ['KafkaConsumer', 'KafkaProducer'], line: 3 },
      { source: 'requests', line: 4 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'http_route',
        method: 'POST',
        path: '/cart/{cart_id}/items',
        line: 13,
        via: 'flask @route',
        symbol: 1,
      },
      {
        kind: 'http_route',
        method: 'DELETE',
        path: '/cart/{cart_id}/items',
        line: 13,
        via: 'flask @route',
        symbol: 1,
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/v1/items/{cart_id}',
        line: 14,
        confidence: 'exact',
        via: 'requests get',
        base: 'http://catalog:8000',
        symbol: 1,
      },
      {
        kind: 'http_call',
        method: 'POST',
        path: '/v1/reservations/{cart_id}',
        line: 15,
        confidence: 'exact',
        via: 'requests post',
        base: 'http://catalog:8000',
        symbol: 1,
      },
      {
        kind: 'topic_producer',
        topic: 'cart.notify',
        line: 16,
        confidence: 'exact',
        via: 'celery delay',
        symbol: 1,
      },
      {
        kind: 'http_route',
        method: 'GET',
        path: '/cart/{cart_id}',
        line: 21,
        via: 'flask @route',
        symbol: 2,
      },
      {
        kind: 'topic_consumer',
        topic: 'cart.notify',
        line: 26,
        confidence: 'exact',
        via: 'celery task',
        symbol: 3,
      },
      {
        kind: 'topic_producer',
        topic: 'cart.changed',
        line: 27,
        confidence: 'exact',
        via: 'kafka-python send',
        symbol: 3,
      },
      {
        kind: 'topic_consumer',
        topic: 'rebuild_index',
        line: 31,
        confidence: 'exact',
        via: 'celery task',
        symbol: 4,
      },
      {
        kind: 'topic_producer',
        topic: 'rebuild_index',
        line: 36,
        confidence: 'exact',
        via: 'celery apply_async',
        symbol: 5,
      },
      { kind: 'http_route', method: 'GET', path: '/', line: 44, via: 'flask @route', symbol: 7 },
      {
        kind: 'topic_consumer',
        topic: 'cart.changed',
        line: 51,
        confidence: 'exact',
        via: 'kafka-python consumer',
        symbol: 8,
      },
      {
        kind: 'topic_consumer',
        topic: 'cart.abandoned',
        line: 51,
        confidence: 'exact',
        via: 'kafka-python consumer',
        symbol: 8,
      },
    ]);
  });

  test('notifier.py', async () => {
    const facts = await extract('notifier.py');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'const',
        name: 'ORDERS',
        qualifiedName: 'ORDERS',
        signature: 'ORDERS = os.environ.get("ORDERS_TOPIC", "orders.created")',
        startLine: 10,
        endLine: 10,
      },
      {
        id: 1,
        kind: 'function',
        name: 'poll_forever',
        qualifiedName: 'poll_forever',
        signature: 'def poll_forever()',
        startLine: 14,
        endLine: 18,
        bodyStartLine: 15,
        bodyEndLine: 18,
      },
      {
        id: 2,
        kind: 'function',
        name: 'tail_stock',
        qualifiedName: 'tail_stock',
        signature: 'async def tail_stock()',
        startLine: 21,
        endLine: 24,
        bodyStartLine: 22,
        bodyEndLine: 24,
      },
      {
        id: 3,
        kind: 'class',
        name: 'AuditTrail',
        qualifiedName: 'AuditTrail',
        signature: 'class AuditTrail',
        startLine: 27,
        endLine: 32,
      },
      {
        id: 4,
        kind: 'method',
        name: '__init__',
        qualifiedName: 'AuditTrail.__init__',
        signature: 'def __init__(self, producer)',
        startLine: 28,
        endLine: 29,
        parent: 3,
        bodyStartLine: 29,
        bodyEndLine: 29,
      },
      {
        id: 5,
        kind: 'method',
        name: 'record',
        qualifiedName: 'AuditTrail.record',
        signature: 'def record(self, event: str) -> None',
        startLine: 31,
        endLine: 32,
        parent: 3,
        bodyStartLine: 32,
        bodyEndLine: 32,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'asyncio', line: 1 },
      { source: 'os', line: 2 },
      { source: 'aiokafka', names: ['AIOKafkaConsumer'], line: 4 },
      { source: 'confluent_kafka', names: ['Consumer'], line: 5 },
      { source: 'shop.inventory.v1.inventory_pb2_grpc', line: 7 },
      { source: 'shop.common', names: ['channels'], line: 8 },
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        line: 11,
        confidence: 'exact',
        via: 'pb2_grpc stub',
      },
      {
        kind: 'topic_consumer',
        topic: 'orders.created',
        line: 16,
        confidence: 'exact',
        via: 'confluent_kafka subscribe',
        symbol: 1,
      },
      {
        kind: 'topic_consumer',
        topic: 'payment.settled',
        line: 16,
        confidence: 'exact',
        via: 'confluent_kafka subscribe',
        symbol: 1,
      },
      {
        kind: 'topic_consumer',
        topic: 'stock.reserved',
        line: 22,
        confidence: 'exact',
        via: 'aiokafka consumer',
        symbol: 2,
      },
      {
        kind: 'topic_consumer',
        topic: 'orders.created',
        line: 22,
        confidence: 'exact',
        via: 'aiokafka consumer',
        symbol: 2,
      },
      {
        kind: 'grpc_client',
        service: 'InventoryService',
        method: 'ReleaseStock',
        line: 24,
        confidence: 'exact',
        via: 'stub call',
        symbol: 2,
      },
      {
        kind: 'topic_producer',
        topic: 'audit.events',
        line: 32,
        confidence: 'heuristic',
        via: 'confluent_kafka produce',
        symbol: 5,
      },
    ]);
  });

  test('urls.py', async () => {
    const facts = await extract('urls.py');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([]);
    expect(facts.imports).toEqual([
      { source: 'django.urls', names: ['include', 'path'], line: 1 },
      { source: '.', names: ['views'], line: 3 },
    ]);
    expect(facts.contracts).toEqual([
      { kind: 'http_route', method: 'ANY', path: '/orders', line: 6, via: 'django path' },
      { kind: 'http_route', method: 'ANY', path: '/orders/{pk}', line: 7, via: 'django path' },
      { kind: 'http_route', method: 'ANY', path: '/', line: 9, via: 'django path' },
    ]);
  });
});

describe('python negative fixture', () => {
  test('lookalikes.py', async () => {
    const facts = await extract('negative/lookalikes.py');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'const',
        name: 'ORDERS_TOPIC_NAME',
        qualifiedName: 'ORDERS_TOPIC_NAME',
        signature: 'ORDERS_TOPIC_NAME = "orders.created"',
        startLine: 5,
        endLine: 5,
      },
      {
        id: 1,
        kind: 'class',
        name: 'Mailer',
        qualifiedName: 'Mailer',
        signature: 'class Mailer',
        startLine: 8,
        endLine: 13,
      },
      {
        id: 2,
        kind: 'method',
        name: 'send',
        qualifiedName: 'Mailer.send',
        signature: 'def send(self, topic, body)',
        startLine: 9,
        endLine: 10,
        parent: 1,
        bodyStartLine: 10,
        bodyEndLine: 10,
      },
      {
        id: 3,
        kind: 'method',
        name: 'produce',
        qualifiedName: 'Mailer.produce',
        signature: 'def produce(self, topic)',
        startLine: 12,
        endLine: 13,
        parent: 1,
        bodyStartLine: 13,
        bodyEndLine: 13,
      },
      {
        id: 4,
        kind: 'function',
        name: 'handler',
        qualifiedName: 'handler',
        signature: 'def handler(topic_name, channel, session)',
        startLine: 16,
        endLine: 33,
        bodyStartLine: 17,
        bodyEndLine: 33,
      },
      {
        id: 5,
        kind: 'function',
        name: 'fetch',
        qualifiedName: 'fetch',
        signature: 'def fetch(requests)',
        startLine: 36,
        endLine: 37,
        bodyStartLine: 37,
        bodyEndLine: 37,
      },
      {
        id: 6,
        kind: 'function',
        name: 'cached',
        qualifiedName: 'cached',
        signature: 'def cached()',
        startLine: 40,
        endLine: 42,
        decorators: ['@cache.get("/not-a-route")'],
        bodyStartLine: 42,
        bodyEndLine: 42,
      },
      {
        id: 7,
        kind: 'function',
        name: 'flaky',
        qualifiedName: 'flaky',
        signature: 'def flaky()',
        startLine: 45,
        endLine: 47,
        decorators: ['@retry'],
        bodyStartLine: 47,
        bodyEndLine: 47,
      },
    ]);
    expect(facts.imports).toEqual([{ source: 'logging', line: 2 }]);
    expect(facts.contracts).toEqual([]);
  });
});

describe('python edge cases', () => {
  test('a wrapped signature reads on one line and a docstring-only body strips nothing', async () => {
    const facts = await extractSource(
      [
        'def place(',
        '    order_id: str,',
        '    sku: str,',
        ') -> None:',
        '    """Only a docstring."""',
        '',
      ].join('\n'),
    );
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'function',
        name: 'place',
        qualifiedName: 'place',
        signature: 'def place(order_id: str, sku: str,) -> None',
        startLine: 1,
        endLine: 5,
        docstring: 'Only a docstring.',
      },
    ]);
  });

  test('a constant assigned two different values and a shadowing parameter resolve to no topic', async () => {
    const facts = await extractSource(
      [
        'from confluent_kafka import Producer',
        'if PROD:',
        '    TOPIC = "orders.v2"',
        'else:',
        '    TOPIC = "orders.v1"',
        'NAME = "audit"',
        'producer = Producer({})',
        'def send(NAME):',
        '    producer.produce(TOPIC, b"")',
        '    producer.produce(NAME, b"")',
        '    producer.produce(f"{NAME}.dlq", b"")',
        '',
      ].join('\n'),
    );
    expect(facts.contracts).toEqual([]);
  });

  test('a stub bound in __init__ below its use is still traced, and health stubs are not clients', async () => {
    const facts = await extractSource(
      [
        'from grpc_health.v1 import health_pb2_grpc',
        'from shop import cart_pb2_grpc',
        'class Cart:',
        '    def add(self, item):',
        '        return self.stub.AddItem(item)',
        '    def __init__(self, channel):',
        '        self.stub = cart_pb2_grpc.CartServiceStub(channel)',
        '        self.health = health_pb2_grpc.HealthStub(channel)',
        '        self.health.Check(None)',
        '',
      ].join('\n'),
    );
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'CartService',
        method: 'AddItem',
        line: 5,
        confidence: 'exact',
        via: 'stub call',
        symbol: 1,
      },
      {
        kind: 'grpc_client',
        service: 'CartService',
        line: 7,
        confidence: 'exact',
        via: 'pb2_grpc stub',
        symbol: 2,
      },
    ]);
  });
});

describe('python routes registered by calling the decorator, and URLs held by a config model', () => {
  test('agent_app.py: X.post("/p")(handler) on FastAPI/APIRouter/Flask; a URL from the only AgentConfig(planner_url=…)', async () => {
    const facts = await extract('agent_app.py');
    expect(facts.imports).toEqual([
      { source: 'os', line: 2 },
      { source: 'fastapi', names: ['APIRouter', 'FastAPI'], line: 4 },
      { source: 'flask', names: ['Flask'], line: 5 },
      { source: 'pydantic', names: ['BaseModel'], line: 6 },
      { source: 'requests', line: 7 },
    ]);
    expect(facts.symbols.map((s) => [s.kind, s.qualifiedName, s.startLine, s.endLine])).toEqual([
      ['class', 'AgentConfig', 13, 15],
      ['class', 'Agent', 18, 25],
      ['method', 'Agent.__init__', 19, 22],
      ['method', 'Agent.handle_prompt', 24, 25],
      ['function', 'read_item', 28, 29],
      ['function', 'health', 32, 33],
      ['function', 'build_config', 40, 44],
    ]);
    expect(facts.contracts).toEqual([
      { kind: 'http_route', method: 'POST', path: '/prompt', line: 21, via: 'fastapi post()', symbol: 2 },
      {
        // Through a config object's field: never more than heuristic.
        kind: 'http_call',
        method: 'POST',
        path: '/plan',
        line: 25,
        confidence: 'heuristic',
        via: 'requests post',
        base: 'http://{PLANNER_HOST}:8080',
        symbol: 3,
      },
      { kind: 'http_route', method: 'GET', path: '/api/items/{item_id}', line: 36, via: 'fastapi get()' },
      { kind: 'http_route', method: 'GET', path: '/health', line: 37, via: 'flask route()' },
      { kind: 'http_route', method: 'HEAD', path: '/health', line: 37, via: 'flask route()' },
    ]);
  });

  test('non-router receivers, extra arguments, ambiguous or variable config fields and topics yield nothing', async () => {
    expect((await extract('negative/called_lookalikes.py')).contracts).toEqual([]);
  });
});
