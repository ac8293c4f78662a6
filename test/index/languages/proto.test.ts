import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractProto } from '../../../src/index/languages/proto/extract.js';
import { parseProtoSchema, type ProtoField } from '../../../src/index/languages/proto/schema.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/languages/proto');
const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');

async function facts(name: string): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: `proto/${name}`, language: 'proto', source: read(name) },
    { extractors: { proto: extractProto } },
  );
  if (outcome.kind !== 'no-grammar') throw new Error(`unexpected outcome ${JSON.stringify(outcome)}`);
  return outcome.facts;
}

describe('proto extractor', () => {
  test('payment.proto: services, rpcs, messages, enums, imports with exact lines', async () => {
    expect(await facts('payment.proto')).toEqual({
      language: 'proto',
      package: 'shop.payment.v1',
      symbols: [
        {
          id: 0,
          kind: 'grpc_service',
          name: 'PaymentService',
          qualifiedName: 'shop.payment.v1.PaymentService',
          signature: 'service PaymentService',
          startLine: 17,
          endLine: 28,
          docstring: 'Charges and refunds card payments.',
        },
        {
          id: 1,
          kind: 'grpc_method',
          name: 'ProcessPayment',
          qualifiedName: 'shop.payment.v1.PaymentService/ProcessPayment',
          signature: 'rpc ProcessPayment(ProcessPaymentRequest) returns (ProcessPaymentResponse)',
          startLine: 19,
          endLine: 24,
          docstring: 'Charges the card of an order.',
          parent: 0,
        },
        {
          id: 2,
          kind: 'grpc_method',
          name: 'RefundPayment',
          qualifiedName: 'shop.payment.v1.PaymentService/RefundPayment',
          signature: 'rpc RefundPayment(RefundRequest) returns (ProcessPaymentResponse)',
          startLine: 25,
          endLine: 25,
          parent: 0,
        },
        {
          id: 3,
          kind: 'grpc_method',
          name: 'WatchPayments',
          qualifiedName: 'shop.payment.v1.PaymentService/WatchPayments',
          signature: 'rpc WatchPayments(stream WatchRequest) returns (stream PaymentEvent)',
          startLine: 26,
          endLine: 27,
          parent: 0,
        },
        {
          id: 4,
          kind: 'proto_message',
          name: 'ProcessPaymentRequest',
          qualifiedName: 'shop.payment.v1.ProcessPaymentRequest',
          signature: 'message ProcessPaymentRequest',
          startLine: 30,
          endLine: 56,
        },
        {
          id: 5,
          kind: 'proto_message',
          name: 'LineItem',
          qualifiedName: 'shop.payment.v1.ProcessPaymentRequest.LineItem',
          signature: 'message LineItem',
          startLine: 46,
          endLine: 54,
          docstring: 'One line of the order being paid.',
          parent: 4,
        },
        {
          id: 6,
          kind: 'proto_enum',
          name: 'Kind',
          qualifiedName: 'shop.payment.v1.ProcessPaymentRequest.LineItem.Kind',
          signature: 'enum Kind',
          startLine: 49,
          endLine: 52,
          parent: 5,
        },
        {
          id: 7,
          kind: 'proto_message',
          name: 'ProcessPaymentResponse',
          qualifiedName: 'shop.payment.v1.ProcessPaymentResponse',
          signature: 'message ProcessPaymentResponse',
          startLine: 58,
          endLine: 61,
        },
        {
          id: 8,
          kind: 'proto_message',
          name: 'RefundRequest',
          qualifiedName: 'shop.payment.v1.RefundRequest',
          signature: 'message RefundRequest',
          startLine: 63,
          endLine: 63,
        },
        {
          id: 9,
          kind: 'proto_message',
          name: 'WatchRequest',
          qualifiedName: 'shop.payment.v1.WatchRequest',
          signature: 'message WatchRequest',
          startLine: 64,
          endLine: 64,
        },
        {
          id: 10,
          kind: 'proto_message',
          name: 'PaymentEvent',
          qualifiedName: 'shop.payment.v1.PaymentEvent',
          signature: 'message PaymentEvent',
          startLine: 65,
          endLine: 65,
        },
        {
          id: 11,
          kind: 'proto_enum',
          name: 'Status',
          qualifiedName: 'shop.payment.v1.Status',
          signature: 'enum Status',
          startLine: 67,
          endLine: 76,
        },
      ],
      imports: [
        { source: 'google/protobuf/timestamp.proto', line: 6 },
        { source: 'shop/common/money.proto', line: 7, reexport: true },
        { source: 'shop/legacy/flags.proto', line: 8 },
      ],
      contracts: [],
      protoServices: [
        {
          package: 'shop.payment.v1',
          name: 'PaymentService',
          line: 17,
          methods: [
            {
              name: 'ProcessPayment',
              line: 19,
              requestType: 'ProcessPaymentRequest',
              responseType: 'ProcessPaymentResponse',
              clientStreaming: false,
              serverStreaming: false,
            },
            {
              name: 'RefundPayment',
              line: 25,
              requestType: 'RefundRequest',
              responseType: 'ProcessPaymentResponse',
              clientStreaming: false,
              serverStreaming: false,
            },
            {
              name: 'WatchPayments',
              line: 26,
              requestType: 'WatchRequest',
              responseType: 'PaymentEvent',
              clientStreaming: true,
              serverStreaming: true,
            },
          ],
        },
      ],
    });
  });

  test('grpc.health.v1 is declared like any other package (filtering happens downstream)', async () => {
    const result = await facts('health.proto');
    expect(result.package).toBe('grpc.health.v1');
    expect(result.protoServices).toEqual([
      {
        package: 'grpc.health.v1',
        name: 'Health',
        line: 18,
        methods: [
          {
            name: 'Check',
            line: 19,
            requestType: 'HealthCheckRequest',
            responseType: 'HealthCheckResponse',
            clientStreaming: false,
            serverStreaming: false,
          },
          {
            name: 'Watch',
            line: 20,
            requestType: 'HealthCheckRequest',
            responseType: 'HealthCheckResponse',
            clientStreaming: false,
            serverStreaming: true,
          },
        ],
      },
    ]);
    expect(result.symbols.map((s) => [s.kind, s.qualifiedName, s.startLine, s.endLine, s.parent])).toEqual([
      ['proto_message', 'grpc.health.v1.HealthCheckRequest', 5, 7, undefined],
      ['proto_message', 'grpc.health.v1.HealthCheckResponse', 9, 16, undefined],
      ['proto_enum', 'grpc.health.v1.HealthCheckResponse.ServingStatus', 10, 14, 1],
      ['grpc_service', 'grpc.health.v1.Health', 18, 21, undefined],
      ['grpc_method', 'grpc.health.v1.Health/Check', 19, 19, 3],
      ['grpc_method', 'grpc.health.v1.Health/Watch', 20, 20, 3],
    ]);
  });

  test('declarations inside comments and option strings create nothing', async () => {
    expect(await facts('lookalikes.proto')).toEqual({
      language: 'proto',
      package: 'shop.lookalike.v1',
      symbols: [
        {
          id: 0,
          kind: 'proto_message',
          name: 'Note',
          qualifiedName: 'shop.lookalike.v1.Note',
          signature: 'message Note',
          startLine: 10,
          endLine: 16,
        },
        {
          id: 1,
          kind: 'proto_enum',
          name: 'Mode',
          qualifiedName: 'shop.lookalike.v1.Mode',
          signature: 'enum Mode',
          startLine: 18,
          endLine: 21,
        },
      ],
      imports: [],
      contracts: [],
      protoServices: [],
    });
  });

  test('a proto protobufjs rejects fails with its reason', async () => {
    const outcome = await parseFile(
      { path: 'proto/broken.proto', language: 'proto', source: read('broken.proto') },
      { extractors: { proto: extractProto } },
    );
    expect(outcome).toEqual({
      kind: 'failed',
      reason: "extractor failed: illegal id ';' (line 5)",
      timedOut: false,
    });
  });

  test('a file without package has unqualified names and no package', () => {
    const result = extractProto({
      path: 'a.proto',
      language: 'proto',
      source: 'syntax = "proto3";\nservice Echo {\n  rpc Say(Msg) returns (Msg);\n}\nmessage Msg {}\n',
    });
    expect(result.package).toBeUndefined();
    expect(result.symbols.map((s) => s.qualifiedName)).toEqual(['Echo', 'Echo/Say', 'Msg']);
    expect(result.protoServices?.[0]?.package).toBe('');
  });
});

