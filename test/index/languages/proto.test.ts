// The facts of each .proto file are golden cases (test/golden/proto); this file keeps the failure outcome and
// the schema reader, whose output is not part of the facts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { extractProto } from '../../../src/index/languages/proto/extract.js';
import { parseProtoSchema, type ProtoField } from '../../../src/index/languages/proto/schema.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (name: string): string =>
  readFileSync(path.join(root, 'test/fixtures/languages/proto', name), 'utf8');
const golden = (file: string): string => readFileSync(path.join(root, 'test/golden/proto', file), 'utf8');

test('a proto protobufjs rejects fails with its reason', async () => {
  const outcome = await parseFile(
    { path: 'proto/broken.proto', language: 'proto', source: fixture('broken.proto') },
    { extractors: { proto: extractProto } },
  );
  expect(outcome).toEqual({
    kind: 'failed',
    reason: "extractor failed: illegal id ';' (line 5)",
    timedOut: false,
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
    const schema = parseProtoSchema(golden('services-messages-and-enums/proto/payment.proto'));
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
    const schema = parseProtoSchema(golden('proto2-groups-and-extensions/proto/legacy.proto'));
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
