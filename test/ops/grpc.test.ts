import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, callTool, rpc, symbol, type Fixture } from './grpc-fixture.js';

const PAYMENT_PROTO = `syntax = "proto3";

package shop.payment.v1;

service PaymentService {
  rpc ProcessPayment(ProcessPaymentRequest) returns (ProcessPaymentResponse);
  rpc RefundPayment(RefundPaymentRequest) returns (RefundPaymentResponse);
  rpc StreamSettlements(StreamSettlementsRequest) returns (stream Settlement);
}

message ProcessPaymentRequest { string order_id = 1; }
message ProcessPaymentResponse { string payment_id = 1; }
message RefundPaymentRequest { string payment_id = 1; }
message RefundPaymentResponse { string payment_id = 1; }
message StreamSettlementsRequest { int64 since_unix_ms = 1; }
message Settlement { string payment_id = 1; }
`;

let workspace: string;
let fixture: Fixture;
let client: Client;

beforeAll(async () => {
  // A temp folder outside any git repository: the implicit wire check must be skipped, not fail.
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-grpc-'));
  fixture = buildFixture(
    workspace,
    ['proto', 'payment', 'checkout', 'events', 'admin'],
    [
      {
        root: 'proto',
        path: 'payment.proto',
        language: 'proto',
        package: 'shop.payment.v1',
        content: PAYMENT_PROTO,
        protoServices: [
          {
            package: 'shop.payment.v1',
            name: 'PaymentService',
            line: 5,
            methods: [
              rpc('ProcessPayment', 6, 'ProcessPaymentRequest', 'ProcessPaymentResponse'),
              rpc('RefundPayment', 7, 'RefundPaymentRequest', 'RefundPaymentResponse'),
              rpc('StreamSettlements', 8, 'StreamSettlementsRequest', 'Settlement', { server: true }),
            ],
          },
        ],
      },
      {
        root: 'proto',
        path: 'events.proto',
        language: 'proto',
        package: 'shop.events.v1',
        protoServices: [
          {
            package: 'shop.events.v1',
            name: 'EventService',
            line: 4,
            methods: [
              rpc('CreateEvent', 5, 'CreateEventRequest', 'Event'),
              rpc('CreateEventNode', 6, 'CreateEventNodeRequest', 'EventNode'),
            ],
          },
        ],
      },
      {
        root: 'proto',
        path: 'admin.proto',
        language: 'proto',
        package: 'shop.admin.v1',
        protoServices: [
          {
            package: 'shop.admin.v1',
            name: 'AdminService',
            line: 3,
            methods: [rpc('RefundPayment', 4, 'AdminRefundRequest', 'AdminRefundResponse')],
          },
        ],
      },
      {
        root: 'proto',
        path: 'health.proto',
        language: 'proto',
        package: 'grpc.health.v1',
        protoServices: [
          {
            package: 'grpc.health.v1',
            name: 'Health',
            line: 3,
            methods: [rpc('Check', 4, 'HealthCheckRequest', 'HealthCheckResponse')],
          },
        ],
      },
      {
        root: 'payment',
        path: 'internal/server.go',
        language: 'go',
        content: 'package internal\n',
        symbols: [symbol('paymentServer.ProcessPayment', 40), symbol('paymentServer.RefundPayment', 60)],
        contracts: [
          {
            kind: 'grpc_server',
            service: 'PaymentService',
            method: 'ProcessPayment',
            symbol: 0,
            line: 40,
            confidence: 'exact',
            via: 'paymentv1.PaymentServiceServer',
          },
          {
            kind: 'grpc_server',
            service: 'PaymentService',
            method: 'RefundPayment',
            symbol: 1,
            line: 60,
            confidence: 'exact',
            via: 'paymentv1.PaymentServiceServer',
          },
        ],
      },
      {
        root: 'payment',
        path: 'cmd/main.go',
        language: 'go',
        symbols: [symbol('main', 10, 'function')],
        contracts: [
          {
            kind: 'grpc_server',
            service: 'shop.payment.v1.PaymentService',
            symbol: 0,
            line: 22,
            confidence: 'exact',
            via: 'paymentv1.RegisterPaymentServiceServer',
          },
          {
            kind: 'grpc_server',
            service: 'grpc.health.v1.Health',
            symbol: 0,
            line: 23,
            confidence: 'exact',
            via: 'healthpb.RegisterHealthServer',
          },
        ],
      },
      {
        root: 'checkout',
        path: 'src/payment-client.ts',
        language: 'typescript',
        symbols: [symbol('PaymentClient', 5, 'class'), symbol('PaymentClient.charge', 12)],
        contracts: [
          {
            kind: 'grpc_client',
            service: 'PaymentServiceClient',
            symbol: 0,
            line: 7,
            confidence: 'exact',
            via: 'new PaymentServiceClient',
          },
          {
            kind: 'grpc_client',
            service: 'PaymentService',
            method: 'processPayment',
            symbol: 1,
            line: 14,
            confidence: 'exact',
            via: 'client.processPayment',
          },
          {
            kind: 'grpc_client',
            service: 'grpc.health.v1.Health',
            method: 'Check',
            line: 30,
            confidence: 'exact',
            via: 'health.check',
          },
        ],
      },
      {
        root: 'checkout',
        path: 'src/gateway.ts',
        language: 'typescript',
        symbols: [symbol('Gateway', 3, 'class')],
        contracts: [
          {
            kind: 'grpc_client',
            service: 'PaymentService',
            symbol: 0,
            line: 9,
            confidence: 'exact',
            via: 'getService<PaymentService>',
          },
        ],
      },
      {
        root: 'checkout',
        path: 'src/payment-client.spec.ts',
        language: 'typescript',
        contracts: [
          {
            kind: 'grpc_client',
            service: 'PaymentService',
            method: 'ProcessPayment',
            line: 18,
            confidence: 'exact',
            via: 'client.processPayment',
          },
        ],
      },
      {
        root: 'events',
        path: 'app/events.py',
        language: 'python',
        symbols: [symbol('publish', 3, 'function'), symbol('publish_node', 20, 'function')],
        contracts: [
          {
            kind: 'grpc_client',
            service: 'EventService',
            method: 'CreateEvent',
            symbol: 0,
            line: 5,
            confidence: 'exact',
            via: 'EventServiceStub.CreateEvent',
          },
          {
            kind: 'grpc_client',
            service: 'EventService',
            method: 'CreateEventNode',
            symbol: 1,
            line: 22,
            confidence: 'exact',
            via: 'EventServiceStub.CreateEventNode',
          },
        ],
      },
      {
        root: 'admin',
        path: 'Admin.java',
        language: 'java',
        symbols: [symbol('AdminImpl.refundPayment', 8)],
        contracts: [
          {
            kind: 'grpc_server',
            service: 'AdminService',
            method: 'refundPayment',
            symbol: 0,
            line: 8,
            confidence: 'exact',
            via: 'AdminServiceImplBase',
          },
        ],
      },
    ],
  );
  client = await fixture.client();
});

