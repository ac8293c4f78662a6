/**
 * HTTP calls → routes at graph level: hosts resolved by any name of a service, through the caller's
 * environment and Spring configuration (profiles, nested placeholders), context paths, base paths,
 * Kubernetes DNS names, the heuristic path-only match, and the calls that reach nothing.
 */
import { describe, expect, test } from 'vitest';
import { type ContractFact, type PropertyFact } from '../../src/index/facts.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { RootIdentity } from '../../src/index/services/types.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

const file = (
  root: string,
  path: string,
  facts: { contracts?: ContractFact[]; properties?: PropertyFact[] },
): IndexedFile => indexedFile(root, path, facts);

const route = (method: string, path: string, line = 1): ContractFact => ({
  kind: 'http_route',
  method,
  path,
  line,
  via: 'route',
});
const call = (
  method: string,
  path: string,
  base?: string,
  line = 5,
): Extract<ContractFact, { kind: 'http_call' }> => ({
  kind: 'http_call',
  method,
  path,
  ...(base === undefined ? {} : { base }),
  line,
  confidence: 'exact',
  via: 'client',
});
const prop = (key: string, value: string, line = 1, profile?: string): PropertyFact => ({
  key,
  value,
  line,
  ...(profile === undefined ? {} : { profile }),
});

const identity = (names: string[], env: Record<string, string> = {}): RootIdentity => ({
  names,
  env: new Map(Object.entries(env)),
});

/** `calls_http <route> <confidence> <root>:<file>:<line>` for every HTTP edge. */
function httpEdges(graph: ContractGraph): string[] {
  return graph.edges
    .filter((e) => e.kind === 'calls_http' || e.kind === 'proxies_http')
    .map((e) => {
      const to = graph.node(e.to);
      return `${e.kind} ${to.root}:${to.name} ${e.confidence} ${e.root}:${e.file}:${e.line}`;
    })
    .sort();
}

const orders = file('services/orders', 'Api.java', {
  contracts: [route('GET', '/orders/{id}'), route('POST', '/orders')],
});
const billing = file('services/billing', 'api.go', { contracts: [route('GET', '/orders/{id}')] });

