import { describe, expect, it } from 'vitest';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

describe('contracts dependents of a gRPC service', () => {
  it('lists a call that names the service and its method once, under the method', async () => {
    const ws = tempDir('meshlens-dependents-one-call-');
    writeFiles(ws, {
      'meshlens.toml': '[workspace]\nroots = ["proto", "checkout"]\n',
      'proto/pay.proto': [
        'syntax = "proto3";',
        'package shop;',
        'service PaymentService {',
        '  rpc Charge(ChargeRequest) returns (ChargeResponse);',
        '}',
        'message ChargeRequest {}',
        'message ChargeResponse {}',
        '',
      ].join('\n'),
      'checkout/go.mod': 'module checkout\n',
      'checkout/main.go': [
        'package main',
        '',
        'import pb "checkout/genproto"',
        '',
        'func chargeCard(conn *grpc.ClientConn) error {',
        '\t_, err := pb.NewPaymentServiceClient(conn).Charge(ctx, &pb.ChargeRequest{})',
        '\treturn err',
        '}',
        '',
      ].join('\n'),
    });
    const { registry, engine } = await indexedRegistry(ws);
    const client = await connectClient(registry, 'flat');
    try {
      const text = textOf(
        await client.callTool({ name: 'find_dependents', arguments: { target: 'PaymentService' } }),
      );
      const rows = text.split('\n').filter((line) => /^\d+\. /.test(line));
      expect(rows).toEqual([
        '1. `chargeCard` — `checkout/main.go:6` via calls_rpc shop.PaymentService/Charge',
      ]);
    } finally {
      await client.close();
      await engine.close();
      removeTemps();
    }
  });
});
