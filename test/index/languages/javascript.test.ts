import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { nextRoute } from '../../../src/index/languages/typescript/routes.js';
import { extractTypeScript } from '../../../src/index/languages/typescript/extract.js';
import { extractorOf, languageOf } from '../../../src/index/languages/registry.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/typescript');
// The grammar package ships both wasm files under the names the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-typescript');
const extractors = { typescript: extractTypeScript, tsx: extractTypeScript, javascript: extractTypeScript };

/** Facts of `source` parsed as the file `file` (its extension picks the language and grammar). */
async function extractSource(source: string, file: string): Promise<FileFacts> {
  const language = languageOf(file);
  if (language === undefined) throw new Error(`${file}: not a TypeScript/JavaScript file`);
  const outcome = await parseFile({ path: file, language, source }, { grammarsDir, extractors });
  if (outcome.kind !== 'parsed') {
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  }
  return outcome.facts;
}

/** A fixture, extracted under its path relative to the fixture folder (Next.js routes depend on it). */
function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), name);
}

describe('javascript, tsx and Next.js golden fixtures', () => {
  test('server.js', async () => {
    expect(await extract('server.js')).toEqual({
      language: 'javascript',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'express',
          qualifiedName: 'express',
          signature: "const express = require('express')",
          startLine: 1,
          endLine: 1,
          exported: false,
        },
        {
          id: 1,
          kind: 'const',
          name: 'app',
          qualifiedName: 'app',
          signature: 'const app = express()',
          startLine: 5,
          endLine: 5,
          exported: true,
        },
        {
          id: 2,
          kind: 'const',
          name: 'router',
          qualifiedName: 'router',
          signature: 'const router = express.Router()',
          startLine: 6,
          endLine: 6,
          exported: false,
        },
        {
          id: 3,
          kind: 'const',
          name: 'emails',
          qualifiedName: 'emails',
          signature: "const emails = new Queue('email-jobs', {connection: {host: 'redis'}})",
          startLine: 7,
          endLine: 7,
          exported: false,
        },
        {
          id: 4,
          kind: 'function',
          name: 'getCart',
          qualifiedName: 'getCart',
          signature: 'function getCart(req, res)',
          startLine: 18,
          endLine: 20,
          exported: false,
          bodyStartLine: 19,
          bodyEndLine: 19,
        },
        {
          id: 5,
          kind: 'function',
          name: 'clearCart',
          qualifiedName: 'clearCart',
          signature: 'function clearCart(req, res)',
          startLine: 22,
          endLine: 24,
          exported: false,
          bodyStartLine: 23,
          bodyEndLine: 23,
        },
      ],
      imports: [
        { source: 'express', names: ['express'], line: 1 },
        { source: 'bullmq', names: ['Queue', 'Worker'], line: 2 },
        { source: './mail', names: ['sendMail'], line: 3 },
      ],
      contracts: [
        {
          kind: 'topic_producer',
          topic: 'email-jobs',
          symbol: 3,
          line: 7,
          confidence: 'exact',
          via: 'BullMQ Queue',
        },
        { kind: 'http_route', method: 'GET', path: '/health', line: 9, via: 'express' },
        { kind: 'http_route', method: 'POST', path: '/orders/{id}/cancel', line: 11, via: 'express' },
        { kind: 'topic_producer', topic: 'email-jobs', line: 12, confidence: 'exact', via: 'BullMQ add' },
        { kind: 'http_route', method: 'DELETE', path: '/carts/{cartId}', line: 16, via: 'express' },
        { kind: 'http_route', method: 'GET', path: '/carts/{cartId}', line: 16, via: 'express' },
        { kind: 'topic_consumer', topic: 'email-jobs', line: 28, confidence: 'exact', via: 'BullMQ Worker' },
      ],
    });
  });

  test('routes.mjs', async () => {
    expect(await extract('routes.mjs')).toEqual({
      language: 'javascript',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'fastify',
          qualifiedName: 'fastify',
          signature: 'const fastify = Fastify({logger: true})',
          startLine: 4,
          endLine: 4,
          exported: false,
        },
        {
          id: 1,
          kind: 'const',
          name: 'admin',
          qualifiedName: 'admin',
          signature: "const admin = new Router({prefix: '/admin'})",
          startLine: 14,
          endLine: 14,
          exported: false,
        },
        {
          id: 2,
          kind: 'function',
          name: 'plugin',
          qualifiedName: 'plugin',
          signature: 'async function plugin(app)',
          startLine: 20,
          endLine: 22,
          exported: true,
          bodyStartLine: 21,
          bodyEndLine: 21,
        },
      ],
      imports: [
        { source: 'fastify', names: ['Fastify'], line: 1 },
        { source: '@koa/router', names: ['Router'], line: 2 },
      ],
      contracts: [
        { kind: 'http_route', method: 'GET', path: '/products/{sku}', line: 6, via: 'fastify' },
        { kind: 'http_route', method: 'HEAD', path: '/products/{sku}', line: 6, via: 'fastify' },
        { kind: 'http_route', method: 'DELETE', path: '/products/{sku}', line: 12, via: 'fastify' },
        { kind: 'http_route', method: 'GET', path: '/admin/stats', line: 16, via: 'koa-router' },
        { kind: 'http_route', method: 'PUT', path: '/settings/{key}', symbol: 2, line: 21, via: 'fastify' },
      ],
    });
  });

  test('shipping.client.js', async () => {
    expect(await extract('shipping.client.js')).toEqual({
      language: 'javascript',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'grpc',
          qualifiedName: 'grpc',
          signature: "const grpc = require('@grpc/grpc-js')",
          startLine: 1,
          endLine: 1,
          exported: false,
        },
        {
          id: 1,
          kind: 'const',
          name: 'protoLoader',
          qualifiedName: 'protoLoader',
          signature: "const protoLoader = require('@grpc/proto-loader')",
          startLine: 2,
          endLine: 2,
          exported: false,
        },
        {
          id: 2,
          kind: 'const',
          name: 'definition',
          qualifiedName: 'definition',
          signature: "const definition = protoLoader.loadSync('proto/shipping.proto')",
          startLine: 4,
          endLine: 4,
          exported: false,
        },
        {
          id: 3,
          kind: 'const',
          name: 'shipping',
          qualifiedName: 'shipping',
          signature: 'const shipping = grpc.loadPackageDefinition(definition).shop.shipping.v1',
          startLine: 5,
          endLine: 5,
          exported: false,
        },
        {
          id: 4,
          kind: 'class',
          name: 'ShippingGateway',
          qualifiedName: 'ShippingGateway',
          signature: 'class ShippingGateway',
          startLine: 7,
          endLine: 19,
          exported: true,
        },
        {
          id: 5,
          kind: 'method',
          name: 'constructor',
          qualifiedName: 'ShippingGateway.constructor',
          signature: 'constructor(address)',
          startLine: 8,
          endLine: 10,
          parent: 4,
          bodyStartLine: 9,
          bodyEndLine: 9,
        },
        {
          id: 6,
          kind: 'method',
          name: 'quote',
          qualifiedName: 'ShippingGateway.quote',
          signature: 'quote(order, done)',
          startLine: 12,
          endLine: 14,
          parent: 4,
          bodyStartLine: 13,
          bodyEndLine: 13,
        },
        {
          id: 7,
          kind: 'method',
          name: 'track',
          qualifiedName: 'ShippingGateway.track',
          signature: 'track(id)',
          startLine: 16,
          endLine: 18,
          parent: 4,
          bodyStartLine: 17,
          bodyEndLine: 17,
        },
      ],
      imports: [
        { source: '@grpc/grpc-js', names: ['grpc'], line: 1 },
        { source: '@grpc/proto-loader', names: ['protoLoader'], line: 2 },
      ],
      contracts: [
        {
          kind: 'grpc_client',
          service: 'shop.shipping.v1.ShippingService',
          symbol: 5,
          line: 9,
          confidence: 'exact',
          via: 'loadPackageDefinition',
        },
        {
          kind: 'grpc_client',
          service: 'shop.shipping.v1.ShippingService',
          method: 'getQuote',
          symbol: 6,
          line: 13,
          confidence: 'exact',
          via: 'loadPackageDefinition',
        },
        {
          kind: 'grpc_client',
          service: 'trackingService',
          method: 'trackParcel',
          symbol: 7,
          line: 17,
          confidence: 'heuristic',
          via: 'field name',
        },
      ],
    });
  });

  test('OrderList.tsx', async () => {
    expect(await extract('OrderList.tsx')).toEqual({
      language: 'tsx',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'API',
          qualifiedName: 'API',
          signature: "const API = '/api'",
          startLine: 3,
          endLine: 3,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'OrderList',
          qualifiedName: 'OrderList',
          signature: 'function OrderList({status}: {status: string})',
          startLine: 5,
          endLine: 19,
          exported: true,
          bodyStartLine: 6,
          bodyEndLine: 18,
        },
      ],
      imports: [{ source: 'react', names: ['React', 'useEffect', 'useState'], line: 1 }],
      contracts: [
        {
          kind: 'http_call',
          method: 'GET',
          path: '/api/orders',
          symbol: 1,
          line: 8,
          confidence: 'exact',
          via: 'fetch',
        },
      ],
    });
  });

  test('pages/api/orders/[id].ts', async () => {
    expect(await extract('pages/api/orders/[id].ts')).toEqual({
      language: 'typescript',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'handler',
          qualifiedName: 'handler',
          signature: 'async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void>',
          startLine: 3,
          endLine: 6,
          exported: true,
          bodyStartLine: 4,
          bodyEndLine: 5,
        },
      ],
      imports: [{ source: 'next', names: ['NextApiRequest', 'NextApiResponse'], line: 1 }],
      contracts: [
        {
          kind: 'http_route',
          method: 'ANY',
          path: '/api/orders/{id}',
          symbol: 0,
          line: 3,
          via: 'next pages/api',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/orders/{id}',
          base: 'env:ORDERS_API',
          symbol: 0,
          line: 4,
          confidence: 'exact',
          via: 'fetch',
        },
      ],
    });
  });

  test('app/api/orders/[id]/route.ts', async () => {
    expect(await extract('app/api/orders/[id]/route.ts')).toEqual({
      language: 'typescript',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'GET',
          qualifiedName: 'GET',
          signature: 'async function GET(_request: Request, {params}: {params: {id: string}})',
          startLine: 3,
          endLine: 5,
          exported: true,
          bodyStartLine: 4,
          bodyEndLine: 4,
        },
        {
          id: 1,
          kind: 'function',
          name: 'remove',
          qualifiedName: 'remove',
          signature: 'const remove = async () =>',
          startLine: 7,
          endLine: 7,
          exported: true,
        },
        {
          id: 2,
          kind: 'function',
          name: 'helper',
          qualifiedName: 'helper',
          signature: 'function helper(): number',
          startLine: 11,
          endLine: 13,
          exported: true,
          bodyStartLine: 12,
          bodyEndLine: 12,
        },
      ],
      imports: [{ source: 'next/server', names: ['NextResponse'], line: 1 }],
      contracts: [
        {
          kind: 'http_route',
          method: 'GET',
          path: '/api/orders/{id}',
          symbol: 0,
          line: 3,
          via: 'next route handler',
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/api/orders/{id}',
          symbol: 1,
          line: 7,
          via: 'next route handler',
        },
      ],
    });
  });
});

