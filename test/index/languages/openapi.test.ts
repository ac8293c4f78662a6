import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts, LanguageId } from '../../../src/index/facts.js';
import { extractOpenApi } from '../../../src/index/languages/openapi/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/languages/openapi');
const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
const extractors = { openapi: extractOpenApi, asyncapi: extractOpenApi };

async function facts(name: string, language: LanguageId): Promise<FileFacts> {
  const outcome = await parseFile({ path: `api/${name}`, language, source: read(name) }, { extractors });
  if (outcome.kind !== 'no-grammar') throw new Error(`unexpected outcome ${JSON.stringify(outcome)}`);
  return outcome.facts;
}

describe('OpenAPI', () => {
  test('openapi.yaml: one route and endpoint per operation; servers, x- keys and text ignored', async () => {
    expect(await facts('openapi.yaml', 'openapi')).toEqual({
      language: 'openapi',
      symbols: [
        {
          id: 0,
          kind: 'http_endpoint',
          name: 'GET /orders',
          qualifiedName: 'listOrders',
          signature: 'GET /orders',
          startLine: 14,
          endLine: 19,
          docstring: 'List orders',
        },
        {
          id: 1,
          kind: 'http_endpoint',
          name: 'POST /orders',
          qualifiedName: 'createOrder',
          signature: 'POST /orders',
          startLine: 20,
          endLine: 26,
          docstring: 'Create an order\n\nStarts checkout.',
        },
        {
          id: 2,
          kind: 'http_endpoint',
          name: 'GET /orders/{id}',
          qualifiedName: 'GET /orders/{id}',
          signature: 'GET /orders/{id}',
          startLine: 34,
          endLine: 37,
        },
        {
          id: 3,
          kind: 'http_endpoint',
          name: 'DELETE /orders/{id}',
          qualifiedName: 'cancelOrder',
          signature: 'DELETE /orders/{id}',
          startLine: 38,
          endLine: 42,
        },
      ],
      imports: [],
      contracts: [
        { kind: 'http_route', method: 'GET', path: '/orders', symbol: 0, line: 14, via: 'openapi' },
        { kind: 'http_route', method: 'POST', path: '/orders', symbol: 1, line: 20, via: 'openapi' },
        { kind: 'http_route', method: 'GET', path: '/orders/{id}', symbol: 2, line: 34, via: 'openapi' },
        { kind: 'http_route', method: 'DELETE', path: '/orders/{id}', symbol: 3, line: 38, via: 'openapi' },
      ],
    });
  });

  test('a JSON spec (tab-indented, upper-case method key) has real lines too', async () => {
    expect(await facts('orders.openapi.json', 'openapi')).toEqual({
      language: 'openapi',
      symbols: [
        {
          id: 0,
          kind: 'http_endpoint',
          name: 'PUT /v2/orders/{orderId}/items',
          qualifiedName: 'replaceItems',
          signature: 'PUT /v2/orders/{orderId}/items',
          startLine: 6,
          endLine: 9,
        },
        {
          id: 1,
          kind: 'http_endpoint',
          name: 'PATCH /v2/orders/{orderId}/items',
          qualifiedName: 'PATCH /v2/orders/{orderId}/items',
          signature: 'PATCH /v2/orders/{orderId}/items',
          startLine: 10,
          endLine: 10,
        },
      ],
      imports: [],
      contracts: [
        {
          kind: 'http_route',
          method: 'PUT',
          path: '/v2/orders/{orderId}/items',
          symbol: 0,
          line: 6,
          via: 'openapi',
        },
        {
          kind: 'http_route',
          method: 'PATCH',
          path: '/v2/orders/{orderId}/items',
          symbol: 1,
          line: 10,
          via: 'openapi',
        },
      ],
    });
  });

  test('a YAML string that contains `paths:` creates no route', () => {
    const source =
      'openapi: 3.0.0\ninfo:\n  description: "paths:\\n  /x:\\n    get: {}"\n  title: |\n    paths:\n      /y:\n        get: {}\n';
    expect(extractOpenApi({ path: 'openapi.yaml', language: 'openapi', source })).toEqual({
      language: 'openapi',
      symbols: [],
      imports: [],
      contracts: [],
    });
  });

  test('invalid YAML fails the file with the parser reason', async () => {
    const outcome = await parseFile(
      { path: 'api/openapi-broken.yaml', language: 'openapi', source: read('openapi-broken.yaml') },
      { extractors },
    );
    expect(outcome.kind).toBe('failed');
    if (outcome.kind === 'failed')
      expect(outcome.reason).toMatch(/^extractor failed: invalid openapi document: /);
  });

  test('an alias bomb is never expanded: fast, and the routes are still found', async () => {
    const started = performance.now();
    const result = await facts('openapi-bomb.yaml', 'openapi');
    expect(performance.now() - started).toBeLessThan(500);
    expect(result.contracts).toEqual([
      { kind: 'http_route', method: 'GET', path: '/ping', symbol: 0, line: 14, via: 'openapi' },
    ]);
  });

  test('merge keys that multiply exhaust the walk budget instead of memory', () => {
    const levels = ['a: &a {k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8}'];
    for (let i = 1; i < 12; i += 1) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} {<<: [${Array(8).fill(`*${prev}`).join(', ')}]}`);
    }
    const source = `openapi: 3.0.0\n${levels.join('\n')}\n<<: *l\npaths: {}\n`;
    const started = performance.now();
    expect(() => extractOpenApi({ path: 'openapi.yaml', language: 'openapi', source })).toThrow(/budget/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('AsyncAPI', () => {
  test('2.x: subscribe = the application produces, publish = it consumes; kafka binding topic; topics list', async () => {
    expect(await facts('asyncapi.yaml', 'asyncapi')).toEqual({
      language: 'asyncapi',
      symbols: [
        {
          id: 0,
          kind: 'topic',
          name: 'order-created-topic',
          qualifiedName: 'order-created-topic',
          signature: 'channel order-created-topic',
          startLine: 6,
          endLine: 10,
          docstring: 'An order was placed.',
        },
        {
          id: 1,
          kind: 'topic',
          name: 'payment-settled-topic',
          qualifiedName: 'payment-settled-topic',
          signature: 'channel payment-settled-topic',
          startLine: 11,
          endLine: 14,
        },
        {
          id: 2,
          kind: 'topic',
          name: 'shop.audit.v1',
          qualifiedName: 'audit',
          signature: 'channel audit',
          startLine: 15,
          endLine: 21,
        },
        {
          id: 3,
          kind: 'topic',
          name: 'invoice-generated-topic',
          qualifiedName: 'invoice-generated-topic',
          signature: 'topic invoice-generated-topic',
          startLine: 23,
          endLine: 23,
        },
        {
          id: 4,
          kind: 'topic',
          name: 'dead-letters',
          qualifiedName: 'dead-letters',
          signature: 'topic dead-letters',
          startLine: 24,
          endLine: 24,
        },
      ],
      imports: [],
      contracts: [
        {
          kind: 'topic_producer',
          topic: 'order-created-topic',
          symbol: 0,
          line: 8,
          confidence: 'exact',
          via: 'asyncapi subscribe',
        },
        {
          kind: 'topic_consumer',
          topic: 'payment-settled-topic',
          symbol: 1,
          line: 12,
          confidence: 'exact',
          via: 'asyncapi publish',
        },
        {
          kind: 'topic_producer',
          topic: 'shop.audit.v1',
          symbol: 2,
          line: 19,
          confidence: 'exact',
          via: 'asyncapi subscribe',
        },
      ],
    });
  });

  test('3.x: operations send/receive through channel refs; null address and dangling refs yield nothing', async () => {
    expect(await facts('asyncapi-v3.yaml', 'asyncapi')).toEqual({
      language: 'asyncapi',
      symbols: [
        {
          id: 0,
          kind: 'topic',
          name: 'payment-settled-topic',
          qualifiedName: 'paymentSettled',
          signature: 'channel paymentSettled: payment-settled-topic',
          startLine: 6,
          endLine: 11,
        },
        {
          id: 1,
          kind: 'topic',
          name: 'user/{userId}/signup',
          qualifiedName: 'userSignup',
          signature: 'channel userSignup: user/{userId}/signup',
          startLine: 12,
          endLine: 13,
        },
      ],
      imports: [],
      contracts: [
        {
          kind: 'topic_producer',
          topic: 'payment-settled-topic',
          line: 17,
          confidence: 'exact',
          via: 'asyncapi send',
        },
        {
          kind: 'topic_consumer',
          topic: 'user/{userId}/signup',
          line: 21,
          confidence: 'exact',
          via: 'asyncapi receive',
        },
      ],
    });
  });
});
