/**
 * A three-service workspace of hand-written facts (declarations, call sites, contracts), reconciled and
 * bound by the real reconciler and call resolver, for the operations that walk calls across services
 * without waiting for each language's call extraction:
 *
 * - payments (Go): `pgLedger.record` ← (through the `Ledger` interface) `Store.transition` ← `Store.settle`
 *   ← `consume` (consumer of `orders.created`) and ← `Store.refund` ← `server.Refund` (implements the RPC
 *   `shop.payment.v1.PaymentService/Refund`);
 * - orders (TypeScript): `OrderService.create` produces `orders.created` and is called by
 *   `OrdersController.create` (route `POST /orders`); `OrderService.cancel` calls the Refund RPC and is called
 *   by `OrdersController.cancel` (route `POST /orders/{id}/cancel`);
 * - billing (Java): `Refunds.refundAll` calls the Refund RPC; a test calls it; `Stock.reserveAll` calls the
 *   Reserve RPC. Its Kotlin file records no call sites at all, like a language whose calls are not extracted;
 * - stock (C#): the class `StockApi` implements the whole `StockService`; its method `Reserve` is the entry
 *   point of the RPC of that name, `Helper` of none.
 */
import type { AnyOperation } from '../../src/core/operation.js';
import type { SymbolFact } from '../../src/index/facts.js';
import type { MeshServices } from '../../src/ops/services.js';
import { buildFixture, rpc, type Fixture, type FileSpec } from './grpc-fixture.js';

const decl = (
  kind: SymbolFact['kind'],
  qualifiedName: string,
  lines: [number, number],
  parent?: number,
): Omit<SymbolFact, 'id'> => ({
  kind,
  name: qualifiedName.split('.').pop() ?? qualifiedName,
  qualifiedName,
  startLine: lines[0],
  endLine: lines[1],
  ...(parent === undefined ? {} : { parent }),
});