describe('accuracy gaps: grpc-js servers, wrapped Next.js routes, URLs with no known path', () => {
  test('payment.server.js', async () => {
    expect(await extract('payment.server.js')).toEqual({
      language: 'javascript',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'grpc',
          qualifiedName: 'grpc',
          signature: "const grpc = require('@grpc/grpc-js')",
          startLine: 1,
          endLine: 1,
          exported: false,
        },
        {
          id: 1,
          kind: 'const',
          name: 'protoLoader',
          qualifiedName: 'protoLoader',
          signature: "const protoLoader = require('@grpc/proto-loader')",
          startLine: 2,
          endLine: 2,
          exported: false,
        },
        {
          id: 2,
          kind: 'const',
          name: 'health',
          qualifiedName: 'health',
          signature: "const health = require('grpc-js-health-check')",
          startLine: 3,
          endLine: 3,
          exported: false,
        },
        {
          id: 3,
          kind: 'function',
          name: 'loadProto',
          qualifiedName: 'loadProto',
          signature: 'function loadProto(file)',
          startLine: 5,
          endLine: 8,
          exported: false,
          bodyStartLine: 6,
          bodyEndLine: 7,
        },
        {
          id: 4,
          kind: 'const',
          name: 'shop',
          qualifiedName: 'shop',
          signature: "const shop = loadProto('proto/payment.proto').shop.payment.v1",
          startLine: 10,
          endLine: 10,
          exported: false,
        },
        {
          id: 5,
          kind: 'const',
          name: 'healthPkg',
          qualifiedName: 'healthPkg',
          signature: "const healthPkg = loadProto('proto/health.proto').grpc.health.v1",
          startLine: 11,
          endLine: 11,
          exported: false,
        },
        {
          id: 6,
          kind: 'function',
          name: 'charge',
          qualifiedName: 'charge',
          signature: 'async function charge(call, callback)',
          startLine: 13,
          endLine: 15,
          exported: false,
          bodyStartLine: 14,
          bodyEndLine: 14,
        },
        {
          id: 7,
          kind: 'class',
          name: 'Refunds',
          qualifiedName: 'Refunds',
          signature: 'class Refunds',
          startLine: 17,
          endLine: 21,
          exported: false,
        },
        {
          id: 8,
          kind: 'method',
          name: 'refund',
          qualifiedName: 'Refunds.refund',
          signature: 'static refund(call, callback)',
          startLine: 18,
          endLine: 20,
          parent: 7,
          bodyStartLine: 19,
          bodyEndLine: 19,
        },
        {
          id: 9,
          kind: 'function',
          name: 'main',
          qualifiedName: 'main',
          signature: 'function main()',
          startLine: 23,
          endLine: 35,
          exported: false,
          bodyStartLine: 24,
          bodyEndLine: 34,
        },
      ],
      imports: [
        { source: '@grpc/grpc-js', names: ['grpc'], line: 1 },
        { source: '@grpc/proto-loader', names: ['protoLoader'], line: 2 },
        { source: 'grpc-js-health-check', names: ['health'], line: 3 },
      ],
      // `loadProto` returns `loadPackageDefinition(…)`, so `shop` is a package: exact and qualified. Each
      // implementation key is a method, declared at its handler when the handler is declared in the file.
      // Both health registrations are filtered.
      contracts: [
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          method: 'charge',
          symbol: 6,
          line: 13,
          confidence: 'exact',
          via: 'addService',
        },
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          method: 'refund',
          symbol: 8,
          line: 18,
          confidence: 'exact',
          via: 'addService',
        },
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          symbol: 9,
          line: 25,
          confidence: 'exact',
          via: 'addService',
        },
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          method: 'capture',
          symbol: 9,
          line: 28,
          confidence: 'exact',
          via: 'addService',
        },
      ],
    });
  });

  test('inventory.server.ts', async () => {
    expect(await extract('inventory.server.ts')).toEqual({
      language: 'typescript',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'inventory',
          qualifiedName: 'inventory',
          signature:
            'const inventory: InventoryServiceServer = {reserve: (call, callback) => callback(null, {reserved: true})}',
          startLine: 5,
          endLine: 7,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'start',
          qualifiedName: 'start',
          signature: 'function start(port: number): Server',
          startLine: 9,
          endLine: 17,
          exported: true,
          bodyStartLine: 10,
          bodyEndLine: 16,
        },
      ],
      imports: [
        { source: '@grpc/grpc-js', names: ['Server', 'ServerCredentials'], line: 1 },
        {
          source: './gen/inventory_grpc_pb',
          names: ['InventoryServiceService', 'InventoryServiceServer'],
          line: 2,
        },
        { source: './gen/stock', names: ['*'], line: 3 },
      ],
      // Generated definitions: `<Service>Service` names service `<Service>`; an identifier is not an object
      // literal, so `inventory` gives no methods.
      contracts: [
        {
          kind: 'grpc_server',
          service: 'InventoryService',
          symbol: 1,
          line: 11,
          confidence: 'exact',
          via: 'addService',
        },
        {
          kind: 'grpc_server',
          service: 'StockService',
          symbol: 1,
          line: 12,
          confidence: 'exact',
          via: 'addService',
        },
        {
          kind: 'grpc_server',
          service: 'StockService',
          method: 'level',
          symbol: 1,
          line: 13,
          confidence: 'exact',
          via: 'addService',
        },
      ],
    });
  });

  test('pages/api/cart.ts: a default export wrapped in a call is still the route', async () => {
    expect(await extract('pages/api/cart.ts')).toEqual({
      language: 'typescript',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'handler',
          qualifiedName: 'handler',
          signature: 'const handler: NextApiHandler = async ({method}, res) =>',
          startLine: 4,
          endLine: 11,
          exported: false,
          bodyStartLine: 5,
          bodyEndLine: 10,
        },
      ],
      imports: [
        { source: 'next', names: ['NextApiHandler'], line: 1 },
        { source: '../../lib/telemetry', names: ['withTelemetry'], line: 2 },
      ],
      contracts: [
        { kind: 'http_route', method: 'ANY', path: '/api/cart', symbol: 0, line: 4, via: 'next pages/api' },
      ],
    });
  });

  test('http-wrappers.ts', async () => {
    expect(await extract('http-wrappers.ts')).toEqual({
      language: 'typescript',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'BILLING',
          qualifiedName: 'BILLING',
          signature: "const BILLING = 'http://billing:8080'",
          startLine: 1,
          endLine: 1,
          exported: false,
        },
        {
          id: 1,
          kind: 'function',
          name: 'request',
          qualifiedName: 'request',
          signature: 'const request = async ({url, query}: {url: string; query: string}) =>',
          startLine: 5,
          endLine: 16,
          docstring: 'A generic wrapper: nothing of the path is known here, so it calls nothing.',
          exported: true,
          bodyStartLine: 6,
          bodyEndLine: 15,
        },
        {
          id: 2,
          kind: 'function',
          name: 'placeOrder',
          qualifiedName: 'placeOrder',
          signature: 'async function placeOrder(id: string): Promise<void>',
          startLine: 18,
          endLine: 21,
          exported: true,
          bodyStartLine: 19,
          bodyEndLine: 20,
        },
      ],
      imports: [],
      // Lines 6-12 know no literal path text (a parameter, a query string only, `/` after an unknown base, an
      // env base alone, a hole after `host:port`): no call. A known base keeps `/`; a named segment after an
      // unknown base is a heuristic path; `const { X = '' } = process.env` is the env var X.
      contracts: [
        {
          kind: 'http_call',
          method: 'POST',
          path: '/',
          base: 'env:AGENT_URL',
          symbol: 1,
          line: 13,
          confidence: 'exact',
          via: 'fetch',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/orders',
          symbol: 1,
          line: 14,
          confidence: 'heuristic',
          via: 'fetch',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/',
          base: 'http://billing:8080',
          symbol: 1,
          line: 15,
          confidence: 'exact',
          via: 'fetch',
        },
        {
          kind: 'http_call',
          method: 'POST',
          path: '/orders',
          base: 'env:ORDERS_ADDR',
          symbol: 2,
          line: 19,
          confidence: 'exact',
          via: 'fetch',
        },
        {
          kind: 'http_call',
          method: 'GET',
          path: '/charges/{id}',
          base: 'env:PAYMENTS_ADDR',
          symbol: 2,
          line: 20,
          confidence: 'exact',
          via: 'fetch',
        },
      ],
    });
  });

  test('negative/servers.js: no grpc import, yaml.load, a helper returning its argument', async () => {
    const facts = await extract('negative/servers.js');
    expect(facts.contracts).toEqual([]);
    expect(facts.imports.map((i) => i.source)).toEqual(['js-yaml', './container', './logger.service']);
  });

  test('the otel-demo generic fetch wrappers (and `/${url}`) call nothing', async () => {
    const facts = await extractSource(
      [
        'const request = async ({ url = "", method = "GET", queryParams = {} }: Params) => {',
        '  const response = await fetch(`${url}?${new URLSearchParams(queryParams).toString()}`, { method });',
        '  const proxyURL = await getFrontendProxyURL();',
        '  await fetch(`${proxyURL}${url}?${new URLSearchParams(queryParams).toString()}`, { method });',
        '  await fetch(`/${url}`);',
        '  return response.json();',
        '};',
        'export default request;',
      ].join('\n'),
      'src/frontend/utils/Request.ts',
    );
    expect(facts.contracts).toEqual([]);
  });

  test('Next.js wrappers: nested, with options, inline, a factory; none outside pages/api', async () => {
    const route = async (source: string, file: string) =>
      (await extractSource(source, file)).contracts.filter((c) => c.kind === 'http_route');
    expect(
      await route(
        [
          'async function handler(req, res) { res.end(); }',
          "export default withSentry(withAuth(handler, { roles: ['admin'] }));",
        ].join('\n'),
        'web/pages/api/admin/[id].ts',
      ),
    ).toEqual([
      {
        kind: 'http_route',
        method: 'ANY',
        path: '/api/admin/{id}',
        symbol: 0,
        line: 1,
        via: 'next pages/api',
      },
    ]);
    expect(
      await route(
        [
          'import { withAuth } from "../../auth";',
          'export default withAuth(async (req, res) => res.end());',
        ].join('\n'),
        'pages/api/me.js',
      ),
    ).toEqual([{ kind: 'http_route', method: 'ANY', path: '/api/me', line: 2, via: 'next pages/api' }]);
    expect(await route('export default createHandler();', 'pages/api/health.ts')).toEqual([
      { kind: 'http_route', method: 'ANY', path: '/api/health', line: 1, via: 'next pages/api' },
    ]);
    // A page (not pages/api) wrapped in `connect(…)(…)` is no route.
    expect(
      await route(
        ['function About() { return null; }', 'export default connect(mapState)(About);'].join('\n'),
        'pages/about.tsx',
      ),
    ).toEqual([]);
  });

  test('addService: a package from grpc.load or a field; by name only when the origin is unknown', async () => {
    const facts = await extractSource(
      [
        "const grpc = require('grpc');",
        "const shop = grpc.load('demo.proto').hipstershop;",
        'const client = new shop.CurrencyService(`localhost:7000`, grpc.credentials.createInsecure());',
        'class Server {',
        '  constructor() {',
        "    this.proto = grpc.load('demo.proto').hipstershop;",
        '    this.packages = { shop: build() };',
        '  }',
        '  listen(server) {',
        '    server.addService(this.proto.CartService.service, { getCart: this.getCart });',
        '    server.addService(this.packages.shop.hipstershop.AdService.service, {});',
        '    server.addService(make().shop.EmailService.service, {});',
        '  }',
        '  getCart(call, callback) {}',
        '}',
      ].join('\n'),
      'src/server.js',
    );
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'hipstershop.CurrencyService',
        symbol: 2,
        line: 3,
        confidence: 'exact',
        via: 'grpc.load',
      },
      {
        kind: 'grpc_server',
        service: 'hipstershop.CartService',
        symbol: 5,
        line: 10,
        confidence: 'exact',
        via: 'addService',
      },
      {
        kind: 'grpc_server',
        service: 'AdService',
        symbol: 5,
        line: 11,
        confidence: 'heuristic',
        via: 'addService',
      },
      {
        kind: 'grpc_server',
        service: 'EmailService',
        symbol: 5,
        line: 12,
        confidence: 'heuristic',
        via: 'addService',
      },
      {
        kind: 'grpc_server',
        service: 'hipstershop.CartService',
        method: 'getCart',
        symbol: 6,
        line: 14,
        confidence: 'exact',
        via: 'addService',
      },
    ]);
  });
});

