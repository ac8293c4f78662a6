/**
 * Gateway routes (`http_proxy` facts) → the routes of their target service under the rewritten prefix,
 * or its service node; calls through a gateway to the routes behind it; targets that name no service.
 */
import { describe, expect, test } from 'vitest';
import { type ContractFact } from '../../src/index/facts.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { RootIdentity } from '../../src/index/services/types.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

const file = (root: string, path: string, contracts: ContractFact[]): IndexedFile =>
  indexedFile(root, path, { contracts });

const route = (method: string, path: string): ContractFact => ({
  kind: 'http_route',
  method,
  path,
  line: 1,
  via: 'route',
});
const proxy = (
  prefix: string,
  target: string,
  rewrite?: string,
  line = 3,
  via = 'proxy:nginx',
): Extract<ContractFact, { kind: 'http_proxy' }> => ({
  kind: 'http_proxy',
  prefix,
  target,
  ...(rewrite === undefined ? {} : { rewrite }),
  line,
  confidence: 'exact',
  via,
});
const call = (method: string, path: string, base?: string, line = 5): ContractFact => ({
  kind: 'http_call',
  method,
  path,
  ...(base === undefined ? {} : { base }),
  line,
  confidence: 'exact',
  via: 'client',
});

function httpEdges(graph: ContractGraph): string[] {
  return graph.edges
    .filter((e) => e.kind === 'calls_http' || e.kind === 'proxies_http')
    .map((e) => {
      const to = graph.node(e.to);
      return `${e.kind} ${to.root}:${to.name} ${e.confidence} ${e.root}:${e.file}:${e.line} ${e.via}`;
    })
    .sort();
}

const orders = file('orders', 'Api.java', [
  route('GET', '/orders/{id}'),
  route('POST', '/orders'),
  route('GET', '/health'),
]);
const payments = file('payments', 'main.go', []);
const identities = new Map<string, RootIdentity>([
  ['orders', { names: ['orders', 'order-service'], env: new Map() }],
  ['payments', { names: ['payments'], env: new Map() }],
  ['gateway', { names: ['gateway', 'api-gateway'], env: new Map([['ORDERS_HOST', 'order-service']]) }],
]);

describe('gateway routes', () => {
  test('a gateway route reaches the target routes under the rewritten prefix, or the target service', () => {
    const gateway = file('gateway', 'nginx.conf', [
      proxy('/api/orders', 'http://${ORDERS_HOST}:8080', '/orders', 3),
      proxy('/pay', 'lb://payments', '', 4),
      proxy('/ext', 'https://api.example.com', undefined, 5),
    ]);
    const graph = reconcile({ files: [orders, payments, gateway], services: new Map(), identities });
    expect(httpEdges(graph)).toEqual([
      'calls_http orders:GET /orders/{id} exact gateway:nginx.conf:3 proxy:nginx',
      'calls_http orders:POST /orders exact gateway:nginx.conf:3 proxy:nginx',
      'proxies_http payments:payments exact gateway:nginx.conf:4 proxy:nginx',
    ]);
    expect(graph.unresolved.map((u) => `${u.file}:${u.line} ${u.url} (${u.reason})`)).toEqual([
      'nginx.conf:5 /ext → https://api.example.com (external host api.example.com)',
    ]);
  });

  test('a call to the gateway follows its longest matching route to the service behind it', () => {
    const gateway = file('gateway', 'application.yml', [
      proxy('/api', 'service:payments', '', 3, 'proxy:zuul'),
      proxy('/api/orders', 'service:order-service', '/orders', 4, 'proxy:zuul'),
    ]);
    const web = file('web', 'client.ts', [
      call('GET', '/api/orders/{orderId}', 'http://api-gateway:8080', 5),
      call('POST', '/api/orders', undefined, 6),
    ]);
    const graph = reconcile({ files: [orders, payments, gateway, web], services: new Map(), identities });
    expect(httpEdges(graph).filter((e) => e.includes('web:'))).toEqual([
      'calls_http orders:GET /orders/{id} exact web:client.ts:5 client → proxy:zuul',
      'calls_http orders:POST /orders heuristic web:client.ts:6 client → proxy:zuul',
    ]);
    // On the network the caller talks to the gateway: the edge names it.
    const viaGateway = graph.edges.filter((e) => e.kind === 'calls_http' && e.root === 'web');
    expect(viaGateway.map((e) => e.gateway)).toEqual(['gateway', 'gateway']);
  });

  test('a discovery gateway routes /<name>/** to every service serving routes, by each name', () => {
    const gateway = file('gateway', 'application.yml', [
      {
        ...proxy('/{service}', 'service:{service}', '', 7, 'proxy:spring-cloud-gateway'),
        confidence: 'heuristic',
      },
    ]);
    const web = file('web', 'client.ts', [call('GET', '/order-service/orders/{id}', 'http://gateway', 5)]);
    const graph = reconcile({ files: [orders, payments, gateway, web], services: new Map(), identities });
    expect(httpEdges(graph)).toEqual([
      'calls_http orders:GET /health heuristic gateway:application.yml:7 proxy:spring-cloud-gateway',
      'calls_http orders:GET /orders/{id} heuristic gateway:application.yml:7 proxy:spring-cloud-gateway',
      'calls_http orders:GET /orders/{id} heuristic web:client.ts:5 client → proxy:spring-cloud-gateway',
      'calls_http orders:POST /orders heuristic gateway:application.yml:7 proxy:spring-cloud-gateway',
    ]);
  });
});
