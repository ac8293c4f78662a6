import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import type { Topology } from '../../src/render/topology.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

const LEDGER_PROTO = `syntax = "proto3";

package shop.ledger.v1;

service LedgerService {
  rpc Post(PostRequest) returns (PostReply);
}

message PostRequest { string order_id = 1; }
message PostReply { bool ok = 1; }
`;

const WEB_CLIENT = `import grpc

from web.gen import ledger_pb2, ledger_pb2_grpc


class LedgerClient:
    def __init__(self, target: str) -> None:
        self._stub = ledger_pb2_grpc.LedgerServiceStub(grpc.insecure_channel(target))

    def post(self, order_id: str) -> bool:
        return self._stub.Post(ledger_pb2.PostRequest(order_id=order_id)).ok
`;

async function topologyOf(workspace: string): Promise<Topology> {
  const { registry, engine } = await indexedRegistry(workspace);
  engines.push(engine);
  const client = await connectClient(registry, 'flat');
  try {
    return JSON.parse(
      textOf(await client.callTool({ name: 'visualize_mesh', arguments: { format: 'json' } })),
    ) as Topology;
  } finally {
    await client.close();
  }
}

const engines: IndexEngine[] = [];
let unimplemented: Topology;
let shop: Topology;

beforeAll(async () => {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-contracts-'));
  mkdirSync(path.join(workspace, 'protos'));
  writeFileSync(path.join(workspace, 'protos', 'ledger.proto'), LEDGER_PROTO);
  mkdirSync(path.join(workspace, 'services', 'web', 'web'), { recursive: true });
  writeFileSync(path.join(workspace, 'services', 'web', 'web', 'ledger_client.py'), WEB_CLIENT);
  writeFileSync(
    path.join(workspace, 'meshlens.toml'),
    '[workspace]\nname = "contracts-test"\nroots = ["protos", "services/*"]\n',
  );
  unimplemented = await topologyOf(workspace);
  shop = await topologyOf(EXAMPLE);
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
});

describe('visualize_mesh: contracts folders and contract locations', () => {
  it('draws a proto folder an unimplemented RPC falls back to as a contracts node, not a service', () => {
    expect(unimplemented.nodes.map((n) => [n.id, n.kind, n.label])).toEqual([
      ['s0', 'service', 'services/web'],
      ['c1', 'contracts', 'protos'],
    ]);
    expect(unimplemented.links).toEqual([
      { from: 's0', to: 'c1', kind: 'calls_rpc', weight: 2, confidence: 'heuristic' },
    ]);
    expect(unimplemented.nodes[1]?.contracts).toEqual([
      { kind: 'declares', name: 'shop.ledger.v1.LedgerService', file: 'protos/ledger.proto', line: 5 },
    ]);
  });

  it('locates every listed contract by its workspace-relative path', () => {
    const inventory = shop.nodes.find((n) => n.label === 'services/inventory');
    expect(inventory?.contracts).toEqual([
      { kind: 'consumes', name: 'payments.settled', file: 'services/inventory/src/events.rs', line: 48 },
      {
        kind: 'implements',
        name: 'shop.inventory.v1.InventoryService',
        file: 'proto/inventory.proto',
        line: 11,
      },
      {
        kind: 'implements',
        name: 'shop.inventory.v1.InventoryService/ReleaseStock',
        file: 'proto/inventory.proto',
        line: 14,
      },
      {
        kind: 'implements',
        name: 'shop.inventory.v1.InventoryService/ReserveStock',
        file: 'proto/inventory.proto',
        line: 12,
      },
      {
        kind: 'implements',
        name: 'shop.inventory.v1.InventoryService/WatchStockLevels',
        file: 'proto/inventory.proto',
        line: 16,
      },
      { kind: 'produces', name: 'stock.reserved', file: 'services/inventory/src/events.rs', line: 72 },
      { kind: 'serves', name: 'GET /stock/{sku}', file: 'services/inventory/src/http.rs', line: 19 },
    ]);
    // The proto folder is implemented by the services, so nothing links to it and it is not drawn.
    expect(shop.nodes.filter((n) => n.kind === 'contracts')).toEqual([]);
  });
});
