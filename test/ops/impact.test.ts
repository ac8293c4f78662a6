import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

let client: Client;
let engine: IndexEngine;

beforeAll(async () => {
  const indexed = await indexedRegistry();
  engine = indexed.engine;
  client = await connectClient(indexed.registry, 'flat');
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

async function impact(args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name: 'analyze_impact', arguments: args });
  return { text: textOf(result), isError: result.isError === true };
}

/** The table rows of an answer, without the row number. */
const rows = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => line.replace(/^\| \d+ \| /, '| '));

describe('analyze_impact on examples/polyglot-shop', () => {
  it('an RPC: the method-level client outside, the handlers inside, no noise from clients traced to other methods', async () => {
    const { text } = await impact({ target: 'PaymentService.ProcessPayment' });
    expect(text).toContain(
      '## Impact of gRPC method `shop.payment.v1.PaymentService/ProcessPayment` (`proto/payment.proto:13`)',
    );
    expect(text).toContain('Owner root(s): `services/payment`. Depth 1.');
    expect(rows(text)).toEqual([
      '| EXTERNAL | client | `OrderService.createOrder` | services/order-gateway | `services/order-gateway/src/orders/order.service.ts:39` | exact | PaymentService.ProcessPayment |',
      '| INTERNAL | handler | `main` | services/payment | `services/payment/main.go:38` | exact | PaymentService |',
      '| INTERNAL | handler | `server` | services/payment | `services/payment/server.go:15` | exact | PaymentService |',
      '| INTERNAL | handler | `server.ProcessPayment` | services/payment | `services/payment/server.go:20` | exact | PaymentService.ProcessPayment |',
    ]);
  });

  it('an RPC no service invokes: its handlers only (the stub payment constructs is no caller), test files counted', async () => {
    const { text } = await impact({ target: 'InventoryService.ReserveStock' });
    expect(text).toContain('Owner root(s): `services/inventory`. Depth 1.');
    expect(rows(text)).toEqual([
      '| INTERNAL | handler | `InventoryApi::reserve_stock` | services/inventory | `services/inventory/src/grpc.rs:29` | exact | InventoryService.ReserveStock |',
      '| INTERNAL | handler | `main` | services/inventory | `services/inventory/src/main.rs:39` | exact | InventoryService |',
    ]);
    expect(text).toContain('3 more in test files left out (`include_tests: true` lists them).');
    const withTests = await impact({ target: 'InventoryService.ReserveStock', include_tests: true });
    expect(rows(withTests.text)).toHaveLength(5);
  });

  it('a topic at depth 1: its producer, the topic hub and its consumers', async () => {
    const { text } = await impact({ target: 'orders.created' });
    expect(text).toContain('Owner root(s): `services/order-gateway`. Depth 1.');
    expect(rows(text)).toEqual([
      '| INTERNAL | producer | `OrderService.createOrder` | services/order-gateway | `services/order-gateway/src/orders/order.service.ts:54` | exact | orders.created |',
      '| EXTERNAL | topic | `orders.created` | — | `—` | exact | orders.created |',
      '| EXTERNAL | consumer | `InvoicingSaga.onOrderCreated` | services/billing | `services/billing/src/main/java/shop/billing/InvoicingSaga.java:59` | exact | orders.created |',
      '| EXTERNAL | consumer | `runSettlementPipeline` | services/payment | `services/payment/events.go:43` | exact | orders.created |',
    ]);
  });

  it('a topic at depth 3 follows every re-emission, hop by hop, with no row twice', async () => {
    const { text } = await impact({ target: 'orders.created', depth: 3 });
    expect(rows(text)).toEqual([
      '| 1 | INTERNAL | producer | `OrderService.createOrder` | services/order-gateway | `services/order-gateway/src/orders/order.service.ts:54` | exact | orders.created |',
      '| 1 | EXTERNAL | topic | `orders.created` | — | `—` | exact | orders.created |',
      '| 1 | EXTERNAL | consumer | `InvoicingSaga.onOrderCreated` | services/billing | `services/billing/src/main/java/shop/billing/InvoicingSaga.java:59` | exact | orders.created |',
      '| 1 | EXTERNAL | consumer | `runSettlementPipeline` | services/payment | `services/payment/events.go:43` | exact | orders.created |',
      '| 2 | EXTERNAL | producer | `InvoicingSaga.onOrderCreated` | services/billing | `services/billing/src/main/java/shop/billing/InvoicingSaga.java:71` | exact | invoices.issued |',
      '| 2 | EXTERNAL | producer | `runSettlementPipeline` | services/payment | `services/payment/events.go:74` | exact | payments.settled |',
      '| 2 | EXTERNAL | topic | `invoices.issued` | — | `—` | exact | invoices.issued |',
      '| 2 | EXTERNAL | topic | `payments.settled` | — | `—` | exact | payments.settled |',
      '| 2 | EXTERNAL | consumer | `InvoiceConsumer.Consume` | services/accounting | `services/accounting/InvoiceConsumer.cs:36` | exact | invoices.issued |',
      '| 2 | EXTERNAL | consumer | `run` | services/inventory | `services/inventory/src/events.rs:48` | exact | payments.settled |',
      '| 3 | EXTERNAL | producer | `run` | services/inventory | `services/inventory/src/events.rs:72` | exact | stock.reserved |',
      '| 3 | EXTERNAL | topic | `stock.reserved` | — | `—` | exact | stock.reserved |',
      '| 3 | EXTERNAL | consumer | `NotificationListener.onStockReserved` | services/notification | `services/notification/src/main/kotlin/shop/notification/NotificationListener.kt:23` | exact | stock.reserved |',
      '| 3 | EXTERNAL | consumer | `run_stock_consumer` | services/shipping | `services/shipping/shipping/stock_consumer.py:36` | exact | stock.reserved |',
    ]);
    expect(new Set(rows(text)).size).toBe(14);
  });

  it('paging through the footer covers every row exactly once, and past the end says so', async () => {
    const all = rows((await impact({ target: 'orders.created', depth: 3 })).text);
    const seen: string[] = [];
    let offset = 0;
    for (let page = 0; page < 10; page++) {
      const { text } = await impact({ target: 'orders.created', depth: 3, limit: 4, offset });
      seen.push(...rows(text));
      const next = /More: `offset: (\d+)`/.exec(text)?.[1];
      if (!next) {
        expect(text).toContain('This is the last page.');
        break;
      }
      offset = Number(next);
    }
    expect(seen).toEqual(all);
    const past = await impact({ target: 'orders.created', depth: 3, limit: 4, offset: 100 });
    expect(past.isError).toBe(false);
    expect(past.text).toContain(
      'No rows at `offset: 100`: there are 14 in total. Request `offset: 10` for the last ones.',
    );
  });

  it('answers a topic spelled with other separators, and says plainly when nothing matches', async () => {
    const { text } = await impact({ target: 'ORDERS_CREATED' });
    expect(rows(text)).toHaveLength(4);
    const none = await impact({ target: 'no.such.topic' });
    expect(none.text).toContain(
      'Exactly 0 gRPC methods, services, topics or HTTP routes named `no.such.topic` in the indexed roots',
    );
  });

  it('gives a byte-identical answer for the same call on the same snapshot', async () => {
    const first = await impact({ target: 'orders.created', depth: 3 });
    const second = await impact({ target: 'orders.created', depth: 3 });
    expect(second.text).toBe(first.text);
  });

  it('refuses bad arguments with the exact reason', async () => {
    expect(await impact({ target: 'orders.created', depth: 6 })).toEqual({
      isError: true,
      text: '`analyze_impact`: `depth` must be between 1 and 5, got 6.',
    });
    expect(await impact({ target: 'orders.created', dept: 2 })).toEqual({
      isError: true,
      text: '`analyze_impact` has no field `dept`. Did you mean `depth`? Accepted fields: `target`, `symbol`, `diff`, `depth`, `routing_key`, `include_tests`, `limit`, `offset`.',
    });
    expect(await impact({})).toMatchObject({ isError: true });
  });
});

