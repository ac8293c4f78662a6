import { describe, expect, test } from 'vitest';
import { emptyFacts, type ContractFact, type FileFacts, type LanguageId } from '../../src/index/facts.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { foldTopology } from '../../src/ops/graph/fold.js';

const file = (root: string, path: string, language: LanguageId, facts: Partial<FileFacts>): IndexedFile => ({
  root,
  path,
  absolutePath: `/ws/${root}/${path}`,
  language,
  size: 1,
  mtimeMs: 1,
  hash: path,
  outcome: 'parsed',
  facts: { ...emptyFacts(language), ...facts },
});

const proto = (root: string, pkg: string): IndexedFile =>
  file(root, `${pkg}.proto`, 'proto', {
    protoServices: [
      {
        name: 'Billing',
        package: pkg,
        line: 1,
        methods: [
          {
            name: 'Charge',
            line: 2,
            requestType: 'A',
            responseType: 'B',
            clientStreaming: false,
            serverStreaming: false,
          },
        ],
      },
    ],
  });

const call = (line: number): ContractFact => ({
  kind: 'grpc_client',
  service: 'Billing',
  method: 'Charge',
  line,
  confidence: 'exact',
  via: 'stub',
});

describe('foldTopology', () => {
  test('an ambiguous call is drawn (as heuristic) only when all its candidates belong to one service', () => {
    const across = reconcile({
      files: [
        proto('one', 'one'),
        proto('two', 'two'),
        file('web', 'call.ts', 'typescript', { contracts: [call(7)] }),
      ],
      services: new Map(),
    });
    const hidden = foldTopology(across, { workspace: 'ws', maxServices: 10 });
    expect(hidden.links).toEqual([]);
    expect(hidden.hidden.ambiguousEdges).toBe(2);

    const within = reconcile({
      files: [
        proto('one', 'one'),
        proto('one', 'one.v2'),
        file('web', 'call.ts', 'typescript', { contracts: [call(7)] }),
      ],
      services: new Map(),
    });
    const drawn = foldTopology(within, { workspace: 'ws', maxServices: 10 });
    expect(drawn.hidden.ambiguousEdges).toBe(0);
    expect(drawn.nodes.map((n) => n.label)).toEqual(['one', 'web']);
    expect(drawn.links).toEqual([
      { from: 's1', to: 's0', kind: 'calls_rpc', weight: 2, confidence: 'heuristic' },
    ]);
  });

  test('a root of contract declarations is a contracts node: never a service, never folded away', () => {
    const graph = reconcile({
      files: [
        proto('one', 'one'),
        file('web', 'call.ts', 'typescript', { contracts: [call(7)] }),
        file('api', 'call.ts', 'typescript', { contracts: [call(9)] }),
      ],
      services: new Map(),
    });
    const topology = foldTopology(graph, {
      workspace: 'ws',
      maxServices: 1,
      contractRoots: new Set(['one']),
      displayPath: (root, path) => `${root}/${path}`,
    });
    expect(topology.nodes.map((n) => [n.id, n.kind, n.label])).toEqual([
      ['s0', 'service', 'api'],
      ['c1', 'contracts', 'one'],
      ['other', 'folded', '1 other services'],
    ]);
    expect(topology.nodes[1]?.contracts).toEqual([
      { kind: 'declares', name: 'one.Billing', file: 'one/one.proto', line: 1 },
    ]);
    expect(topology.links).toEqual([
      { from: 'other', to: 'c1', kind: 'calls_rpc', weight: 1, confidence: 'exact' },
      { from: 's0', to: 'c1', kind: 'calls_rpc', weight: 1, confidence: 'exact' },
    ]);
    expect(topology.hidden.services).toEqual(['web']);
  });
});