describe('look-alikes create nothing', () => {
  test('negative/lookalikes.ts', async () => {
    const facts = await extract('negative/lookalikes.ts');
    // Strings holding decorator text, an EventEmitter2 `emit`, an untyped injected `client.emit`, a WebSocket
    // `send`, a mailer `send` without topic/messages, topics from a parameter, an env var and a call, commented
    // producers, an S3 client and the gRPC health client.
    expect(facts.contracts).toEqual([]);
    expect(facts.imports.map((i) => i.source)).toEqual([
      '@nestjs/common',
      '@nestjs/event-emitter',
      '@aws-sdk/client-s3',
      '@grpc/grpc-js',
      './gen/grpc/health/v1/health',
    ]);
    expect(facts.symbols.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual([
      'const orderTopicName',
      'const docs',
      'class Notifier',
      'method Notifier.constructor',
      'method Notifier.notify',
      'method Notifier.topicFor',
    ]);
  });

  test('negative/lookalikes.js', async () => {
    const facts = await extract('negative/lookalikes.js');
    // `app.get('view engine')` (a setting), `Map.get` with a path, a `Queue` that is not bullmq's, calls on
    // untyped parameters, and a `HealthServiceClient` that is not imported.
    expect(facts.contracts).toEqual([]);
    expect(facts.imports).toEqual([{ source: './my-queue', names: ['Queue'], line: 1 }]);
  });

  test('a route-like string passed to a logger or a local variable is not a route or a topic', async () => {
    const facts = await extractSource(
      [
        "import { Logger } from '@nestjs/common';",
        'export function audit(logger: Logger, topic: string) {',
        '  const route = "@Get(\'/admin\')";',
        '  logger.log(route, topic);',
        "  logger.log('order-created-topic');",
        '}',
      ].join('\n'),
      'src/audit.ts',
    );
    expect(facts.contracts).toEqual([]);
  });
});

describe('behaviour', () => {
  test('one extractor is registered for typescript, tsx and javascript', async () => {
    expect(await extractorOf('typescript')).toBe(extractTypeScript);
    expect(await extractorOf('tsx')).toBe(extractTypeScript);
    expect(await extractorOf('javascript')).toBe(extractTypeScript);
  });

  test('Next.js routes come from the file path', () => {
    expect(nextRoute('web/pages/api/index.ts')).toEqual({ kind: 'pages', path: '/api' });
    expect(nextRoute('src/pages/api/users/[...slug].js')).toEqual({
      kind: 'pages',
      path: '/api/users/{slug}',
    });
    expect(nextRoute('app/(shop)/cart/[[...items]]/route.ts')).toEqual({
      kind: 'app',
      path: '/cart/{items}',
    });
    expect(nextRoute('apps/web/app/@modal/health/route.js')).toEqual({ kind: 'app', path: '/health' });
    expect(nextRoute('pages/api/_middleware.ts')).toBe(undefined);
    expect(nextRoute('pages/about.tsx')).toBe(undefined);
    expect(nextRoute('app/orders/page.tsx')).toBe(undefined);
  });

  test('a client in a test file is still extracted (tools filter tests by path)', async () => {
    const facts = await extractSource(
      [
        "import { credentials } from '@grpc/grpc-js';",
        "import { PaymentServiceClient } from '../gen/payment';",
        "it('charges', () => {",
        "  const stub = new PaymentServiceClient('localhost:50051', credentials.createInsecure());",
        '  stub.processPayment({}, () => undefined);',
        '});',
      ].join('\n'),
      'src/payment.spec.ts',
    );
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        line: 4,
        confidence: 'exact',
        via: 'new PaymentServiceClient',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'processPayment',
        line: 5,
        confidence: 'exact',
        via: 'new PaymentServiceClient',
      },
    ]);
  });

  test('a constant declared below its use still resolves', async () => {
    const facts = await extractSource(
      [
        'export async function publish(producer: Producer) {',
        '  await producer.send({ topic: Topics.SHIPPED, messages: [] });',
        '  await producer.send({ topic: LEGACY, messages: [] });',
        '}',
        "enum Topics { SHIPPED = 'order-shipped' }",
        "const LEGACY = `${'legacy'}.orders`;",
      ].join('\n'),
      'src/publish.ts',
    );
    expect(facts.contracts.map((c) => (c.kind === 'topic_producer' ? c.topic : c.kind))).toEqual([
      'order-shipped',
      'legacy.orders',
    ]);
  });

  test('getService: the string when it resolves, else the type argument, else the last identifier', async () => {
    const facts = await extractSource(
      [
        "import { PAYMENT, Names } from './tokens';",
        'export class Gateway {',
        '  constructor(private readonly grpc: ClientGrpc) {}',
        '  init() {',
        '    const a = this.grpc.getService<PaymentServiceClient>(PAYMENT);',
        '    const b = this.grpc.getService(Names.INVENTORY);',
        '    a.charge({});',
        '  }',
        '}',
      ].join('\n'),
      'src/gateway.ts',
    );
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        symbol: 2,
        line: 5,
        confidence: 'exact',
        via: 'getService',
      },
      {
        kind: 'grpc_client',
        service: 'INVENTORY',
        symbol: 2,
        line: 6,
        confidence: 'heuristic',
        via: 'getService',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'charge',
        symbol: 2,
        line: 7,
        confidence: 'exact',
        via: 'getService',
      },
    ]);
  });

  test('nice-grpc createClient is a stub of the service its definition names', async () => {
    const facts = await extractSource(
      [
        "import { createChannel, createClient } from 'nice-grpc';",
        "import { PaymentServiceDefinition } from './gen/payment';",
        "const channel = createChannel('payment:50051');",
        'export const payments = createClient(PaymentServiceDefinition, channel);',
        'export const charge = () => payments.processPayment({});',
      ].join('\n'),
      'src/payments.ts',
    );
    expect(facts.contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        symbol: 1,
        line: 4,
        confidence: 'exact',
        via: 'createClient',
      },
      {
        kind: 'grpc_client',
        service: 'PaymentService',
        method: 'processPayment',
        symbol: 2,
        line: 5,
        confidence: 'exact',
        via: 'createClient',
      },
    ]);
  });

  // Only same-file base classes are followed: the stub field below lives in `./grpc-base`.
  test.fails('a client field inherited from a base class in another file is traced', async () => {
    const facts = await extractSource(
      [
        "import { GrpcBase } from './grpc-base';",
        'export class Refunds extends GrpcBase {',
        '  refund(id: string) {',
        '    return this.payments.refundPayment({ id });',
        '  }',
        '}',
      ].join('\n'),
      'src/refunds.ts',
    );
    expect(facts.contracts).toHaveLength(1);
  });
});