describe('analyze_impact by symbol and trace_calls on examples/polyglot-shop', () => {
  it('a function deep inside payment: the entry points reaching it, the services calling those, with file:line', async () => {
    const { text } = await impact({ symbol: 'services/payment/store.go:transition' });
    expect(text).toContain(
      '## Impact of changing `settlementStore.transition` (`services/payment/store.go:70`)',
    );
    expect(rows(text)).toEqual([
      '| 0 | same service | payment | `settlementStore.transition` | `services/payment/store.go:70` | exact | target | — |',
      '| 1 | same service | payment | `settlementStore.settle` | `services/payment/store.go:62` | exact | call | — |',
      '| 1 | same service | payment | `settlementStore.refund` | `services/payment/store.go:66` | exact | call | — |',
      '| 2 | same service | payment | `runSettlementPipeline` | `services/payment/events.go:66` | exact | call | `topic orders.created` |',
      '| 2 | same service | payment | `server.RefundPayment` | `services/payment/server.go:44` | exact | call | `rpc shop.payment.v1.PaymentService/RefundPayment` |',
      '| 3 | same service | payment | `main` | `services/payment/main.go:51` | exact | call | — |',
      '| 3 | cross-service | billing | `InvoicingSaga.compensate` | `services/billing/src/main/java/shop/billing/InvoicingSaga.java:78` | exact | rpc shop.payment.v1.PaymentService/RefundPayment | — |',
      '| 3 | cross-service | order-gateway | `OrderService.createOrder` | `services/order-gateway/src/orders/order.service.ts:54` | exact | topic orders.created | — |',
      '| 4 | cross-service | billing | `InvoicingSaga.onOrderCreated` | `services/billing/src/main/java/shop/billing/InvoicingSaga.java:66` | exact | call | `topic orders.created` |',
      '| 4 | cross-service | order-gateway | `CheckoutGrpcController.createOrder` | `services/order-gateway/src/orders/checkout.grpc-controller.ts:45` | exact | call | `rpc shop.checkout.v1.CheckoutService/CreateOrder` |',
      '| 4 | cross-service | order-gateway | `OrdersController.create` | `services/order-gateway/src/orders/orders.controller.ts:16` | exact | call | `route POST /orders` |',
    ]);
    expect(text).toContain('1 more in test files left out (`include_tests: true` lists them).');
  });

  it('trace_calls: from an order-gateway route handler across the topic down to the payment function', async () => {
    const result = await client.callTool({
      name: 'trace_calls',
      arguments: {
        from: 'services/order-gateway/src/orders/orders.controller.ts:OrdersController.create',
        to: 'services/payment/store.go:transition',
      },
    });
    expect(rows(textOf(result))).toEqual([
      '| `OrdersController.create` | `services/order-gateway/src/orders/orders.controller.ts:15` | — | — |',
      '| `OrderService.createOrder` | `services/order-gateway/src/orders/orders.controller.ts:16` | call | exact |',
      '| `topic orders.created` | `services/order-gateway/src/orders/order.service.ts:54` | produces | exact |',
      '| `runSettlementPipeline` | `services/payment/events.go:43` | consumes | exact |',
      '| `settlementStore.settle` | `services/payment/events.go:66` | call | exact |',
      '| `settlementStore.transition` | `services/payment/store.go:62` | call | exact |',
    ]);
  });
});
