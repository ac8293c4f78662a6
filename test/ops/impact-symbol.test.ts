/**
 * `contracts impact --symbol` through a real SDK client, on hand-written facts (test/ops/symbol-flow-fixture.ts):
 * callers up to the entry points of the service, across the contracts to the services calling them, to a
 * depth of services, each row with the weakest confidence on its way.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractsImpact } from '../../src/ops/contracts/impact.js';
import type { Registry } from '../../src/core/registry.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { buildFlowFixture } from './symbol-flow-fixture.js';

let client: Client;

beforeAll(async () => {
  const fixture = buildFlowFixture(mkdtempSync(path.join(os.tmpdir(), 'meshlens-impact-symbol-')), [
    contractsImpact,
  ]);
  // Structured output on: the client checks every answer against the advertised output schema.
  client = await connectClient(fixture.registry as Registry, 'flat', { structuredOutput: true });
  await client.listTools();
});
afterAll(async () => client.close());

async function impact(args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'analyze_impact', arguments: args });
  return {
    text: textOf(result),
    isError: result.isError === true,
    data: result.structuredContent as Record<string, unknown>,
  };
}

const rows = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => line.replace(/^\| \d+ \| /, '| '));

const SAME_SERVICE = [
  '| 0 | same service | payments | `pgLedger.record` | `payments/ledger.go:8` | exact | target | — |',
  '| 1 | same service | payments | `Store.transition` | `payments/store.go:15` | heuristic | call via Ledger.record | — |',
  '| 2 | same service | payments | `Store.settle` | `payments/store.go:23` | heuristic | call | — |',
  '| 2 | same service | payments | `Store.refund` | `payments/store.go:27` | heuristic | call | — |',
  '| 3 | same service | payments | `consume` | `payments/events.go:9` | heuristic | call | `topic orders.created` |',
  '| 3 | same service | payments | `server.Refund` | `payments/server.go:8` | heuristic | call | `rpc shop.payment.v1.PaymentService/Refund` |',
];

const CALLING_SERVICES = [
  '| 4 | cross-service | billing | `Refunds.refundAll` | `billing/src/main/java/shop/Refunds.java:5` | heuristic | rpc shop.payment.v1.PaymentService/Refund | — |',
  '| 4 | cross-service | orders | `OrderService.create` | `orders/src/order.service.ts:10` | heuristic | topic orders.created | — |',
  '| 4 | cross-service | orders | `OrderService.cancel` | `orders/src/order.service.ts:20` | heuristic | rpc shop.payment.v1.PaymentService/Refund | — |',
  '| 5 | cross-service | orders | `OrdersController.create` | `orders/src/orders.controller.ts:4` | heuristic | call | `route POST /orders` |',
  '| 5 | cross-service | orders | `OrdersController.cancel` | `orders/src/orders.controller.ts:9` | heuristic | call | `route POST /orders/{id}/cancel` |',
];

describe('contracts impact by symbol', () => {
  it('depth 2 (the default): callers through an interface up to the entry points, then the services calling those', async () => {
    const { text } = await impact({ symbol: 'payments/ledger.go:pgLedger.record' });
    expect(text).toContain('## Impact of changing `pgLedger.record` (`payments/ledger.go:8`)');
    expect(text).toContain(
      'Service `payments` (root `payments`). Depth 2 service(s). 10 function(s) reached, 4 of them entry points, in 3 service(s).',
    );
    expect(rows(text)).toEqual([...SAME_SERVICE, ...CALLING_SERVICES]);
    expect(text).toContain(
      'Entry points at depth 2 whose callers were not followed (raise `depth`): `route POST /orders`, `route POST /orders/{id}/cancel`.',
    );
    expect(text).toContain('1 more in test files left out (`include_tests: true` lists them).');
  });

  it('depth 1 stays in the service and names the entry points it did not cross', async () => {
    const { text } = await impact({ symbol: 'payments/ledger.go:pgLedger.record', depth: 1 });
    expect(rows(text)).toEqual(SAME_SERVICE);
    expect(text).toContain(
      'not followed (raise `depth`): `rpc shop.payment.v1.PaymentService/Refund`, `topic orders.created`.',
    );
  });

  it('a direct call keeps exact confidence; test callers are listed on request', async () => {
    const { text } = await impact({ symbol: 'payments/store.go:Store.refund', include_tests: true });
    expect(rows(text)).toEqual([
      '| 0 | same service | payments | `Store.refund` | `payments/store.go:26` | exact | target | — |',
      '| 1 | same service | payments | `server.Refund` | `payments/server.go:8` | exact | call | `rpc shop.payment.v1.PaymentService/Refund` |',
      '| 2 | cross-service | billing | `Refunds.refundAll` | `billing/src/main/java/shop/Refunds.java:5` | exact | rpc shop.payment.v1.PaymentService/Refund | — |',
      '| 2 | cross-service | orders | `OrderService.cancel` | `orders/src/order.service.ts:20` | exact | rpc shop.payment.v1.PaymentService/Refund | — |',
      '| 3 | cross-service | billing | `RefundsTest.refunds` | `billing/src/test/java/shop/RefundsTest.java:5` | exact | call | — |',
      '| 3 | cross-service | orders | `OrdersController.cancel` | `orders/src/orders.controller.ts:9` | exact | call | `route POST /orders/{id}/cancel` |',
    ]);
  });

  it('an entry point itself: its own contract, then its clients', async () => {
    const { text, data } = await impact({ symbol: 'payments/events.go:consume', limit: 1 });
    expect(rows(text)).toEqual([
      '| 0 | same service | payments | `consume` | `payments/events.go:3` | exact | target | `topic orders.created` |',
    ]);
    expect(text).toContain('Showing 1–1 of 3 rows. More: `offset: 1`.');
    expect(data).toMatchObject({
      symbol: 'payments/events.go:consume',
      declaration: { name: 'consume', path: 'payments/events.go', line: 3, service: 'payments' },
      depth: 2,
      total_rows: 3,
      offset: 0,
      next_offset: 1,
      rows: [
        {
          hop: 0,
          level: 1,
          scope: 'same service',
          service: 'payments',
          function: 'consume',
          location: 'payments/events.go:3',
          confidence: 'exact',
          via: 'target',
          entry_points: ['topic orders.created'],
        },
      ],
    });
    const rest = await impact({ symbol: 'payments/events.go:consume', offset: 1 });
    expect(rows(rest.text)).toEqual([
      '| 1 | cross-service | orders | `OrderService.create` | `orders/src/order.service.ts:10` | exact | topic orders.created | — |',
      '| 2 | cross-service | orders | `OrdersController.create` | `orders/src/orders.controller.ts:4` | exact | call | `route POST /orders` |',
    ]);
  });

  it('a method of a class implementing a whole gRPC service is the entry point of the RPC of its name', async () => {
    const { text } = await impact({ symbol: 'stock/src/StockApi.cs:StockApi.Reserve' });
    expect(rows(text)).toEqual([
      '| 0 | same service | stock | `StockApi.Reserve` | `stock/src/StockApi.cs:3` | exact | target | `rpc shop.stock.v1.StockService/Reserve` |',
      '| 1 | cross-service | billing | `Stock.reserveAll` | `billing/src/main/java/shop/Stock.java:4` | exact | rpc shop.stock.v1.StockService/Reserve | — |',
    ]);
    const helper = await impact({ symbol: 'stock/src/StockApi.cs:StockApi.Helper' });
    expect(helper.text).toContain(
      'Callers of `StockApi.Helper` are unknown (see below); it is the entry point of no contract.',
    );
  });

  it('nobody calls it: the authoritative zero', async () => {
    const { text } = await impact({ symbol: 'orders/src/orders.controller.ts:OrdersController' });
    expect(text).toContain(
      'Exactly 0 callers of `OrdersController` in the call graph, and it is the entry point of no contract.',
    );
    expect(rows(text)).toEqual([]);
    const handler = await impact({ symbol: 'orders/src/orders.controller.ts:OrdersController.create' });
    expect(handler.text).toContain(
      'Exactly 0 callers of `OrdersController.create` in the call graph, and it is the entry point of `route POST /orders`, which nothing in the indexed roots calls or produces.',
    );
  });

  it('in a language whose call sites are not recorded: says so instead of an authoritative zero', async () => {
    const { text } = await impact({ symbol: 'billing/src/main/kotlin/shop/Notifier.kt:notifyCustomer' });
    expect(text).toContain(
      'No call sites are recorded for `kotlin` files: callers in them are missing from this answer.',
    );
    expect(text).not.toContain('Exactly 0');
  });

  it('target, symbol and diff are exclusive, one is required, and a bad symbol says how to name one', async () => {
    const both = await impact({ target: 'orders.created', symbol: 'payments/events.go:consume' });
    expect(both.isError).toBe(true);
    expect(both.text).toContain(
      'Give one of `target` (a contract), `symbol` (a declaration) or `diff` (a git revision), not `target` and `symbol`.',
    );
    const neither = await impact({ depth: 2 });
    expect(neither.isError).toBe(true);
    expect(neither.text).toContain(
      'Give `target` (a contract, e.g. "orders.created"), `symbol` (a declaration, e.g. "services/payment/store.go:transition") or `diff` (a git revision, e.g. "HEAD").',
    );
    const shape = await impact({ symbol: 'payments/events.go' });
    expect(shape.isError).toBe(true);
    expect(shape.text).toContain('`symbol` must be "<path>:<name>"');
    const missing = await impact({ symbol: 'payments/events.go:produce' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(
      'No declaration named `produce` in `payments/events.go`. Closest: function `consume` L3–15.',
    );
  });

  it('a contract target still works beside it, with its own default depth', async () => {
    const { text } = await impact({ target: 'orders.created' });
    expect(text).toContain('Owner root(s): `orders`. Depth 1.');
  });
});
