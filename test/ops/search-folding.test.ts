import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const PROTO =
  'syntax = "proto3";\npackage demo;\nservice CartService {\n  rpc AddItem(AddItemRequest) returns (Empty);\n}\nmessage AddItemRequest { string id = 1; }\nmessage Empty {}\n';
const GENERATED =
  'import grpc\n\n\nclass CartServiceStub(object):\n    pass\n\n\nclass CartService(object):\n    pass\n';
const HAND_WRITTEN = 'class CartService:\n    def add_item(self, request):\n        return None\n';

describe('code search: identical copies folded, generated code after hand-written', () => {
  it('lists one proto for three identical copies, naming the copies, and the generated stub last', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'meshlens-search-fold-'));
    for (const service of ['cart', 'checkout', 'frontend']) {
      mkdirSync(path.join(ws, 'services', service, 'protos'), { recursive: true });
      writeFileSync(path.join(ws, 'services', service, 'protos', 'demo.proto'), PROTO);
    }
    writeFileSync(path.join(ws, 'services', 'cart', 'demo_pb2_grpc.py'), GENERATED);
    writeFileSync(path.join(ws, 'services', 'cart', 'server.py'), HAND_WRITTEN);
    writeFileSync(path.join(ws, 'meshlens.toml'), '[workspace]\nroots = ["services/*"]\n');
    const { registry, engine } = await indexedRegistry(ws);
    const client = await connectClient(registry, 'flat');
    try {
      const result = await client.callTool({
        name: 'smart_search',
        arguments: { query: 'CartService', limit: 10 },
      });
      const text = textOf(result);
      const files = [...text.matchAll(/^### \[\d+\] `([^`]+)`/gm)].map((m) => m[1]);
      expect(files.filter((f) => f?.endsWith('demo.proto'))).toHaveLength(1);
      expect(text).toContain(
        'Identical copies: `services/checkout/protos/demo.proto`, `services/frontend/protos/demo.proto`.',
      );
      expect(files.at(-1)).toBe('services/cart/demo_pb2_grpc.py');
      expect(files).toContain('services/cart/server.py');
      expect(files.indexOf('services/cart/server.py')).toBeLessThan(
        files.indexOf('services/cart/demo_pb2_grpc.py'),
      );
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
