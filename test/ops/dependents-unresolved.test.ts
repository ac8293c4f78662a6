import { describe, expect, test } from 'vitest';
import { type ContractFact } from '../../src/index/facts.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { SnapshotReader } from '../../src/index/reader.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { unresolvedLines, unresolvedReaching } from '../../src/ops/contracts/dependents-unresolved.js';
import { indexedFile } from '../helpers/indexed-file.js';

const file = (root: string, path: string, contracts: ContractFact[]): IndexedFile =>
  indexedFile(root, path, { contracts });

const call = (path: string, base: string | undefined, line: number, unresolved?: string): ContractFact => ({
  kind: 'http_call',
  method: 'GET',
  path,
  ...(base === undefined ? {} : { base }),
  ...(unresolved === undefined ? {} : { unresolved }),
  line,
  confidence: 'exact',
  via: 'client',
});

describe('unresolved calls in contracts dependents', () => {
  const files = [
    file('orders', 'Api.java', [
      { kind: 'http_route', method: 'GET', path: '/orders/{id}/items', line: 1, via: 'route' },
    ]),
    file('web', 'client.ts', [
      call('/orders/{}/items', 'https://api.example.com', 3),
      call('/orders', 'env:ORDERS_URL', 4, 'ORDERS_URL + "/orders/" + id'),
      call('/invoices', undefined, 5),
      call('/nothing', 'http://orders:8080', 6),
    ]),
  ];
  const graph = reconcile({ files, services: new Map() });
  const snapshot = {
    roots: [],
    contractGraph: () => graph,
    serviceOf: (root: string) => (root === 'orders' ? 'order-service' : root),
  } as unknown as SnapshotReader;

  test('a route: the calls whose path fits it, in full or by their known start', () => {
    const reach = unresolvedReaching(snapshot, 'GET /orders/{id}/items');
    expect(reach?.total).toBe(4);
    expect(reach?.mightReach.map((c) => c.line)).toEqual([3, 4]);
    expect(
      unresolvedLines(snapshot, 'GET /orders/{id}/items', reach ?? { total: 0, mightReach: [] }),
    ).toEqual([
      '',
      '4 HTTP call(s) in the workspace reach no known route (`admin status` lists them); 2 might reach `GET /orders/{id}/items` (host or path fits):',
      '- `client.ts:3` GET `https://api.example.com /orders/{}/items` (client)',
      '- `client.ts:4` GET `ORDERS_URL + "/orders/" + id` (client)',
    ]);
  });

  test('a service (by root or service name): also the calls whose host named it', () => {
    expect(unresolvedReaching(snapshot, 'order-service')?.mightReach.map((c) => c.line)).toEqual([3, 4, 6]);
    expect(unresolvedReaching(snapshot, 'PaymentService')).toBeUndefined();
  });
});
