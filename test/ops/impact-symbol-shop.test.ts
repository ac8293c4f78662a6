/**
 * `contracts impact --symbol` on examples/polyglot-shop, indexed for real: a function deep inside the Go
 * payment service reaches the Kafka consumer that is its entry point, and the TypeScript service producing
 * that topic is listed with the entry points (an RPC and a route) that reach its producer.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

let engine: IndexEngine;
let client: Client;

beforeAll(async () => {
  const indexed = await indexedRegistry();
  engine = indexed.engine;
  client = await connectClient(indexed.registry, 'flat');
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

test('a store method of the payment service: its consumer, then the service producing the topic', async () => {
  const result = await client.callTool({
    name: 'analyze_impact',
    arguments: { symbol: 'services/payment/store.go:settlementStore.settle' },
  });
  const text = textOf(result);
  expect(text).toContain(
    'Service `payment` (root `services/payment`). Depth 2 service(s). 5 function(s) reached, 3 of them entry points, in 2 service(s).',
  );
  expect(text.split('\n').filter((line) => /^\| \d+ \|/.test(line))).toEqual([
    '| 1 | 0 | same service | payment | `settlementStore.settle` | `services/payment/store.go:61` | exact | target | — |',
    '| 2 | 1 | same service | payment | `runSettlementPipeline` | `services/payment/events.go:66` | exact | call | `topic orders.created` |',
    '| 3 | 2 | same service | payment | `main` | `services/payment/main.go:51` | exact | call | — |',
    '| 4 | 2 | cross-service | order-gateway | `OrderService.createOrder` | `services/order-gateway/src/orders/order.service.ts:54` | exact | topic orders.created | — |',
    '| 5 | 3 | cross-service | order-gateway | `CheckoutGrpcController.createOrder` | `services/order-gateway/src/orders/checkout.grpc-controller.ts:45` | exact | call | `rpc shop.checkout.v1.CheckoutService/CreateOrder` |',
    '| 6 | 3 | cross-service | order-gateway | `OrdersController.create` | `services/order-gateway/src/orders/orders.controller.ts:16` | exact | call | `route POST /orders` |',
  ]);
});
