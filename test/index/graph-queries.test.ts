import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { emptyFacts, type LanguageId } from '../../src/index/facts.js';
import { EDGE_KINDS, NODE_KINDS, type ContractGraph } from '../../src/index/graph/model.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedRegistry } from '../helpers/workspace.js';

let engine: IndexEngine;
let graph: ContractGraph;

beforeAll(async () => {
  ({ engine } = await indexedRegistry());
  graph = engine.snapshot()?.contractGraph() as ContractGraph;
});
afterAll(() => engine.close());

/** Every lookup of the frozen graph answers what a scan of its nodes or edges answers, in the same order. */
describe('contract graph lookups (examples/polyglot-shop)', () => {
  test('nodes by id, by kind, by name, in a root and in a file', () => {
    expect(graph.nodes.length).toBeGreaterThan(50);
    for (const node of graph.nodes) expect(graph.node(node.id)).toBe(node);
    expect(() => graph.node(graph.nodes.length)).toThrow();
    for (const kind of NODE_KINDS)
      expect(graph.nodesOfKind(kind)).toEqual(graph.nodes.filter((n) => n.kind === kind));
    for (const node of graph.nodes) {
      expect(graph.nodeByName(node.kind, node.name)).toBe(
        graph.nodes.find((n) => n.kind === node.kind && n.name === node.name),
      );
      if (node.root !== undefined)
        expect(graph.nodeInRoot(node.kind, node.root, node.name)).toBe(
          graph.nodes.find((n) => n.kind === node.kind && n.root === node.root && n.name === node.name),
        );
      if (node.root !== undefined && node.file !== undefined)
        expect(graph.nodesInFile(node.root, node.file)).toEqual(
          graph.nodes.filter((n) => n.root === node.root && n.file === node.file),
        );
    }
    expect(graph.nodesInFile('nowhere', 'nothing.ts')).toEqual([]);
  });

  test('the methods of each gRPC service', () => {
    const services = graph.nodesOfKind('grpc_service');
    expect(services.length).toBeGreaterThan(0);
    for (const service of services)
      expect(graph.methodsOf(service.name)).toEqual(
        graph.nodes.filter((n) => n.kind === 'grpc_method' && n.name.startsWith(`${service.name}/`)),
      );
  });

  test('edges into and out of each node, of any kind or of one, and edges sharing one fact’s evidence', () => {
    for (const node of graph.nodes) {
      expect(graph.incoming(node.id)).toEqual(graph.edges.filter((e) => e.to === node.id));
      expect(graph.outgoing(node.id)).toEqual(graph.edges.filter((e) => e.from === node.id));
      for (const kind of EDGE_KINDS) {
        expect(graph.incoming(node.id, kind)).toEqual(
          graph.edges.filter((e) => e.to === node.id && e.kind === kind),
        );
        expect(graph.outgoing(node.id, kind)).toEqual(
          graph.edges.filter((e) => e.from === node.id && e.kind === kind),
        );
      }
    }
    for (const edge of graph.edges) {
      const same = graph.edges.filter(
        (e) => e.kind === edge.kind && e.root === edge.root && e.file === edge.file && e.line === edge.line,
      );
      expect(graph.sameEvidence(edge)).toEqual(same);
    }
  });

  test('an ambiguous call fans out into edges that share its evidence', () => {
    const proto = (root: string): IndexedFile => ({
      ...indexed(root, 'api.proto', 'proto'),
      facts: {
        ...emptyFacts('proto'),
        protoServices: [{ name: 'Billing', package: root, line: 1, methods: [rpc('Charge', 2)] }],
      },
    });
    const client: IndexedFile = {
      ...indexed('web', 'call.ts', 'typescript'),
      facts: {
        ...emptyFacts('typescript'),
        contracts: [
          {
            kind: 'grpc_client',
            service: 'Billing',
            method: 'Charge',
            line: 7,
            confidence: 'exact',
            via: 'stub',
          },
        ],
      },
    };
    const fanned = reconcile({ files: [proto('one'), proto('two'), client], services: new Map() });
    const calls = fanned.edges.filter((e) => e.kind === 'calls_rpc');
    expect(calls.map((e) => e.confidence)).toEqual(['ambiguous', 'ambiguous']);
    for (const edge of calls) expect(fanned.sameEvidence(edge)).toEqual(calls);
  });
});

function indexed(root: string, path: string, language: LanguageId): IndexedFile {
  return {
    root,
    path,
    absolutePath: `/ws/${root}/${path}`,
    language,
    size: 1,
    mtimeMs: 1,
    hash: path,
    outcome: 'parsed',
    facts: emptyFacts(language),
  };
}

const rpc = (name: string, line: number) => ({
  name,
  line,
  requestType: `${name}Request`,
  responseType: `${name}Reply`,
  clientStreaming: false,
  serverStreaming: false,
});