afterAll(async () => {
  await client?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('contracts grpc: trace', () => {
  it('traces a bare method name to its handlers, clients and service-level clients', async () => {
    const { text, isError } = await callTool(client, { target: 'ProcessPayment' });
    expect(isError).toBe(false);
    expect(text).toContain('## gRPC trace for `ProcessPayment`');
    expect(text).toContain(
      '_Matched by name (case- and `_`-insensitive). 1 server handler, 1 service registration, 1 method-level client, 1 service-level client that may call it._',
    );
    expect(text).toContain('### `shop.payment.v1.PaymentService/ProcessPayment`');
    expect(text).toContain(
      '`rpc ProcessPayment(ProcessPaymentRequest) returns (ProcessPaymentResponse)` at `proto/payment.proto:6`',
    );
    // The registration wires the handlers up; it is listed apart from them, not counted as one.
    expect(text).toContain('**Server handlers (1)**');
    expect(text).toContain('**Registers the whole service (1)**');
    expect(text).toContain(
      '- `payment/internal/server.go:40` in `paymentServer.ProcessPayment` — exact, via `paymentv1.PaymentServiceServer`, root `payment`',
    );
    expect(text).toContain(
      '- `payment/cmd/main.go:22` in `main` — exact, via `paymentv1.RegisterPaymentServiceServer`, root `payment`',
    );
    expect(text).toContain('**Clients (1)**');
    expect(text).toContain(
      '- `checkout/src/payment-client.ts:14` in `PaymentClient.charge` — exact, via `client.processPayment`, root `checkout`',
    );
    // Service-level clients are always listed and flagged; the file that also calls methods by name is not.
    expect(text).toContain(
      '**May call (1)**: service-level clients of `shop.payment.v1.PaymentService`; which methods they call was not traced, so this list is possibly incomplete.',
    );
    expect(text).toContain(
      '- `checkout/src/gateway.ts:9` in `Gateway` — heuristic, via `getService<PaymentService>`, root `checkout`',
    );
    expect(text).not.toContain('`checkout/src/payment-client.ts:7`');
    expect(text).toContain('_1 file with a service-level client left out of "May call"');
    expect(text).toContain('_1 more in test files left out; pass `include_tests: true` to list them._');
    expect(text).not.toContain('payment-client.spec.ts');
    expect(text).not.toMatch(/health/i);
    expect(text).toContain(
      'Wire check skipped for `proto/payment.proto`: the file is not inside a git repository.',
    );
  });

  it('lists test-file rows with include_tests and then counts none', async () => {
    const { text } = await callTool(client, { target: 'ProcessPayment', include_tests: true });
    expect(text).toContain('**Clients (2)**');
    expect(text).toContain(
      '- `checkout/src/payment-client.spec.ts:18` (file level) — exact, via `client.processPayment`, root `checkout`',
    );
    expect(text).not.toContain('left out; pass `include_tests: true`');
  });

  it('resolves every spelling of one method to the same contract', async () => {
    for (const target of [
      'shop.payment.v1.PaymentService/ProcessPayment',
      '/shop.payment.v1.PaymentService/ProcessPayment',
      'shop.payment.v1.PaymentService.ProcessPayment',
      'PaymentService.ProcessPayment',
      'PaymentService/ProcessPayment',
      'process_payment',
      'processpayment',
    ]) {
      const result = await fixture.call({ target });
      expect(result.isError, target).toBe(false);
      expect(result.json.status, target).toBe('traced');
      expect(result.json.scope, target).toBe('method');
      const services = result.json.services as { methods: { name: string }[] }[];
      expect(services.map((s) => s.methods.map((m) => m.name)).flat(), target).toEqual([
        'shop.payment.v1.PaymentService/ProcessPayment',
      ]);
    }
    expect((await fixture.call({ target: 'shop.payment.v1.PaymentService/ProcessPayment' })).json.match).toBe(
      'qualified',
    );
    expect((await fixture.call({ target: 'PaymentService.ProcessPayment' })).json.match).toBe('name');
  });

  it('does not trace a method whose name only contains the target, and says so (CreateEvent vs CreateEventNode)', async () => {
    const { text } = await callTool(client, { target: 'CreateEvent' });
    expect(text).toContain('### `shop.events.v1.EventService/CreateEvent`');
    expect(text).toContain('- `events/app/events.py:5` in `publish`');
    expect(text).not.toContain('events.py:22');
    expect(text).toContain(
      'Not traced: `shop.events.v1.EventService/CreateEventNode` — their names only contain `CreateEvent`; pass one as `target` to trace it.',
    );
  });

  it('lists every candidate when a name is ambiguous', async () => {
    const { text, isError } = await callTool(client, { target: 'RefundPayment' });
    expect(isError).toBe(false);
    expect(text).toContain(
      '`RefundPayment` matches 2 contracts by name; pass a qualified name to trace one:',
    );
    expect(text).toContain(
      '- method `shop.admin.v1.AdminService/RefundPayment` — `rpc RefundPayment(AdminRefundRequest) returns (AdminRefundResponse)` at `proto/admin.proto:4`',
    );
    expect(text).toContain(
      '- method `shop.payment.v1.PaymentService/RefundPayment` — `rpc RefundPayment(RefundPaymentRequest) returns (RefundPaymentResponse)` at `proto/payment.proto:7`',
    );
    expect(text).toContain('Next: `target: "shop.admin.v1.AdminService/RefundPayment"`.');
    expect(text).toContain('Wire check not run: the target is ambiguous; pass a qualified name.');
  });

  it('traces a whole service, and every service of a proto package, with streaming markers', async () => {
    const service = await callTool(client, { target: 'PaymentService' });
    expect(service.text).toContain('### Service `shop.payment.v1.PaymentService`');
    expect(service.text).toContain('Declared at `proto/payment.proto:5`; 3 methods.');
    expect(service.text).toContain('**Registers the whole service (1)**');
    expect(service.text).toContain('#### `shop.payment.v1.PaymentService/StreamSettlements`');
    expect(service.text).toContain(
      '`rpc StreamSettlements(StreamSettlementsRequest) returns (stream Settlement)`',
    );
    expect(service.text).toContain('**Clients**: exactly 0 method-level clients in the indexed roots.');

    const pkg = await fixture.call({ target: 'shop.payment.v1' });
    expect(pkg.json.match).toBe('package');
    expect((pkg.json.services as { name: string }[]).map((s) => s.name)).toEqual([
      'shop.payment.v1.PaymentService',
    ]);
    expect(pkg.text).toContain('_Matched a proto package: 1 service.');
  });

  it('falls back to substring only when no name matches exactly', async () => {
    const result = await fixture.call({ target: 'Settlements' });
    expect(result.json.match).toBe('substring');
    expect(result.text).toContain(
      'No service or method is named `Settlements` exactly; matched by substring.',
    );
    expect(result.text).toContain('### `shop.payment.v1.PaymentService/StreamSettlements`');
  });

  it('answers an authoritative zero that names what was searched and the next call', async () => {
    const { text, isError } = await callTool(client, { target: 'ShipOrder' });
    expect(isError).toBe(false);
    expect(text).toContain(
      'Exactly 0 gRPC services or methods match `ShipOrder` in the indexed roots (searched 3 services and 6 methods declared in 3 .proto files, by qualified name, by name and by substring). This is authoritative; do not re-check with grep.',
    );
    expect(text).toContain('Next: `code search` with `query: "ShipOrder"` finds declarations of any kind');
  });

  it('says the wire check did not run when an explicit base meets a target that resolves to nothing', async () => {
    const { text, isError } = await callTool(client, { target: 'ShipOrder', base: 'main' });
    expect(isError).toBe(false);
    expect(text).toContain('Wire check not run: no .proto file declares the target.');
  });

  it('never shows grpc.health.v1', async () => {
    for (const target of ['Health', 'grpc.health.v1.Health', 'grpc.health.v1', 'Check']) {
      const { text } = await callTool(client, { target });
      expect(text, target).toContain('Exactly 0 gRPC services or methods match');
    }
  });

  it('carries rows in the JSON rendering', async () => {
    const result = await fixture.call({ target: 'ProcessPayment' });
    const [service] = result.json.services as {
      name: string;
      methods: { signature: string; handlers: unknown[]; clients: unknown[] }[];
      service_handlers: unknown[];
      may_call: unknown[];
      may_call_excluded_files: string[];
    }[];
    expect(service?.name).toBe('shop.payment.v1.PaymentService');
    expect(service?.methods[0]?.signature).toBe(
      'rpc ProcessPayment(ProcessPaymentRequest) returns (ProcessPaymentResponse)',
    );
    expect(service?.methods[0]?.handlers).toEqual([
      {
        root: 'payment',
        path: 'payment/internal/server.go',
        line: 40,
        symbol: 'paymentServer.ProcessPayment',
        confidence: 'exact',
        via: 'paymentv1.PaymentServiceServer',
        level: 'method',
      },
    ]);
    expect(service?.service_handlers).toEqual([
      {
        root: 'payment',
        path: 'payment/cmd/main.go',
        line: 22,
        symbol: 'main',
        confidence: 'exact',
        via: 'paymentv1.RegisterPaymentServiceServer',
        level: 'service',
      },
    ]);
    expect(service?.may_call).toEqual([
      {
        root: 'checkout',
        path: 'checkout/src/gateway.ts',
        line: 9,
        symbol: 'Gateway',
        confidence: 'heuristic',
        via: 'getService<PaymentService>',
        level: 'service',
      },
    ]);
    expect(service?.may_call_excluded_files).toEqual(['checkout/src/payment-client.ts']);
    expect(result.json.tests_left_out).toBe(1);
    expect(result.json.wire_checks).toEqual([
      { file: 'proto/payment.proto', status: 'skipped', reason: 'the file is not inside a git repository' },
    ]);
  });

  it('traces the services a .proto file declares when given `proto`', async () => {
    const { text } = await callTool(client, { proto: 'proto/payment.proto' });
    expect(text).toContain('## gRPC trace for `proto/payment.proto`');
    expect(text).toContain('_1 service declared in `proto/payment.proto`.');
    expect(text).toContain('### Service `shop.payment.v1.PaymentService`');
  });
});

describe('contracts grpc: arguments', () => {
  it('needs exactly one of target and proto', async () => {
    const none = await callTool(client, {});
    expect(none).toEqual({
      isError: true,
      text: 'Pass `target` (a service, method or package name, e.g. "PaymentService.ProcessPayment") or `proto` (a .proto file, e.g. "proto/payment.proto").',
    });
    const both = await callTool(client, { target: 'PaymentService', proto: 'proto/payment.proto' });
    expect(both).toEqual({
      isError: true,
      text: 'Pass either `target` or `proto`, not both: `proto` already traces every service the file declares.',
    });
  });

  it('sends a .proto path given as target to `proto`', async () => {
    expect(await callTool(client, { target: 'proto/payment.proto' })).toEqual({
      isError: true,
      text: '`target` takes a contract name; for a file pass `proto: "proto/payment.proto"` instead.',
    });
  });

  it('jails `proto` and wants a .proto file', async () => {
    const outside = await callTool(client, { proto: '../../etc/passwd.proto' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('must be inside the workspace roots');
    const notProto = await callTool(client, { proto: 'payment/internal/server.go' });
    expect(notProto).toEqual({ isError: true, text: '`proto` must name a .proto file, got "server.go".' });
  });

  it('an explicit base outside a git repository is a tool error naming the file', async () => {
    const { text, isError } = await callTool(client, { target: 'ProcessPayment', base: 'main' });
    expect(isError).toBe(true);
    expect(text).toBe(
      'Wire check of `proto/payment.proto` against `main` failed: the file is not inside a git repository.',
    );
  });
});
