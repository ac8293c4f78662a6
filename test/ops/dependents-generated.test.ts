import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const GENERATED = [
  'import grpc',
  '',
  'class CartServiceStub(object):',
  '    pass',
  '',
  'class PaymentServiceStub(object):',
  '    pass',
  '',
  'class PaymentService(object):',
  '    pass',
  '',
].join('\n');

describe('contracts dependents through a generated module', () => {
  it('counts an importer of the module that holds every service only for the service it uses', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'meshlens-dependents-generated-'));
    for (const dir of ['gen', 'cart', 'pay']) mkdirSync(path.join(ws, dir));
    writeFileSync(path.join(ws, 'gen', 'demo_pb2_grpc.py'), GENERATED);
    writeFileSync(
      path.join(ws, 'cart', 'server.py'),
      'from gen import demo_pb2_grpc\n\nstub = demo_pb2_grpc.CartServiceStub(None)\n',
    );
    writeFileSync(
      path.join(ws, 'pay', 'client.py'),
      'from gen import demo_pb2_grpc\n\nstub = demo_pb2_grpc.PaymentServiceStub(None)\n',
    );
    writeFileSync(path.join(ws, 'meshlens.toml'), '[workspace]\nroots = ["."]\n');
    const { registry, engine } = await indexedRegistry(ws);
    const client = await connectClient(registry, 'flat');
    try {
      const payment = textOf(
        await client.callTool({ name: 'find_dependents', arguments: { target: 'PaymentService' } }),
      );
      expect(payment).toContain('`pay/client.py:1` via import gen');
      expect(payment).not.toContain('cart/server.py');
      const cart = textOf(
        await client.callTool({ name: 'find_dependents', arguments: { target: 'CartServiceStub' } }),
      );
      expect(cart).toContain('`cart/server.py:1` via import gen');
      expect(cart).not.toContain('pay/client.py');
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
