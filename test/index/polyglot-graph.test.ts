import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import type { ContractGraph } from '../../src/index/graph/model.js';
import type { SnapshotReader } from '../../src/index/reader.js';
import { isTestPath } from '../../src/ops/shared/workspace-paths.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

interface Located {
  readonly file: string;
  readonly line: number;
}
interface Expected {
  readonly grpc: (Located & { kind: string; to: string; method?: string })[];
  readonly topics: { topic: string; producers: Located[]; consumers: Located[] }[];
  readonly http: { route: string; server: Located; callers: Located[] }[];
  readonly negatives: Located[];
  readonly test_only: Located[];
}

const expected = JSON.parse(readFileSync(path.join(EXAMPLE, 'expected-graph.json'), 'utf8')) as Expected;
let engine: IndexEngine;
let snapshot: SnapshotReader;
let graph: ContractGraph;

/** Edges as `kind target confidence file:line`, with workspace-relative files. */
function edgeRows(): string[] {
  return graph.edges.map((edge) => {
    const to = graph.nodes[edge.to];
    const file = edge.root === '.' ? edge.file : `${edge.root}/${edge.file}`;
    return `${edge.kind} ${to?.name} ${edge.confidence} ${file}:${edge.line}`;
  });
}

beforeAll(async () => {
  ({ engine } = await indexedRegistry());
  snapshot = engine.snapshot() as SnapshotReader;
  graph = snapshot.contractGraph();
});
afterAll(async () => engine.close());

describe('examples/polyglot-shop contract graph (expected-graph.json, written from the sources)', () => {
  it('has every gRPC handler and method-level call, exactly where the fixture says, with its confidence', () => {
    const rows = edgeRows();
    for (const edge of expected.grpc) {
      const target = edge.method ? `${edge.to}/${edge.method}` : edge.to;
      expect(rows, `${edge.kind} ${target} ${edge.file}:${edge.line}`).toContain(
        `${edge.kind} ${target} exact ${edge.file}:${edge.line}`,
      );
    }
  });

  it('has every producer and consumer of every topic', () => {
    const rows = edgeRows();
    for (const topic of expected.topics) {
      for (const [role, kind] of [
        ['producers', 'produces'],
        ['consumers', 'consumes'],
      ] as const) {
        for (const site of topic[role]) {
          const found = rows.filter(
            (r) => r.startsWith(`${kind} ${topic.topic} `) && r.endsWith(` ${site.file}:${site.line}`),
          );
          expect(found, `${kind} ${topic.topic} ${site.file}:${site.line}`).toHaveLength(1);
        }
      }
    }
  });

  it('has every route at its handler', () => {
    const rows = edgeRows();
    for (const http of expected.http) {
      expect(rows).toContain(`serves_http ${http.route} exact ${http.server.file}:${http.server.line}`);
    }
  });

  it('matches HTTP calls to routes through env vars and config resolved against the deploy manifest', () => {
    const rows = edgeRows();
    for (const http of expected.http) {
      for (const caller of http.callers) {
        const found = rows.filter(
          (r) => r.startsWith(`calls_http ${http.route} `) && r.endsWith(` ${caller.file}:${caller.line}`),
        );
        expect(found, `${http.route} from ${caller.file}:${caller.line}`).toEqual([
          `calls_http ${http.route} exact ${caller.file}:${caller.line}`,
        ]);
      }
    }
  });

  it('matches the Kotlin RestClient call to billing', () => {
    expect(edgeRows()).toContain(
      'calls_http GET /invoices/{orderId} exact services/notification/src/main/kotlin/shop/notification/BillingClient.kt:25',
    );
  });

  it('creates nothing from look-alikes', () => {
    const rows = edgeRows();
    for (const negative of expected.negatives) {
      expect(
        rows.filter((r) => r.endsWith(` ${negative.file}:${negative.line}`)),
        `${negative.file}:${negative.line}`,
      ).toEqual([]);
    }
  });

  it('keeps test-only contracts, recognisably in test files', () => {
    const rows = edgeRows();
    for (const site of expected.test_only) {
      expect(isTestPath(site.file)).toBe(true);
      expect(
        rows.some((r) => r.endsWith(` ${site.file}:${site.line}`)),
        `${site.file}:${site.line}`,
      ).toBe(true);
    }
  });

  it('never links the gRPC health service', () => {
    expect(graph.nodes.filter((n) => n.name.includes('grpc.health'))).toEqual([]);
  });
});
