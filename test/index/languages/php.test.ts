import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractPhp } from '../../../src/index/languages/php/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/php');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-php');

async function extractSource(source: string, file = 'Inline.php'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'php', source },
    { grammarsDir, extractors: { php: extractPhp } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/php/${name}`);
}

describe('php golden fixtures', () => {
  test('OrderController.php', async () => {
    const facts = await extract('OrderController.php');
    expect(facts.package).toBe('App\\Http\\Controllers');
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'OrderController',
        qualifiedName: 'OrderController',
        signature: 'final class OrderController extends Controller implements HasOrders',
        startLine: 18,
        endLine: 35,
        docstring: 'Orders for the storefront.\n\n@package App\\Http\\Controllers',
        decorators: ["#[Controller(prefix: 'orders')]"],
      },
      {
        id: 1,
        kind: 'const',
        name: 'PAGE_SIZE',
        qualifiedName: 'OrderController.PAGE_SIZE',
        signature: 'public const PAGE_SIZE = 25',
        startLine: 21,
        endLine: 21,
        parent: 0,
      },
      {
        id: 2,
        kind: 'method',
        name: 'show',
        qualifiedName: 'OrderController.show',
        signature: 'public function show(int $id): JsonResponse',
        startLine: 28,
        endLine: 32,
        docstring: 'Shows one order.',
        parent: 0,
        bodyStartLine: 30,
        bodyEndLine: 31,
      },
      {
        id: 3,
        kind: 'method',
        name: 'audit',
        qualifiedName: 'OrderController.audit',
        signature: 'abstract protected function audit(Order $order): void',
        startLine: 34,
        endLine: 34,
        parent: 0,
      },
      {
        id: 4,
        kind: 'interface',
        name: 'HasOrders',
        qualifiedName: 'HasOrders',
        signature: 'interface HasOrders',
        startLine: 37,
        endLine: 40,
      },
      {
        id: 5,
        kind: 'method',
        name: 'show',
        qualifiedName: 'HasOrders.show',
        signature: 'public function show(int $id): JsonResponse',
        startLine: 39,
        endLine: 39,
        parent: 4,
      },
      {
        id: 6,
        kind: 'trait',
        name: 'Paginates',
        qualifiedName: 'Paginates',
        signature: 'trait Paginates',
        startLine: 42,
        endLine: 45,
      },
      {
        id: 7,
        kind: 'method',
        name: 'perPage',
        qualifiedName: 'Paginates.perPage',
        signature: 'public function perPage(): int',
        startLine: 44,
        endLine: 44,
        parent: 6,
      },
      {
        id: 8,
        kind: 'enum',
        name: 'OrderState',
        qualifiedName: 'OrderState',
        signature: 'enum OrderState: string',
        startLine: 47,
        endLine: 51,
      },
      {
        id: 9,
        kind: 'enum_member',
        name: 'Pending',
        qualifiedName: 'OrderState.Pending',
        signature: "case Pending = 'pending'",
        startLine: 49,
        endLine: 49,
        parent: 8,
      },
      {
        id: 10,
        kind: 'enum_member',
        name: 'Paid',
        qualifiedName: 'OrderState.Paid',
        signature: "case Paid = 'paid'",
        startLine: 50,
        endLine: 50,
        parent: 8,
      },
      {
        id: 11,
        kind: 'function',
        name: 'format_total',
        qualifiedName: 'format_total',
        signature: 'function format_total(Order $order): string',
        startLine: 53,
        endLine: 56,
        bodyStartLine: 55,
        bodyEndLine: 55,
      },
      {
        id: 12,
        kind: 'const',
        name: 'DEFAULT_CURRENCY',
        qualifiedName: 'DEFAULT_CURRENCY',
        signature: "const DEFAULT_CURRENCY = 'EUR'",
        startLine: 58,
        endLine: 58,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'App\\Models\\Order', line: 7 },
      { source: 'App\\Models\\Customer', line: 7 },
      { source: 'Illuminate\\Http\\JsonResponse', line: 8 },
      { source: 'App\\Support\\money', line: 9 },
      { source: '../../bootstrap/helpers.php', line: 11 },
    ]);
    expect(facts.contracts).toEqual([]);
  });

  test('routes.php', async () => {
    const facts = await extract('routes.php');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([]);
    expect(facts.imports).toEqual([
      { source: 'App\\Http\\Controllers\\OrderController', line: 3 },
      { source: 'Illuminate\\Support\\Facades\\Route', line: 4 },
    ]);
    expect(facts.contracts).toEqual([
      { kind: 'http_route', method: 'GET', path: '/orders/{order}', line: 6, via: 'laravel Route' },
      { kind: 'http_route', method: 'GET', path: '/checkout', line: 7, via: 'laravel Route' },
      { kind: 'http_route', method: 'POST', path: '/checkout', line: 7, via: 'laravel Route' },
      { kind: 'http_route', method: 'ANY', path: '/ping', line: 8, via: 'laravel Route' },
      { kind: 'http_route', method: 'POST', path: '/api/payments/{id}', line: 11, via: 'laravel Route' },
      { kind: 'http_route', method: 'DELETE', path: '/api/v2/carts/{cart}', line: 13, via: 'laravel Route' },
    ]);
  });
});

describe('php negative fixture', () => {
  test('LookAlikes.php', async () => {
    const facts = await extract('negative/LookAlikes.php');
    expect(facts.package).toBe('App\\Fakes');
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'Router',
        qualifiedName: 'Router',
        signature: 'class Router',
        startLine: 7,
        endLine: 19,
      },
      {
        id: 1,
        kind: 'const',
        name: 'EXAMPLE',
        qualifiedName: 'Router.EXAMPLE',
        signature: "public const EXAMPLE = \"Route::get('/fake', 'X@y')\"",
        startLine: 9,
        endLine: 9,
        parent: 0,
      },
      {
        id: 2,
        kind: 'method',
        name: 'get',
        qualifiedName: 'Router.get',
        signature: 'public function get(string $path): string',
        startLine: 11,
        endLine: 18,
        parent: 0,
        bodyStartLine: 13,
        bodyEndLine: 17,
      },
    ]);
    expect(facts.imports).toEqual([]);
    expect(facts.contracts).toEqual([]);
  });
});

describe('slim routes', () => {
  test('slim_routes.php: verbs, map, nested groups with typed route collectors, route chains', async () => {
    expect(await extract('slim_routes.php')).toEqual({
      language: 'php',
      symbols: [],
      imports: [
        { source: 'Psr\\Http\\Message\\ResponseInterface', line: 3 },
        { source: 'Psr\\Http\\Message\\ServerRequestInterface', line: 4 },
        { source: 'Slim\\App', line: 5 },
        { source: 'Slim\\Routing\\RouteCollectorProxy', line: 6 },
      ],
      contracts: [
        { kind: 'http_route', method: 'POST', path: '/quotes', line: 9, via: 'slim post' },
        { kind: 'http_route', method: 'GET', path: '/quotes/{id}', line: 13, via: 'slim map' },
        { kind: 'http_route', method: 'HEAD', path: '/quotes/{id}', line: 13, via: 'slim map' },
        { kind: 'http_route', method: 'GET', path: '/api/v1/rates', line: 16, via: 'slim get' },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/api/v1/admin/rates/{currency}',
          line: 18,
          via: 'slim delete',
        },
        { kind: 'http_route', method: 'ANY', path: '/ping', line: 22, via: 'slim any' },
      ],
    });
  });

  test('Guzzle clients, containers and an `App` that is not Slim create no route', async () => {
    const facts = await extract('negative/SlimLookAlikes.php');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols.map((s) => s.qualifiedName)).toEqual([
      'RatesClient',
      'RatesClient.__construct',
      'RatesClient.fetch',
      'settings',
    ]);
  });
});
