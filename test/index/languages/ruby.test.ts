import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractRuby } from '../../../src/index/languages/ruby/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/ruby');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-ruby');

async function extractSource(source: string, file = 'inline.rb'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'ruby', source },
    { grammarsDir, extractors: { ruby: extractRuby } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/ruby/${name}`);
}

describe('ruby golden fixtures', () => {
  test('orders_controller.rb', async () => {
    const facts = await extract('orders_controller.rb');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'module',
        name: 'Shop',
        qualifiedName: 'Shop',
        signature: 'module Shop',
        startLine: 6,
        endLine: 38,
      },
      {
        id: 1,
        kind: 'class',
        name: 'OrdersController',
        qualifiedName: 'Shop.OrdersController',
        signature: 'class OrdersController < ApplicationController',
        startLine: 8,
        endLine: 37,
        docstring: 'Orders placed through the storefront.',
        parent: 0,
      },
      {
        id: 2,
        kind: 'const',
        name: 'PAGE_SIZE',
        qualifiedName: 'Shop.OrdersController.PAGE_SIZE',
        signature: 'PAGE_SIZE = 25',
        startLine: 9,
        endLine: 9,
        parent: 1,
      },
      {
        id: 3,
        kind: 'const',
        name: 'STATES',
        qualifiedName: 'Shop.OrdersController.STATES',
        signature: 'STATES = %w[pending paid].freeze',
        startLine: 10,
        endLine: 10,
        parent: 1,
      },
      {
        id: 4,
        kind: 'method',
        name: 'index',
        qualifiedName: 'Shop.OrdersController.index',
        signature: 'def index',
        startLine: 15,
        endLine: 18,
        docstring: "Lists the current customer's orders.",
        parent: 1,
        bodyStartLine: 16,
        bodyEndLine: 17,
      },
      {
        id: 5,
        kind: 'method',
        name: 'show',
        qualifiedName: 'Shop.OrdersController.show',
        signature: 'def show',
        startLine: 20,
        endLine: 20,
        parent: 1,
      },
      {
        id: 6,
        kind: 'method',
        name: 'policy',
        qualifiedName: 'Shop.OrdersController.policy',
        signature: 'def self.policy(user, order)',
        startLine: 22,
        endLine: 24,
        parent: 1,
        bodyStartLine: 23,
        bodyEndLine: 23,
      },
      {
        id: 7,
        kind: 'method',
        name: 'table_name',
        qualifiedName: 'Shop.OrdersController.table_name',
        signature: 'def table_name',
        startLine: 27,
        endLine: 29,
        parent: 1,
        bodyStartLine: 28,
        bodyEndLine: 28,
      },
      {
        id: 8,
        kind: 'method',
        name: 'load_order',
        qualifiedName: 'Shop.OrdersController.load_order',
        signature: 'def load_order',
        startLine: 34,
        endLine: 36,
        parent: 1,
        bodyStartLine: 35,
        bodyEndLine: 35,
      },
      {
        id: 9,
        kind: 'function',
        name: 'top_level_helper',
        qualifiedName: 'top_level_helper',
        signature: 'def top_level_helper(value)',
        startLine: 40,
        endLine: 42,
        bodyStartLine: 41,
        bodyEndLine: 41,
      },
    ]);
    expect(facts.imports).toEqual([
      { source: 'json', line: 3 },
      { source: '../services/payment_gateway', line: 4 },
    ]);
    expect(facts.contracts).toEqual([]);
  });

  test('routes.rb', async () => {
    const facts = await extract('routes.rb');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([]);
    expect(facts.imports).toEqual([]);
    expect(facts.contracts).toEqual([
      { kind: 'http_route', method: 'GET', path: '/', line: 2, via: 'rails root' },
      { kind: 'http_route', method: 'GET', path: '/health', line: 3, via: 'rails get' },
      { kind: 'http_route', method: 'GET', path: '/orders', line: 4, via: 'rails resources' },
      { kind: 'http_route', method: 'POST', path: '/orders', line: 4, via: 'rails resources' },
      { kind: 'http_route', method: 'GET', path: '/orders/{id}', line: 4, via: 'rails resources' },
      {
        kind: 'http_route',
        method: 'GET',
        path: '/orders/{order_id}/items',
        line: 5,
        via: 'rails resources',
      },
      {
        kind: 'http_route',
        method: 'POST',
        path: '/orders/{order_id}/items',
        line: 5,
        via: 'rails resources',
      },
      {
        kind: 'http_route',
        method: 'GET',
        path: '/orders/{order_id}/items/{id}',
        line: 5,
        via: 'rails resources',
      },
      {
        kind: 'http_route',
        method: 'PATCH',
        path: '/orders/{order_id}/items/{id}',
        line: 5,
        via: 'rails resources',
      },
      {
        kind: 'http_route',
        method: 'PUT',
        path: '/orders/{order_id}/items/{id}',
        line: 5,
        via: 'rails resources',
      },
      {
        kind: 'http_route',
        method: 'DELETE',
        path: '/orders/{order_id}/items/{id}',
        line: 5,
        via: 'rails resources',
      },
      { kind: 'http_route', method: 'POST', path: '/cart', line: 7, via: 'rails resource' },
      { kind: 'http_route', method: 'GET', path: '/cart/new', line: 7, via: 'rails resource' },
      { kind: 'http_route', method: 'GET', path: '/cart/edit', line: 7, via: 'rails resource' },
      { kind: 'http_route', method: 'GET', path: '/cart', line: 7, via: 'rails resource' },
      { kind: 'http_route', method: 'PATCH', path: '/cart', line: 7, via: 'rails resource' },
      { kind: 'http_route', method: 'PUT', path: '/cart', line: 7, via: 'rails resource' },
      { kind: 'http_route', method: 'DELETE', path: '/cart', line: 7, via: 'rails resource' },
      {
        kind: 'http_route',
        method: 'POST',
        path: '/api/v1/payments/{id}/capture',
        line: 10,
        via: 'rails post',
      },
      { kind: 'http_route', method: 'GET', path: '/api/v1/webhooks', line: 11, via: 'rails match' },
      { kind: 'http_route', method: 'POST', path: '/api/v1/webhooks', line: 11, via: 'rails match' },
    ]);
  });
});

describe('ruby negative fixture', () => {
  test('look_alikes.rb', async () => {
    const facts = await extract('negative/look_alikes.rb');
    expect(facts.package).toBe(undefined);
    expect(facts.symbols).toEqual([
      {
        id: 0,
        kind: 'class',
        name: 'HttpCache',
        qualifiedName: 'HttpCache',
        signature: 'class HttpCache',
        startLine: 4,
        endLine: 16,
      },
      {
        id: 1,
        kind: 'const',
        name: 'ROUTE_TEXT',
        qualifiedName: 'HttpCache.ROUTE_TEXT',
        signature: 'ROUTE_TEXT = \'get "/fake", to: "x#y"\'',
        startLine: 5,
        endLine: 5,
        parent: 0,
      },
      {
        id: 2,
        kind: 'method',
        name: 'get',
        qualifiedName: 'HttpCache.get',
        signature: 'def get(path)',
        startLine: 7,
        endLine: 9,
        parent: 0,
        bodyStartLine: 8,
        bodyEndLine: 8,
      },
      {
        id: 3,
        kind: 'method',
        name: 'run',
        qualifiedName: 'HttpCache.run',
        signature: 'def run',
        startLine: 11,
        endLine: 15,
        parent: 0,
        bodyStartLine: 12,
        bodyEndLine: 14,
      },
    ]);
    expect(facts.imports).toEqual([]);
    expect(facts.contracts).toEqual([]);
  });
});

describe('sinatra routes', () => {
  test('notifier_app.rb: classic style at the top level of a file requiring sinatra, also inside configure', async () => {
    expect(await extract('notifier_app.rb')).toEqual({
      language: 'ruby',
      symbols: [
        {
          id: 0,
          kind: 'function',
          name: 'deliver',
          qualifiedName: 'deliver',
          signature: 'def deliver(order)',
          startLine: 26,
          endLine: 28,
          bodyStartLine: 27,
          bodyEndLine: 27,
        },
      ],
      imports: [
        { source: 'json', line: 1 },
        { source: 'sinatra', line: 2 },
      ],
      contracts: [
        {
          kind: 'http_route',
          method: 'POST',
          path: '/send_order_confirmation',
          line: 7,
          via: 'sinatra post',
        },
        { kind: 'http_route', method: 'GET', path: '/orders/{id}/receipt', line: 12, via: 'sinatra get' },
        { kind: 'http_route', method: 'GET', path: '/debug/mailbox', line: 17, via: 'sinatra get' },
      ],
    });
  });

  test('billing_api.rb: modular style in a Sinatra::Base subclass, with a sinatra-contrib namespace', async () => {
    expect(await extract('billing_api.rb')).toEqual({
      language: 'ruby',
      symbols: [
        {
          id: 0,
          kind: 'module',
          name: 'Billing',
          qualifiedName: 'Billing',
          signature: 'module Billing',
          startLine: 4,
          endLine: 23,
        },
        {
          id: 1,
          kind: 'class',
          name: 'Api',
          qualifiedName: 'Billing.Api',
          signature: 'class Api < Sinatra::Base',
          startLine: 6,
          endLine: 22,
          docstring: 'The billing HTTP API, mounted by config.ru.',
          parent: 0,
        },
      ],
      imports: [
        { source: 'sinatra/base', line: 1 },
        { source: 'sinatra/namespace', line: 2 },
      ],
      contracts: [
        { kind: 'http_route', method: 'GET', path: '/health', line: 9, via: 'sinatra get', symbol: 1 },
        {
          kind: 'http_route',
          method: 'PUT',
          path: '/v1/invoices/{invoice_id}',
          line: 14,
          via: 'sinatra put',
          symbol: 1,
        },
        {
          kind: 'http_route',
          method: 'DELETE',
          path: '/v1/invoices/{invoice_id}',
          line: 18,
          via: 'sinatra delete',
          symbol: 1,
        },
      ],
    });
  });

  test('sinatra look-alikes: no classic require, plain classes, method and route bodies, no block, no literal', async () => {
    const facts = await extract('negative/sinatra_look_alikes.rb');
    // Only the one real route of the Sinatra::Base subclass.
    expect(facts.contracts).toEqual([
      { kind: 'http_route', method: 'GET', path: '/real', line: 22, via: 'sinatra get', symbol: 1 },
    ]);
  });
});
