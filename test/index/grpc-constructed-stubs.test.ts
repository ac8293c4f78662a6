import { describe, expect, test } from 'vitest';
import { emptyFacts, type ContractFact, type LanguageId } from '../../src/index/facts.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import { markUncalledStubs } from '../../src/index/languages/shared/grpc-stubs.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

const indexed = (root: string, path: string, language: LanguageId, contracts: ContractFact[]): IndexedFile =>
  indexedFile(root, path, { contracts }, language);

type ClientFact = Extract<ContractFact, { kind: 'grpc_client' }>;

const stub = (service: string, line: number, method?: string): ClientFact => ({
  kind: 'grpc_client',
  service,
  ...(method === undefined ? {} : { method }),
  line,
  confidence: 'exact',
  via: 'New*Client',
});

describe('constructing a gRPC stub is not a call', () => {
  test('a stub whose service gets no method call in its file is marked; a called one is not', () => {
    const facts = markUncalledStubs({
      ...emptyFacts('go'),
      contracts: [stub('Cart', 3), stub('Email', 4), stub('Cart', 9, 'GetCart')],
    });
    expect(facts.contracts).toEqual([
      stub('Cart', 3),
      { ...stub('Email', 4), constructedOnly: true },
      stub('Cart', 9, 'GetCart'),
    ]);
  });

  test('a constructed-only stub gives no calls_rpc edge; a called stub does', () => {
    const proto = indexed('pb', 'shop.proto', 'proto', []);
    const withServices: IndexedFile = {
      ...proto,
      facts: {
        ...proto.facts,
        protoServices: ['Cart', 'Email'].map((name) => ({
          name,
          package: 'shop',
          line: 1,
          methods: [
            {
              name: name === 'Cart' ? 'GetCart' : 'Send',
              line: 2,
              requestType: 'Req',
              responseType: 'Reply',
              clientStreaming: false,
              serverStreaming: false,
            },
          ],
        })),
      },
    };
    const caller = indexed('checkout', 'main.go', 'go', [
      { ...stub('Email', 4), constructedOnly: true },
      stub('Cart', 9, 'GetCart'),
    ]);
    const graph = reconcile({ files: [withServices, caller], services: new Map() });
    const calls = graph.edges.filter((e) => e.kind === 'calls_rpc');
    expect(calls.map((e) => graph.node(e.to).name)).toEqual(['shop.Cart/GetCart']);
  });
});