describe('parseProtoSchema', () => {
  const field = (
    f: Partial<ProtoField> & Pick<ProtoField, 'name' | 'number' | 'type' | 'line'>,
  ): ProtoField => ({
    cardinality: 'singular',
    scalar: false,
    packed: false,
    group: false,
    ...f,
  });

  test('proto3: reserved numbers, ranges, max and names; map, oneof, optional, packing, nesting', () => {
    const schema = parseProtoSchema(read('payment.proto'));
    expect(schema.syntax).toBe('proto3');
    expect(schema.package).toBe('shop.payment.v1');
    expect(schema.imports).toEqual([
      { path: 'google/protobuf/timestamp.proto', kind: 'default', line: 6 },
      { path: 'shop/common/money.proto', kind: 'public', line: 7 },
      { path: 'shop/legacy/flags.proto', kind: 'weak', line: 8 },
    ]);
    const request = schema.messages[0];
    expect(request).toEqual({
      name: 'ProcessPaymentRequest',
      path: 'ProcessPaymentRequest',
      fullName: 'shop.payment.v1.ProcessPaymentRequest',
      startLine: 30,
      endLine: 56,
      fields: [
        field({ name: 'order_id', number: 1, type: 'string', scalar: true, line: 34 }),
        field({
          name: 'amounts_by_currency',
          number: 3,
          type: 'int64',
          keyType: 'string',
          cardinality: 'map',
          scalar: true,
          line: 35,
        }),
        field({ name: 'card_token', number: 4, type: 'string', oneof: 'instrument', scalar: true, line: 37 }),
        field({ name: 'iban', number: 5, type: 'string', oneof: 'instrument', scalar: true, line: 38 }),
        field({
          name: 'tip_cents',
          number: 6,
          type: 'int32',
          label: 'optional',
          cardinality: 'optional',
          scalar: true,
          line: 40,
        }),
        field({
          name: 'history',
          number: 7,
          type: 'Status',
          label: 'repeated',
          cardinality: 'repeated',
          options: { packed: false },
          line: 41,
        }),
        field({
          name: 'retry_delays',
          number: 8,
          type: 'int32',
          label: 'repeated',
          cardinality: 'repeated',
          scalar: true,
          packed: true,
          line: 42,
        }),
        field({
          name: 'items',
          number: 12,
          type: 'LineItem',
          label: 'repeated',
          cardinality: 'repeated',
          options: { deprecated: true },
          line: 43,
        }),
        field({ name: 'requested_at', number: 13, type: 'google.protobuf.Timestamp', line: 55 }),
      ],
      oneofs: [{ name: 'instrument', fields: ['card_token', 'iban'], line: 36 }],
      reserved: {
        ranges: [
          { start: 2, end: 2 },
          { start: 15, end: 15 },
          { start: 9, end: 11 },
          { start: 40, end: 536870911 },
        ],
        names: ['legacy_card', 'cvv'],
      },
      extensionRanges: [],
      messages: [
        {
          name: 'LineItem',
          path: 'ProcessPaymentRequest.LineItem',
          fullName: 'shop.payment.v1.ProcessPaymentRequest.LineItem',
          startLine: 46,
          endLine: 54,
          fields: [
            field({ name: 'sku', number: 1, type: 'string', scalar: true, line: 47 }),
            field({ name: 'quantity', number: 2, type: 'int32', scalar: true, line: 48 }),
            field({ name: 'kind', number: 3, type: 'Kind', line: 53 }),
          ],
          oneofs: [],
          reserved: { ranges: [], names: [] },
          extensionRanges: [],
          messages: [],
          enums: [
            {
              name: 'Kind',
              path: 'ProcessPaymentRequest.LineItem.Kind',
              fullName: 'shop.payment.v1.ProcessPaymentRequest.LineItem.Kind',
              startLine: 49,
              endLine: 52,
              allowAlias: false,
              values: [
                { name: 'KIND_UNSPECIFIED', number: 0, line: 50 },
                { name: 'KIND_GIFT', number: 1, line: 51 },
              ],
              reserved: { ranges: [], names: [] },
            },
          ],
          docstring: 'One line of the order being paid.',
        },
      ],
      enums: [],
    });
    expect(schema.messages[1]?.fields[1]).toEqual(
      field({
        name: 'first_kind',
        number: 2,
        type: '.shop.payment.v1.ProcessPaymentRequest.LineItem.Kind',
        line: 60,
      }),
    );
    expect(schema.enums).toEqual([
      {
        name: 'Status',
        path: 'Status',
        fullName: 'shop.payment.v1.Status',
        startLine: 67,
        endLine: 76,
        allowAlias: true,
        values: [
          { name: 'STATUS_UNSPECIFIED', number: 0, line: 71 },
          { name: 'STATUS_OK', number: 1, line: 72 },
          { name: 'STATUS_SETTLED', number: 1, line: 73 },
          { name: 'STATUS_FAILED', number: 2, line: 74 },
          { name: 'STATUS_NEGATIVE', number: -1, line: 75 },
        ],
        reserved: {
          ranges: [
            { start: 3, end: 5 },
            { start: 9, end: 9 },
          ],
          names: ['STATUS_LOST'],
        },
      },
    ]);
    expect(
      schema.services[0]?.methods.map((m) => [
        m.name,
        m.startLine,
        m.endLine,
        m.clientStreaming,
        m.serverStreaming,
      ]),
    ).toEqual([
      ['ProcessPayment', 19, 24, false, false],
      ['RefundPayment', 25, 25, false, false],
      ['WatchPayments', 26, 27, true, true],
    ]);
  });

  test('proto2: required, default, packing only when asked, groups, extensions, enum `to max`', () => {
    const schema = parseProtoSchema(read('legacy.proto'));
    expect(schema.syntax).toBe('proto2');
    const order = schema.messages[0];
    expect(order?.fields).toEqual([
      field({
        name: 'id',
        number: 1,
        type: 'string',
        label: 'required',
        cardinality: 'required',
        scalar: true,
        line: 5,
      }),
      field({
        name: 'priority',
        number: 2,
        type: 'int32',
        label: 'optional',
        cardinality: 'optional',
        scalar: true,
        options: { default: 5 },
        line: 6,
      }),
      field({
        name: 'codes',
        number: 3,
        type: 'int32',
        label: 'repeated',
        cardinality: 'repeated',
        scalar: true,
        line: 7,
      }),
      field({
        name: 'deltas',
        number: 4,
        type: 'sint64',
        label: 'repeated',
        cardinality: 'repeated',
        scalar: true,
        packed: true,
        options: { packed: true },
        line: 8,
      }),
      field({
        name: 'shipping',
        number: 5,
        type: 'Shipping',
        label: 'optional',
        cardinality: 'optional',
        group: true,
        line: 9,
      }),
      field({ name: 'email', number: 6, type: 'string', oneof: 'contact', scalar: true, line: 13 }),
      field({ name: 'phone', number: 7, type: 'string', oneof: 'contact', scalar: true, line: 14 }),
    ]);
    expect(order?.extensionRanges).toEqual([{ start: 100, end: 199 }]);
    expect(order?.messages.map((m) => [m.path, m.startLine, m.endLine])).toEqual([['Order.Shipping', 9, 11]]);
    const enumMax = parseProtoSchema(
      'syntax = "proto3";\nenum E {\n  reserved 1 to max;\n  E_ZERO = 0;\n}\n',
    );
    expect(enumMax.enums[0]?.reserved).toEqual({ ranges: [{ start: 1, end: 2147483647 }], names: [] });
  });

  test('editions: packed by default unless the field asks for EXPANDED', () => {
    const schema = parseProtoSchema(
      [
        'edition = "2023";',
        'package ed;',
        'message M {',
        '  repeated int32 a = 1;',
        '  repeated int32 b = 2 [features.repeated_field_encoding = EXPANDED];',
        '}',
      ].join('\n'),
    );
    expect(schema.syntax).toBe('editions');
    expect(schema.edition).toBe('2023');
    expect(schema.messages[0]?.fields.map((f) => [f.name, f.packed, f.line])).toEqual([
      ['a', true, 4],
      ['b', false, 5],
    ]);
  });
});