describe('HTTP call matching', () => {
  test('a host resolves by any name of the service, port and scheme aside', () => {
    const web = file('web', 'client.ts', {
      contracts: [call('GET', '/orders/{orderId}', 'https://order-api:9443')],
    });
    const graph = reconcile({
      files: [orders, billing, web],
      services: new Map(),
      identities: new Map([['services/orders', identity(['orders', 'order-api'])]]),
    });
    expect(httpEdges(graph)).toEqual(['calls_http services/orders:GET /orders/{id} exact web:client.ts:5']);
    expect(graph.unresolved).toEqual([]);
  });

  test('a name several services share means the one nearest the caller; a nearest one without the route is not replaced by a farther one', () => {
    const processor = (dir: string) =>
      file(`${dir}/order-processor`, 'app.js', { contracts: [route('POST', '/orders')] });
    const goProcessor = file('invoke/go/order-processor', 'app.go', { contracts: [] });
    const checkout = (dir: string) =>
      file(`${dir}/checkout`, 'app.py', { contracts: [call('POST', '/orders', 'service:order-processor')] });
    const named = (dir: string): [string, RootIdentity] => [
      `${dir}/order-processor`,
      identity(['order-processor']),
    ];
    const graph = reconcile({
      files: [
        processor('invoke/node'),
        processor('invoke/python'),
        goProcessor,
        checkout('invoke/python'),
        checkout('invoke/go'),
      ],
      services: new Map(),
      identities: new Map([named('invoke/node'), named('invoke/python'), named('invoke/go')]),
    });
    expect(httpEdges(graph)).toEqual([
      'calls_http invoke/python/order-processor:POST /orders exact invoke/python/checkout:app.py:5',
    ]);
    expect(graph.unresolved.map((u) => `${u.root}:${u.file}:${u.line}`)).toEqual([
      'invoke/go/checkout:app.py:5',
    ]);
  });

  test('env: reads the caller’s own environment from its identity first', () => {
    const web = file('web', 'client.py', { contracts: [call('GET', '/orders/{id}', 'env:ORDERS_URL')] });
    // Another service sets the same variable to another host: the caller's own value wins.
    const graph = reconcile({
      files: [orders, billing, web],
      services: new Map(),
      identities: new Map([
        ['web', identity(['web'], { ORDERS_URL: 'http://orders.shop.svc.cluster.local:8080' })],
        ['services/billing', identity(['billing'], { ORDERS_URL: 'http://billing:8080' })],
      ]),
    });
    expect(httpEdges(graph)).toEqual(['calls_http services/orders:GET /orders/{id} exact web:client.py:5']);
  });

  test('env: falls back to env.NAME properties of the root, then a value the workspace agrees on', () => {
    const deploy = file('deploy', 'docker-compose.yml', {
      properties: [prop('env.BILLING_HOST', 'billing:8080')],
    });
    const web = file('web', 'client.py', { contracts: [call('GET', '/orders/{id}', 'env:BILLING_HOST')] });
    const graph = reconcile({ files: [orders, billing, web, deploy], services: new Map() });
    expect(httpEdges(graph)).toEqual(['calls_http services/billing:GET /orders/{id} exact web:client.py:5']);
  });

  test('Kubernetes DNS forms reduce to the Service name; service: and lb:// name it directly', () => {
    const web = file('web', 'client.ts', {
      contracts: [
        call('GET', '/orders/{id}', 'http://orders.shop:80', 5),
        call('POST', '/orders', 'service:orders', 6),
        call('GET', '/orders/{id}', 'lb://billing', 7),
        call('GET', '/orders/{id}', 'http://billing.shop.svc:8080', 8),
      ],
    });
    const graph = reconcile({ files: [orders, billing, web], services: new Map() });
    expect(httpEdges(graph)).toEqual([
      'calls_http services/billing:GET /orders/{id} exact web:client.ts:7',
      'calls_http services/billing:GET /orders/{id} exact web:client.ts:8',
      'calls_http services/orders:GET /orders/{id} exact web:client.ts:5',
      'calls_http services/orders:POST /orders exact web:client.ts:6',
    ]);
  });

  test('${key} through Spring profiles, nested defaults and placeholders resolving to placeholders', () => {
    const config = file('web', 'src/main/resources/application.yml', {
      properties: [
        prop('clients.orders', '${ORDERS_BASE:${clients.fallback:http://localhost:8080}}', 1),
        prop('clients.fallback', '${clients.docker}', 2),
        prop('clients.billing', 'http://localhost:9000', 3),
        prop('clients.billing', 'http://billing:9000/api', 8, 'docker'),
      ],
    });
    const billingApi = file('services/billing', 'api.go', {
      contracts: [route('GET', '/api/invoices/{id}')],
    });
    const web = file('web', 'Client.java', {
      contracts: [
        call('GET', '/orders/{id}', '${clients.orders}', 5),
        call('GET', '/invoices/{id}', '${clients.billing}', 6),
      ],
    });
    const docker = file('web', 'src/main/resources/application-docker.yml', {
      properties: [prop('clients.docker', 'http://orders:8080', 1, 'docker')],
    });
    const graph = reconcile({ files: [orders, billingApi, web, config, docker], services: new Map() });
    expect(httpEdges(graph)).toEqual([
      // The default reading is localhost; the docker profile names the service, and its base path prefixes.
      'calls_http services/billing:GET /api/invoices/{id} exact web:Client.java:6',
      'calls_http services/orders:GET /orders/{id} exact web:Client.java:5',
    ]);
  });

  test('the active profile wins over the default', () => {
    const config = file('web', 'application.yml', {
      properties: [
        prop('spring.profiles.active', 'k8s', 1),
        prop('orders.url', 'http://billing:8080', 2),
        prop('orders.url', 'http://orders:8080', 5, 'k8s'),
      ],
    });
    const web = file('web', 'Client.java', { contracts: [call('GET', '/orders/{id}', '${orders.url}')] });
    const graph = reconcile({ files: [orders, billing, web, config], services: new Map() });
    expect(httpEdges(graph)).toEqual(['calls_http services/orders:GET /orders/{id} exact web:Client.java:5']);
  });

  test('context paths prefix a root’s routes; a base path prefixes the call', () => {
    const config = file('services/orders', 'application.properties', {
      properties: [prop('server.servlet.context-path', '/order-service/')],
    });
    const web = file('web', 'client.ts', {
      contracts: [
        call('GET', '/orders/{id}', 'http://orders:8080/order-service', 5),
        call('GET', '/orders/{id}', 'http://orders:8080', 6),
      ],
    });
    const graph = reconcile({ files: [orders, config, web], services: new Map() });
    expect(graph.nodesOfKind('http_route').map((n) => n.name)).toEqual([
      'GET /order-service/orders/{id}',
      'POST /order-service/orders',
    ]);
    expect(httpEdges(graph)).toEqual([
      'calls_http services/orders:GET /order-service/orders/{id} exact web:client.ts:5',
    ]);
    expect(graph.unresolved.map((u) => `${u.file}:${u.line} ${u.reason}`)).toEqual([
      'client.ts:6 orders is services/orders, which serves no GET /orders/{id}',
    ]);
  });

  test('an unknown or local host matches by path: one service → heuristic, several → listed as unresolved', () => {
    const web = file('web', 'client.ts', {
      contracts: [
        call('POST', '/orders', 'http://localhost:8080', 5),
        call('GET', '/orders/{id}', 'env:NOWHERE', 6),
      ],
    });
    const graph = reconcile({ files: [orders, billing, web], services: new Map() });
    expect(httpEdges(graph)).toEqual(['calls_http services/orders:POST /orders heuristic web:client.ts:5']);
    expect(
      graph.unresolved.map((u) => `${u.file}:${u.line} ${u.reason} [${(u.roots ?? []).join(', ')}]`),
    ).toEqual([
      'client.ts:6 2 services serve GET /orders/{id} and the host does not say which [services/billing, services/orders]',
    ]);
  });

  test('a port left at the start of the path by `host + ":" + port + "/orders"` does not decide the route', () => {
    const web = file('web', 'Client.java', {
      contracts: [
        call('POST', '/:{ORDERS_PORT}/orders', undefined, 5),
        call('POST', '/{ordersPort}/orders', undefined, 6),
      ],
    });
    const graph = reconcile({ files: [orders, web], services: new Map() });
    expect(httpEdges(graph)).toEqual([
      'calls_http services/orders:POST /orders heuristic web:Client.java:5',
      'calls_http services/orders:POST /orders heuristic web:Client.java:6',
    ]);
  });

  test('with the host unknown, a path of parameters only names no route', () => {
    const web = file('web', 'load.lua', { contracts: [call('GET', '/{counter}', undefined, 7)] });
    const graph = reconcile({ files: [billing, web], services: new Map() });
    expect(httpEdges(graph)).toEqual([]);
    expect(graph.unresolved.map((u) => `${u.file}:${u.line} ${u.path}`)).toEqual(['load.lua:7 /{counter}']);
  });

  test('calls reaching nothing are kept: external hosts, unresolved paths, unmatched routes', () => {
    const web = file('web', 'client.ts', {
      contracts: [
        call('GET', '/orders/{id}', 'https://api.example.com', 5),
        { ...call('GET', '/', 'env:ORDERS_URL', 6), unresolved: 'ORDERS_URL + path' },
        call('DELETE', '/nothing', undefined, 7),
      ],
    });
    const graph = reconcile({ files: [orders, web], services: new Map() });
    expect(httpEdges(graph)).toEqual([]);
    expect(graph.unresolved.map((u) => `${u.file}:${u.line} ${u.method} ${u.url} (${u.reason})`)).toEqual([
      'client.ts:5 GET https://api.example.com /orders/{id} (external host api.example.com)',
      'client.ts:6 GET ORDERS_URL + path (path not resolved)',
      'client.ts:7 DELETE /nothing (host unknown; no route DELETE /nothing in another root)',
    ]);
  });

  test('without identities, the services map and the root folder name still resolve hosts', () => {
    const web = file('web', 'client.ts', {
      contracts: [
        call('GET', '/orders/{id}', 'http://order-svc', 5),
        call('GET', '/orders/{id}', 'http://billing', 6),
      ],
    });
    const graph = reconcile({
      files: [orders, billing, web],
      services: new Map([['services/orders', 'order-svc']]),
    });
    expect(httpEdges(graph)).toEqual([
      'calls_http services/billing:GET /orders/{id} exact web:client.ts:6',
      'calls_http services/orders:GET /orders/{id} exact web:client.ts:5',
    ]);
  });
});
