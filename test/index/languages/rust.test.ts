import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ContractFact, FileFacts } from '../../../src/index/facts.js';
import { extractRust } from '../../../src/index/languages/rust/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/rust');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-rust');

async function extractSource(source: string, file = 'services/inventory/src/inline.rs'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'rust', source },
    { grammarsDir, extractors: { rust: extractRust } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/inventory/src/${name}`);
}

async function contractsOf(source: string): Promise<readonly ContractFact[]> {
  return (await extractSource(source)).contracts;
}

describe('rust golden fixtures', () => {
  test('grpc.rs', async () => {
    expect(await extract('grpc.rs')).toEqual({
      language: 'rust',
      package: 'shop.inventory.v1',
      symbols: [
        {
          id: 0,
          kind: 'module',
          name: 'pb',
          qualifiedName: 'pb',
          signature: 'pub mod pb',
          startLine: 8,
          endLine: 10,
          exported: true,
        },
        {
          id: 1,
          kind: 'const',
          name: 'LISTEN_ADDR',
          qualifiedName: 'LISTEN_ADDR',
          signature: 'pub const LISTEN_ADDR: &str = "0.0.0.0:50052"',
          startLine: 17,
          endLine: 17,
          docstring: 'Default gRPC listen address.',
          exported: true,
        },
        {
          id: 2,
          kind: 'struct',
          name: 'InventoryApi',
          qualifiedName: 'InventoryApi',
          signature: 'pub struct InventoryApi',
          startLine: 21,
          endLine: 24,
          docstring: 'Serves `shop.inventory.v1.InventoryService`.',
          decorators: ['#[derive(Clone)]'],
          exported: true,
        },
        {
          id: 3,
          kind: 'struct',
          name: 'StockBook',
          qualifiedName: 'StockBook',
          signature: 'pub struct StockBook',
          startLine: 26,
          endLine: 26,
          exported: true,
        },
        {
          id: 4,
          kind: 'impl',
          name: 'InventoryApi',
          qualifiedName: 'InventoryApi',
          signature: 'impl InventoryApi',
          startLine: 28,
          endLine: 37,
          exported: false,
        },
        {
          id: 5,
          kind: 'method',
          name: 'connect',
          qualifiedName: 'InventoryApi::connect',
          signature: 'pub async fn connect(book: Arc<StockBook>) -> Result<Self, tonic::transport::Error>',
          startLine: 29,
          endLine: 32,
          exported: true,
          bodyStartLine: 30,
          bodyEndLine: 31,
          parent: 4,
        },
        {
          id: 6,
          kind: 'method',
          name: 'quote_request',
          qualifiedName: 'InventoryApi::quote_request',
          signature: 'fn quote_request(&self) -> pb::QuoteRequest',
          startLine: 34,
          endLine: 36,
          exported: false,
          bodyStartLine: 35,
          bodyEndLine: 35,
          parent: 4,
        },
        {
          id: 7,
          kind: 'impl',
          name: 'InventoryApi',
          qualifiedName: 'InventoryApi',
          signature: 'impl InventoryService for InventoryApi',
          startLine: 40,
          endLine: 56,
          decorators: ['#[tonic::async_trait]'],
          exported: false,
        },
        {
          id: 8,
          kind: 'method',
          name: 'reserve_stock',
          qualifiedName: 'InventoryApi::reserve_stock',
          signature:
            'async fn reserve_stock(&self, request: Request<ReserveStockRequest>) -> Result<Response<ReserveStockResponse>, Status>',
          startLine: 42,
          endLine: 50,
          docstring: 'Reserves stock once the price is confirmed.',
          exported: false,
          bodyStartLine: 46,
          bodyEndLine: 49,
          parent: 7,
        },
        {
          id: 9,
          kind: 'method',
          name: 'release_stock',
          qualifiedName: 'InventoryApi::release_stock',
          signature:
            'async fn release_stock(&self, _request: Request<pb::ReleaseStockRequest>) -> Result<Response<pb::ReleaseStockResponse>, Status>',
          startLine: 52,
          endLine: 55,
          exported: false,
          bodyStartLine: 53,
          bodyEndLine: 54,
          parent: 7,
        },
        {
          id: 10,
          kind: 'enum',
          name: 'Reservation',
          qualifiedName: 'Reservation',
          signature: 'pub enum Reservation',
          startLine: 58,
          endLine: 61,
          exported: true,
        },
        {
          id: 11,
          kind: 'enum_member',
          name: 'Reserved',
          qualifiedName: 'Reservation::Reserved',
          signature: 'Reserved',
          startLine: 59,
          endLine: 59,
          parent: 10,
        },
        {
          id: 12,
          kind: 'enum_member',
          name: 'Insufficient',
          qualifiedName: 'Reservation::Insufficient',
          signature: 'Insufficient {sku: String}',
          startLine: 60,
          endLine: 60,
          parent: 10,
        },
        {
          id: 13,
          kind: 'function',
          name: 'serve',
          qualifiedName: 'serve',
          signature: 'pub async fn serve(api: InventoryApi) -> Result<(), Box<dyn std::error::Error>>',
          startLine: 63,
          endLine: 71,
          exported: true,
          bodyStartLine: 64,
          bodyEndLine: 70,
        },
      ],
      imports: [
        {
          source: 'std::sync::Arc',
          names: ['Arc'],
          line: 3,
        },
        {
          source: 'tonic::transport::Channel',
          names: ['Channel'],
          line: 5,
        },
        {
          source: 'tonic::transport::Server',
          names: ['Server'],
          line: 5,
        },
        {
          source: 'tonic::Request',
          names: ['Request'],
          line: 6,
        },
        {
          source: 'tonic::Response',
          names: ['Response'],
          line: 6,
        },
        {
          source: 'tonic::Status',
          names: ['Status'],
          line: 6,
        },
        {
          source: 'pb::inventory_service_server::InventoryService',
          names: ['InventoryService'],
          line: 12,
        },
        {
          source: 'pb::inventory_service_server::InventoryServiceServer',
          names: ['InventoryServiceServer'],
          line: 12,
        },
        {
          source: 'pb::pricing_service_client::PricingServiceClient',
          names: ['PricingServiceClient'],
          line: 13,
        },
        {
          source: 'pb::ReserveStockRequest',
          names: ['ReserveStockRequest'],
          line: 14,
        },
        {
          source: 'pb::ReserveStockResponse',
          names: ['ReserveStockResponse'],
          line: 14,
        },
      ],
      contracts: [
        {
          kind: 'grpc_client',
          service: 'PricingService',
          symbol: 2,
          line: 22,
          confidence: 'exact',
          via: 'field XClient',
        },
        {
          kind: 'grpc_client',
          service: 'PricingService',
          symbol: 5,
          line: 30,
          confidence: 'exact',
          via: 'tonic XClient',
        },
        {
          kind: 'grpc_server',
          service: 'InventoryService',
          method: 'reserve_stock',
          symbol: 8,
          line: 42,
          confidence: 'exact',
          via: 'tonic impl',
        },
        {
          kind: 'grpc_client',
          service: 'PricingService',
          method: 'quote',
          symbol: 8,
          line: 47,
          confidence: 'exact',
          via: 'tonic XClient',
        },
        {
          kind: 'grpc_server',
          service: 'InventoryService',
          method: 'release_stock',
          symbol: 9,
          line: 52,
          confidence: 'exact',
          via: 'tonic impl',
        },
        {
          kind: 'grpc_client',
          service: 'PricingService',
          method: 'release_quote',
          symbol: 9,
          line: 53,
          confidence: 'exact',
          via: 'tonic XClient',
        },
        {
          kind: 'grpc_server',
          service: 'InventoryService',
          symbol: 13,
          line: 67,
          confidence: 'exact',
          via: 'tonic XServer::new',
        },
      ],
    });
  });

  test('events.rs', async () => {
    expect(await extract('events.rs')).toEqual({
      language: 'rust',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'PAYMENTS_SETTLED',
          qualifiedName: 'PAYMENTS_SETTLED',
          signature: 'const PAYMENTS_SETTLED: &str = "payments.settled"',
          startLine: 6,
          endLine: 6,
          exported: false,
        },
        {
          id: 1,
          kind: 'variable',
          name: 'AUDIT_TOPICS',
          qualifiedName: 'AUDIT_TOPICS',
          signature: 'static AUDIT_TOPICS: [&str; 2] = ["audit.stock", "audit.prices"]',
          startLine: 7,
          endLine: 7,
          exported: false,
        },
        {
          id: 2,
          kind: 'module',
          name: 'topics',
          qualifiedName: 'topics',
          signature: 'mod topics',
          startLine: 9,
          endLine: 11,
          exported: false,
        },
        {
          id: 3,
          kind: 'const',
          name: 'STOCK_RESERVED',
          qualifiedName: 'topics::STOCK_RESERVED',
          signature: 'pub const STOCK_RESERVED: &str = "stock.reserved"',
          startLine: 10,
          endLine: 10,
          exported: true,
        },
        {
          id: 4,
          kind: 'trait',
          name: 'Publisher',
          qualifiedName: 'Publisher',
          signature: 'pub trait Publisher',
          startLine: 13,
          endLine: 15,
          exported: true,
        },
        {
          id: 5,
          kind: 'method',
          name: 'publish',
          qualifiedName: 'Publisher::publish',
          signature: 'fn publish(&self, key: &str) -> Result<(), String>',
          startLine: 14,
          endLine: 14,
          exported: false,
          parent: 4,
        },
        {
          id: 6,
          kind: 'function',
          name: 'run',
          qualifiedName: 'run',
          signature:
            'pub async fn run(consumer: StreamConsumer, producer: FutureProducer, base: BaseProducer)',
          startLine: 17,
          endLine: 24,
          exported: true,
          bodyStartLine: 18,
          bodyEndLine: 23,
        },
      ],
      imports: [
        {
          source: 'std::time::Duration',
          names: ['Duration'],
          line: 1,
        },
        {
          source: 'rdkafka::consumer::Consumer',
          names: ['Consumer'],
          line: 3,
        },
        {
          source: 'rdkafka::consumer::StreamConsumer',
          names: ['StreamConsumer'],
          line: 3,
        },
        {
          source: 'rdkafka::producer::BaseProducer',
          names: ['BaseProducer'],
          line: 4,
        },
        {
          source: 'rdkafka::producer::BaseRecord',
          names: ['BaseRecord'],
          line: 4,
        },
        {
          source: 'rdkafka::producer::FutureProducer',
          names: ['FutureProducer'],
          line: 4,
        },
        {
          source: 'rdkafka::producer::FutureRecord',
          names: ['FutureRecord'],
          line: 4,
        },
      ],
      contracts: [
        {
          kind: 'topic_consumer',
          topic: 'payments.settled',
          symbol: 6,
          line: 18,
          confidence: 'exact',
          via: 'rdkafka subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'orders.cancelled',
          symbol: 6,
          line: 18,
          confidence: 'exact',
          via: 'rdkafka subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'audit.stock',
          symbol: 6,
          line: 19,
          confidence: 'exact',
          via: 'rdkafka subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'audit.prices',
          symbol: 6,
          line: 19,
          confidence: 'exact',
          via: 'rdkafka subscribe',
        },
        {
          kind: 'topic_producer',
          topic: 'stock.reserved',
          symbol: 6,
          line: 20,
          confidence: 'exact',
          via: 'rdkafka FutureRecord',
        },
        {
          kind: 'topic_producer',
          topic: 'stock.dlq',
          symbol: 6,
          line: 23,
          confidence: 'exact',
          via: 'rdkafka BaseRecord',
        },
      ],
    });
  });

  test('http.rs', async () => {
    expect(await extract('http.rs')).toEqual({
      language: 'rust',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'PRICING_URL',
          qualifiedName: 'PRICING_URL',
          signature: 'const PRICING_URL: &str = "http://pricing:8080/v2"',
          startLine: 6,
          endLine: 6,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'router',
          qualifiedName: 'router',
          signature: 'pub fn router() -> Router',
          startLine: 8,
          endLine: 15,
          exported: true,
          bodyStartLine: 9,
          bodyEndLine: 14,
        },
        {
          id: 2,
          kind: 'function',
          name: 'health',
          qualifiedName: 'health',
          signature: 'async fn health(path: web::Path<String>) -> impl Responder',
          startLine: 18,
          endLine: 20,
          decorators: ['#[get("/health/{probe}")]'],
          exported: false,
          bodyStartLine: 19,
          bodyEndLine: 19,
        },
        {
          id: 3,
          kind: 'function',
          name: 'sync',
          qualifiedName: 'sync',
          signature: 'async fn sync() -> impl Responder',
          startLine: 23,
          endLine: 25,
          decorators: ['#[route("/sync", method = "PUT", method = "POST")]'],
          exported: false,
          bodyStartLine: 24,
          bodyEndLine: 24,
        },
        {
          id: 4,
          kind: 'function',
          name: 'configure',
          qualifiedName: 'configure',
          signature: 'pub fn configure(cfg: &mut web::ServiceConfig)',
          startLine: 27,
          endLine: 33,
          exported: true,
          bodyStartLine: 28,
          bodyEndLine: 32,
        },
        {
          id: 5,
          kind: 'struct',
          name: 'PricingClient',
          qualifiedName: 'PricingClient',
          signature: 'pub struct PricingClient',
          startLine: 35,
          endLine: 37,
          exported: true,
        },
        {
          id: 6,
          kind: 'impl',
          name: 'PricingClient',
          qualifiedName: 'PricingClient',
          signature: 'impl PricingClient',
          startLine: 39,
          endLine: 51,
          exported: false,
        },
        {
          id: 7,
          kind: 'method',
          name: 'price',
          qualifiedName: 'PricingClient::price',
          signature: 'pub async fn price(&self, sku: &str) -> reqwest::Result<String>',
          startLine: 40,
          endLine: 44,
          exported: true,
          bodyStartLine: 41,
          bodyEndLine: 43,
          parent: 6,
        },
        {
          id: 8,
          kind: 'method',
          name: 'quote',
          qualifiedName: 'PricingClient::quote',
          signature: 'pub async fn quote(&self, order_id: &str) -> reqwest::Result<()>',
          startLine: 46,
          endLine: 50,
          exported: true,
          bodyStartLine: 47,
          bodyEndLine: 49,
          parent: 6,
        },
        {
          id: 9,
          kind: 'function',
          name: 'stock',
          qualifiedName: 'stock',
          signature: 'async fn stock()',
          startLine: 53,
          endLine: 53,
          exported: false,
        },
        {
          id: 10,
          kind: 'function',
          name: 'adjust',
          qualifiedName: 'adjust',
          signature: 'async fn adjust()',
          startLine: 54,
          endLine: 54,
          exported: false,
        },
        {
          id: 11,
          kind: 'function',
          name: 'reindex',
          qualifiedName: 'reindex',
          signature: 'async fn reindex()',
          startLine: 55,
          endLine: 55,
          exported: false,
        },
        {
          id: 12,
          kind: 'function',
          name: 'files',
          qualifiedName: 'files',
          signature: 'async fn files()',
          startLine: 56,
          endLine: 56,
          exported: false,
        },
        {
          id: 13,
          kind: 'function',
          name: 'levels',
          qualifiedName: 'levels',
          signature: 'async fn levels() -> impl Responder',
          startLine: 57,
          endLine: 59,
          exported: false,
          bodyStartLine: 58,
          bodyEndLine: 58,
        },
      ],
      imports: [
        {
          source: 'actix_web::get',
          names: ['get'],
          line: 1,
        },
        {
          source: 'actix_web::route',
          names: ['route'],
          line: 1,
        },
        {
          source: 'actix_web::web',
          names: ['web'],
          line: 1,
        },
        {
          source: 'actix_web::HttpResponse',
          names: ['HttpResponse'],
          line: 1,
        },
        {
          source: 'actix_web::Responder',
          names: ['Responder'],
          line: 1,
        },
        {
          source: 'axum::routing::get',
          names: ['axum_get'],
          line: 2,
        },
        {
          source: 'axum::routing::post',
          names: ['post'],
          line: 2,
        },
        {
          source: 'axum::Router',
          names: ['Router'],
          line: 3,
        },
        {
          source: 'reqwest::Client',
          names: ['Client'],
          line: 4,
        },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/stock/{sku}',
          symbol: 1,
          line: 10,
          via: 'route get',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/stock/{sku}',
          symbol: 1,
          line: 10,
          via: 'route post',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/admin/reindex',
          symbol: 1,
          line: 13,
          via: 'route post',
        },
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/admin/files/{path}',
          symbol: 1,
          line: 13,
          via: 'route any',
        },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/health/{probe}',
          symbol: 2,
          line: 18,
          via: '#[get]',
        },
        {
          kind: 'http_route',
          method: 'PUT',
          path: '/sync',
          symbol: 3,
          line: 23,
          via: '#[route]',
        },
        {
          kind: 'http_route',
          method: 'POST',
          path: '/sync',
          symbol: 3,
          line: 23,
          via: '#[route]',
        },
        {
          kind: 'http_route',
          method: 'GET',
          path: '/api/levels',
          symbol: 4,
          line: 30,
          via: 'route get',
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/api/levels/{sku}',
          symbol: 4,
          line: 31,
          via: 'route delete',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/prices/{sku}',
          base: 'env:PRICING_URL',
          symbol: 7,
          line: 43,
          confidence: 'exact',
          via: 'reqwest get',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/v2/quotes/{order_id}',
          base: 'http://pricing:8080',
          symbol: 8,
          line: 47,
          confidence: 'exact',
          via: 'reqwest post',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/items',
          base: 'http://catalog:8080',
          symbol: 8,
          line: 48,
          confidence: 'exact',
          via: 'reqwest get',
        },
      ],
    });
  });
});

describe('rust negative fixture', () => {
  test('look-alikes in docs, strings, macros, comments and unrelated types create no contract', async () => {
    const facts = await extract('negative/lookalikes.rs');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual([
      'struct Changes',
      'trait OrderService',
      'method OrderService::place',
      'struct Orders',
      'impl Orders',
      'method Orders::place',
      'struct Record',
      'impl Record',
      'method Record::to',
      'impl Changes',
      'method Changes::watch',
    ]);
  });
});

describe('rust resolution rules', () => {
  test('a `…Service` trait is a tonic service only with tonic in the file, and then only heuristically', async () => {
    const source = `use tonic::{Request, Response, Status};

pub struct Orders;

#[tonic::async_trait]
impl OrderService for Orders {
    async fn place_order(&self, request: Request<PlaceOrder>) -> Result<Response<Placed>, Status> {
        todo!()
    }
}
`;
    expect(await contractsOf(source)).toEqual([
      {
        kind: 'grpc_server',
        service: 'OrderService',
        method: 'place_order',
        symbol: 2,
        line: 7,
        confidence: 'heuristic',
        via: 'tonic impl',
      },
    ]);
    expect(await contractsOf(source.replace('use tonic::{Request, Response, Status};', ''))).toEqual([]);
  });

  test('a client type without generated-module evidence is not a stub', async () => {
    const contracts = await contractsOf(`use crate::http::HttpClient;

async fn call() {
    let client = HttpClient::new();
    client.fetch("x").await;
}
`);
    expect(contracts).toEqual([]);
  });

  test('topics from parameters and env keys are never emitted; shadowing lets hide constants', async () => {
    const contracts = await contractsOf(`use rdkafka::producer::FutureRecord;

const ORDERS: &str = "orders.created";

fn send(topic: &str) {
    let _ = FutureRecord::<str, str>::to(topic);
    let env = std::env::var("ORDERS_TOPIC").unwrap();
    let _ = FutureRecord::<str, str>::to(&env);
    let _ = FutureRecord::<str, str>::to(ORDERS);
}

fn shadow(ORDERS: &str) {
    let _ = FutureRecord::<str, str>::to(ORDERS);
}
`);
    expect(contracts).toEqual([
      {
        kind: 'topic_producer',
        topic: 'orders.created',
        symbol: 1,
        line: 9,
        confidence: 'exact',
        via: 'rdkafka FutureRecord',
      },
    ]);
  });

  test('a stub held in a `let` serves method-level calls; builder methods on it are not RPCs', async () => {
    const contracts = await contractsOf(`use shop::orders::order_service_client::OrderServiceClient;

async fn place() -> Result<(), Box<dyn std::error::Error>> {
    let mut client = OrderServiceClient::connect("http://orders:50051").await?.send_compressed(Gzip);
    client.place_order(PlaceOrder::default()).await?;
    Ok(())
}
`);
    expect(contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'OrderService',
        symbol: 0,
        line: 4,
        confidence: 'exact',
        via: 'tonic XClient',
      },
      {
        kind: 'grpc_client',
        service: 'OrderService',
        method: 'place_order',
        symbol: 0,
        line: 5,
        confidence: 'exact',
        via: 'tonic XClient',
      },
    ]);
  });
});

describe('rust HTTP clients: awc and fully written reqwest paths', () => {
  test('awc.rs: awc clients from a field, Client::default() and builder().finish(), sent with send/send_json', async () => {
    const facts = await extract('awc.rs');
    expect(facts.imports).toEqual([
      { source: 'std::env', names: ['env'], line: 1 },
      { source: 'awc::Client', names: ['Client'], line: 3 },
      { source: 'serde_json::json', names: ['json'], line: 4 },
    ]);
    expect(facts.symbols.map((s) => [s.kind, s.qualifiedName, s.startLine, s.endLine])).toEqual([
      ['struct', 'QuoteClient', 7, 10],
      ['impl', 'QuoteClient', 12, 20],
      ['method', 'QuoteClient::quote', 13, 19],
      ['function', 'rates', 22, 25],
      ['function', 'cancel', 27, 31],
    ]);
    expect(facts.contracts).toEqual([
      {
        kind: 'http_call',
        method: 'POST',
        path: '/getquote',
        symbol: 2,
        line: 15,
        confidence: 'heuristic',
        via: 'awc post',
      },
      {
        kind: 'http_call',
        method: 'GET',
        path: '/rates',
        base: 'http://currency:7001',
        symbol: 3,
        line: 24,
        confidence: 'exact',
        via: 'awc get',
      },
      {
        kind: 'http_call',
        method: 'DELETE',
        path: '/orders/{id}',
        base: 'env:ORDERS_ADDR',
        symbol: 4,
        line: 30,
        confidence: 'exact',
        via: 'awc delete',
      },
    ]);
  });

  test('reqwest_qualified.rs: `reqwest::Client::new()` without a `use reqwest`', async () => {
    expect(await extract('reqwest_qualified.rs')).toEqual({
      language: 'rust',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'notify',
          qualifiedName: 'notify',
          signature: 'pub async fn notify(order_id: &str) -> Result<(), reqwest::Error>',
          startLine: 2,
          endLine: 9,
          docstring: 'No `use reqwest`: the client is written with its full path.',
          exported: true,
          bodyStartLine: 3,
          bodyEndLine: 8,
        },
      ],
      imports: [],
      contracts: [
        {
          kind: 'http_call',
          method: 'POST',
          path: '/send_order_confirmation/{order_id}',
          base: 'http://email:8080',
          symbol: 0,
          line: 5,
          confidence: 'exact',
          via: 'reqwest post',
        },
      ],
    });
  });

  test('a Client of our own, maps and strings naming awc are no HTTP calls', async () => {
    expect((await extract('negative/http_lookalikes.rs')).contracts).toEqual([]);
  });
});