export const FLOW_SPECS: readonly FileSpec[] = [
  {
    root: 'payments',
    path: 'proto/payment.proto',
    language: 'proto',
    protoServices: [
      {
        package: 'shop.payment.v1',
        name: 'PaymentService',
        line: 3,
        methods: [rpc('Refund', 4, 'RefundRequest', 'RefundResponse')],
      },
    ],
  },
  {
    root: 'payments',
    path: 'ledger.go',
    language: 'go',
    package: 'main',
    symbols: [
      decl('interface', 'Ledger', [1, 3]),
      decl('method', 'Ledger.record', [2, 2], 0),
      decl('struct', 'pgLedger', [5, 6]),
      decl('method', 'pgLedger.record', [8, 12], 2),
    ],
  },
  {
    root: 'payments',
    path: 'store.go',
    language: 'go',
    package: 'main',
    symbols: [
      decl('struct', 'Store', [1, 5]),
      decl('method', 'Store.transition', [10, 20], 0),
      decl('method', 'Store.settle', [22, 24], 0),
      decl('method', 'Store.refund', [26, 29], 0),
    ],
    calls: [
      { name: 'record', receiver: 's.ledger', receiverType: 'Ledger', line: 15, caller: 1 },
      { name: 'transition', receiver: 's', self: true, line: 23, caller: 2 },
      { name: 'transition', receiver: 's', self: true, line: 27, caller: 3 },
    ],
  },
  {
    root: 'payments',
    path: 'server.go',
    language: 'go',
    package: 'main',
    symbols: [decl('struct', 'server', [1, 4]), decl('method', 'server.Refund', [6, 12], 0)],
    calls: [{ name: 'refund', receiver: 's.store', receiverType: 'Store', line: 8, caller: 1 }],
    contracts: [
      {
        kind: 'grpc_server',
        service: 'PaymentService',
        method: 'Refund',
        symbol: 1,
        line: 6,
        confidence: 'exact',
        via: 'Unimplemented*Server',
      },
    ],
  },
  {
    root: 'payments',
    path: 'events.go',
    language: 'go',
    package: 'main',
    symbols: [decl('function', 'consume', [3, 15])],
    calls: [{ name: 'settle', receiver: 'store', receiverType: 'Store', line: 9, caller: 0 }],
    contracts: [
      {
        kind: 'topic_consumer',
        topic: 'orders.created',
        broker: 'kafka',
        symbol: 0,
        line: 4,
        confidence: 'exact',
        via: 'kafka-go Reader',
      },
    ],
  },
  {
    root: 'orders',
    path: 'src/order.service.ts',
    language: 'typescript',
    symbols: [
      decl('class', 'OrderService', [1, 30]),
      decl('method', 'OrderService.create', [5, 15], 0),
      decl('method', 'OrderService.cancel', [17, 25], 0),
    ],
    contracts: [
      {
        kind: 'topic_producer',
        topic: 'orders.created',
        broker: 'kafka',
        symbol: 1,
        line: 10,
        confidence: 'exact',
        via: 'kafkajs send',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'refund',
        symbol: 2,
        line: 20,
        confidence: 'exact',
        via: 'getService',
      },
    ],
  },
  {
    root: 'orders',
    path: 'src/orders.controller.ts',
    language: 'typescript',
    symbols: [
      decl('class', 'OrdersController', [2, 12]),
      decl('method', 'OrdersController.create', [3, 6], 0),
      decl('method', 'OrdersController.cancel', [8, 11], 0),
    ],
    imports: [{ source: './order.service', names: ['OrderService'], line: 1 }],
    calls: [
      { name: 'create', receiver: 'this.orders', receiverType: 'OrderService', line: 4, caller: 1 },
      { name: 'cancel', receiver: 'this.orders', receiverType: 'OrderService', line: 9, caller: 2 },
    ],
    contracts: [
      { kind: 'http_route', method: 'POST', path: '/orders', symbol: 1, line: 3, via: '@Post' },
      { kind: 'http_route', method: 'POST', path: '/orders/{id}/cancel', symbol: 2, line: 8, via: '@Post' },
    ],
  },
  {
    root: 'billing',
    path: 'src/main/java/shop/Refunds.java',
    language: 'java',
    package: 'shop',
    symbols: [decl('class', 'Refunds', [1, 20]), decl('method', 'Refunds.refundAll', [3, 8], 0)],
    contracts: [
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'refund',
        symbol: 1,
        line: 5,
        confidence: 'exact',
        via: 'stub call',
      },
    ],
  },
  {
    root: 'billing',
    path: 'src/test/java/shop/RefundsTest.java',
    language: 'java',
    package: 'shop',
    symbols: [decl('class', 'RefundsTest', [1, 9]), decl('method', 'RefundsTest.refunds', [3, 8], 0)],
    calls: [{ name: 'refundAll', receiver: 'refunds', receiverType: 'Refunds', line: 5, caller: 1 }],
  },
  {
    root: 'billing',
    path: 'src/main/kotlin/shop/Notifier.kt',
    language: 'kotlin',
    package: 'shop',
    symbols: [decl('function', 'notifyCustomer', [3, 7])],
  },
  {
    root: 'billing',
    path: 'src/main/java/shop/Stock.java',
    language: 'java',
    package: 'shop',
    symbols: [decl('class', 'Stock', [1, 10]), decl('method', 'Stock.reserveAll', [3, 6], 0)],
    contracts: [
      {
        kind: 'grpc_client',
        service: 'StockService',
        method: 'reserve',
        symbol: 1,
        line: 4,
        confidence: 'exact',
        via: 'stub call',
      },
    ],
  },
  {
    root: 'stock',
    path: 'proto/stock.proto',
    language: 'proto',
    protoServices: [
      {
        package: 'shop.stock.v1',
        name: 'StockService',
        line: 3,
        methods: [rpc('Reserve', 4, 'ReserveRequest', 'ReserveResponse')],
      },
    ],
  },
  {
    root: 'stock',
    path: 'src/StockApi.cs',
    language: 'csharp',
    package: 'Stock',
    symbols: [
      decl('class', 'StockApi', [1, 20]),
      decl('method', 'StockApi.Reserve', [3, 9], 0),
      decl('method', 'StockApi.Helper', [11, 14], 0),
    ],
    contracts: [
      {
        kind: 'grpc_server',
        service: 'StockService',
        symbol: 0,
        line: 1,
        confidence: 'exact',
        via: 'StockServiceBase',
      },
    ],
  },
];

export const buildFlowFixture = (
  workspace: string,
  operations: readonly AnyOperation<MeshServices>[],
): Fixture => buildFixture(workspace, ['orders', 'payments', 'billing', 'stock'], FLOW_SPECS, operations);
