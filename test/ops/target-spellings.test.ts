import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

let engine: IndexEngine;
let client: Client;

beforeAll(async () => {
  const indexed = await indexedRegistry(EXAMPLE);
  engine = indexed.engine;
  client = await connectClient(indexed.registry, 'flat');
});

afterAll(async () => {
  await client.close();
  await engine.close();
});

/** How people name one gRPC method: qualified, dotted, slashed, spaced, by deployment name, in snake case. */
const SPELLINGS = [
  'shop.inventory.v1.InventoryService/ReserveStock',
  'shop.inventory.v1.InventoryService.ReserveStock',
  'InventoryService.ReserveStock',
  'InventoryService/ReserveStock',
  'InventoryService ReserveStock',
  'inventory-service ReserveStock',
  'inventoryservice reserve_stock',
];

describe('a gRPC method by any of the spellings people use', () => {
  for (const target of SPELLINGS) {
    it(`contracts grpc and contracts impact resolve "${target}"`, async () => {
      const grpc = textOf(await client.callTool({ name: 'analyze_grpc', arguments: { target } }));
      expect(grpc).toContain('### `shop.inventory.v1.InventoryService/ReserveStock`');
      const impact = textOf(await client.callTool({ name: 'analyze_impact', arguments: { target } }));
      expect(impact).toContain('Owner root(s): `services/inventory`.');
    });
  }
});
