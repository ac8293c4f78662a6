/**
 * `graph calls` and `graph neighbors` through a real SDK client (domain surface, structured output checked
 * against the schemas), on hand-written facts (test/ops/symbol-flow-fixture.ts).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../src/core/registry.js';
import { graphCalls } from '../../src/ops/graph/calls.js';
import { graphNeighbors } from '../../src/ops/graph/neighbors.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { buildFlowFixture } from './symbol-flow-fixture.js';

let client: Client;

beforeAll(async () => {
  const fixture = buildFlowFixture(mkdtempSync(path.join(os.tmpdir(), 'meshlens-graph-flow-')), [
    graphCalls,
    graphNeighbors,
  ]);
  client = await connectClient(fixture.registry as Registry, 'domain', { structuredOutput: true });
  await client.listTools();
});
afterAll(async () => client.close());

async function graph(args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'graph', arguments: args });
  return {
    text: textOf(result),
    isError: result.isError === true,
    data: result.structuredContent as Record<string, unknown>,
  };
}

/** Table rows of an answer, as written. */
const rows = (text: string): string[] => text.split('\n').filter((line) => /^\| \d+ \|/.test(line));

/** The headings of the chains of an answer. */
const chainHeadings = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('### '));

describe('graph calls', () => {
  it('from the entry points down to a declaration: one shortest chain per entry point, contract first', async () => {
    const { text, data } = await graph({ mode: 'calls', from: 'payments/ledger.go:pgLedger.record' });
    expect(text).toContain(
      '2 entry point chain(s) reach `pgLedger.record` (shortest chain from each entry point; contracts are not crossed).',
    );
    expect(chainHeadings(text)).toEqual([
      '### 1. `topic orders.created` → `pgLedger.record` (4 step(s), heuristic)',
      '### 2. `rpc shop.payment.v1.PaymentService/Refund` → `pgLedger.record` (4 step(s), heuristic)',
    ]);
    expect(rows(text).slice(5)).toEqual([
      '| 0 | `rpc shop.payment.v1.PaymentService/Refund` | `payments/proto/payment.proto:4` | — | — |',
      '| 1 | `server.Refund` | `payments/server.go:6` | implements | exact |',
      '| 2 | `Store.refund` | `payments/server.go:8` | call | exact |',
      '| 3 | `Store.transition` | `payments/store.go:27` | call | exact |',
      '| 4 | `pgLedger.record` | `payments/store.go:15` | call via Ledger.record | heuristic |',
    ]);
    expect(data).toMatchObject({
      from: 'pgLedger.record',
      to: null,
      direction: 'entry_points',
      total_chains: 2,
    });
  });

  it('between two declarations in two services: through the client call, the RPC and its implementation', async () => {
    const forward = await graph({
      mode: 'calls',
      from: 'orders/src/orders.controller.ts:OrdersController.cancel',
      to: 'payments/store.go:Store.transition',
    });
    const chain = [
      '| 0 | `OrdersController.cancel` | `orders/src/orders.controller.ts:8` | — | — |',
      '| 1 | `OrderService.cancel` | `orders/src/orders.controller.ts:9` | call | exact |',
      '| 2 | `rpc shop.payment.v1.PaymentService/Refund` | `orders/src/order.service.ts:20` | calls_rpc | exact |',
      '| 3 | `server.Refund` | `payments/server.go:6` | implements | exact |',
      '| 4 | `Store.refund` | `payments/server.go:8` | call | exact |',
      '| 5 | `Store.transition` | `payments/store.go:27` | call | exact |',
    ];
    expect(forward.text).toContain(
      '1 shortest chain(s) from `OrdersController.cancel` to `Store.transition`.',
    );
    expect(rows(forward.text)).toEqual(chain);
    const backward = await graph({
      mode: 'calls',
      from: 'payments/store.go:Store.transition',
      to: 'orders/src/orders.controller.ts:OrdersController.cancel',
    });
    expect(backward.text).toContain(
      '(`Store.transition` does not reach `OrdersController.cancel`; the other way round it does).',
    );
    expect(rows(backward.text)).toEqual(chain);
    expect(backward.data).toMatchObject({ direction: 'to_from', total_chains: 1 });
  });

  it('a declaration by line, and a bad one named by the field it came in', async () => {
    const byLine = await graph({
      mode: 'calls',
      from: 'payments/store.go:27',
      to: 'payments/store.go:Store.transition',
    });
    expect(byLine.text).toContain('1 shortest chain(s) from `Store.refund` to `Store.transition`.');
    const bad = await graph({ mode: 'calls', from: 'payments/store.go' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('`from` must be "<path>:<name>" or "<path>:<line>"');
  });

  it('too short a max_depth, or no link at all: the authoritative zero', async () => {
    const short = await graph({
      mode: 'calls',
      from: 'orders/src/orders.controller.ts:OrdersController.cancel',
      to: 'payments/store.go:Store.transition',
      max_depth: 4,
    });
    expect(short.text).toContain(
      'Exactly 0 chains of at most 4 steps between `OrdersController.cancel` and `Store.transition`, either way',
    );
    const unrelated = await graph({
      mode: 'calls',
      from: 'orders/src/orders.controller.ts:OrdersController.create',
      to: 'payments/server.go:server.Refund',
    });
    expect(unrelated.data).toMatchObject({ total_chains: 0, chains: [], next_offset: null });
  });
});

describe('graph neighbors', () => {
  it('two hops around a declaration, both ways: calls and the contract its caller implements', async () => {
    const { text } = await graph({ mode: 'neighbors', symbol: 'payments/store.go:Store.refund', depth: 2 });
    expect(rows(text)).toEqual([
      '| 1 | 1 | `Store.refund` | call | `Store.transition` | exact | `payments/store.go:27` |',
      '| 2 | 1 | `server.Refund` | call | `Store.refund` | exact | `payments/server.go:8` |',
      '| 3 | 2 | `Store.settle` | call | `Store.transition` | exact | `payments/store.go:23` |',
      '| 4 | 2 | `Store.transition` | call | `Ledger.record` | exact | `payments/store.go:15` |',
      '| 5 | 2 | `server.Refund` | implements | `rpc shop.payment.v1.PaymentService/Refund` | exact | `payments/server.go:6` |',
    ]);
  });

  it('around a contract, incoming only: its implementation and clients, then their callers; tests counted', async () => {
    const { text, data } = await graph({
      mode: 'neighbors',
      contract: 'PaymentService.Refund',
      depth: 2,
      direction: 'in',
    });
    expect(text).toContain(
      '## Neighbourhood of `rpc shop.payment.v1.PaymentService/Refund` (`payments/proto/payment.proto:4`)',
    );
    expect(rows(text)).toEqual([
      '| 1 | 1 | `OrderService.cancel` | calls_rpc | `rpc shop.payment.v1.PaymentService/Refund` | exact | `orders/src/order.service.ts:20` |',
      '| 2 | 1 | `Refunds.refundAll` | calls_rpc | `rpc shop.payment.v1.PaymentService/Refund` | exact | `billing/src/main/java/shop/Refunds.java:5` |',
      '| 3 | 1 | `server.Refund` | implements | `rpc shop.payment.v1.PaymentService/Refund` | exact | `payments/server.go:6` |',
      '| 4 | 2 | `OrdersController.cancel` | call | `OrderService.cancel` | exact | `orders/src/orders.controller.ts:9` |',
    ]);
    expect(text).toContain('1 edge(s) found in test files left out (`include_tests: true` lists them).');
    expect(data).toMatchObject({ total_edges: 4, tests_left_out: 1, next_offset: null });
    const withTests = await graph({
      mode: 'neighbors',
      contract: 'PaymentService.Refund',
      depth: 2,
      direction: 'in',
      include_tests: true,
    });
    expect(rows(withTests.text)).toContain(
      '| 5 | 2 | `RefundsTest.refunds` | call | `Refunds.refundAll` | exact | `billing/src/test/java/shop/RefundsTest.java:5` |',
    );
  });

  it('kind filters and paging', async () => {
    const first = await graph({
      mode: 'neighbors',
      symbol: 'orders/src/order.service.ts:OrderService.create',
      kinds: 'produces,serves_http,call',
      depth: 2,
      limit: 2,
    });
    expect(rows(first.text)).toEqual([
      '| 1 | 1 | `OrdersController.create` | call | `OrderService.create` | exact | `orders/src/orders.controller.ts:4` |',
      '| 2 | 1 | `OrderService.create` | produces | `topic orders.created` | exact | `orders/src/order.service.ts:10` |',
    ]);
    expect(first.text).toContain('Showing 1–2 of 3 edges. More: `offset: 2`.');
    const rest = await graph({
      mode: 'neighbors',
      symbol: 'orders/src/order.service.ts:OrderService.create',
      kinds: 'produces,serves_http,call',
      depth: 2,
      offset: 2,
    });
    expect(rows(rest.text)).toEqual([
      '| 3 | 2 | `OrdersController.create` | serves_http | `route POST /orders` | exact | `orders/src/orders.controller.ts:3` |',
    ]);
  });

  it('around a whole gRPC service: the class implementing it, whose methods serve its RPCs', async () => {
    const service = await graph({ mode: 'neighbors', contract: 'StockService' });
    expect(rows(service.text)).toEqual([
      '| 1 | 1 | `StockApi` | implements | `gRPC service shop.stock.v1.StockService` | exact | `stock/src/StockApi.cs:1` |',
    ]);
    const method = await graph({ mode: 'neighbors', contract: 'StockService.Reserve' });
    expect(rows(method.text)).toEqual([
      '| 1 | 1 | `Stock.reserveAll` | calls_rpc | `rpc shop.stock.v1.StockService/Reserve` | exact | `billing/src/main/java/shop/Stock.java:4` |',
      '| 2 | 1 | `StockApi.Reserve` | implements | `rpc shop.stock.v1.StockService/Reserve` | exact | `stock/src/StockApi.cs:1` |',
    ]);
  });

  it('refuses an unknown kind, a missing start, two starts, and an unknown contract', async () => {
    const kind = await graph({ mode: 'neighbors', contract: 'orders.created', kinds: 'calls' });
    expect(kind.isError).toBe(true);
    expect(kind.text).toContain('`kinds` must list edge kinds among `call`, `serves_http`');
    const none = await graph({ mode: 'neighbors' });
    expect(none.text).toContain('Give `symbol` (a declaration');
    const both = await graph({
      mode: 'neighbors',
      contract: 'orders.created',
      symbol: 'payments/events.go:consume',
    });
    expect(both.text).toContain(
      'Give either `symbol` (a declaration) or `contract` (a route, RPC or topic), not both.',
    );
    const unknown = await graph({ mode: 'neighbors', contract: 'GET /nowhere' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('No HTTP route, gRPC method or service, or topic named `GET /nowhere`');
  });
});
