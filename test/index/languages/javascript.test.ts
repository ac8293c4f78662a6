import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { EXTRACTORS } from '../../../src/index/languages/index.js';
import { nextRoute } from '../../../src/index/languages/typescript-routes.js';
import { extractTypeScript } from '../../../src/index/languages/typescript.js';
import { languageOf } from '../../../src/index/languages/table.js';
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
  test('one extractor is registered for typescript, tsx and javascript', () => {
    expect(EXTRACTORS.typescript).toBe(extractTypeScript);
    expect(EXTRACTORS.tsx).toBe(extractTypeScript);
    expect(EXTRACTORS.javascript).toBe(extractTypeScript);
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
