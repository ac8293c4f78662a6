/**
 * The whole HTTP path on a small Spring Cloud + compose workspace, through the built CLI: `init --auto` roots
 * from the service model, a Feign client named by `spring.application.name`, a Python call whose base URL
 * comes from a compose environment variable naming a compose service, and Spring Cloud Gateway and Zuul
 * routes forwarding to services by name.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';

const MESHES = path.resolve(import.meta.dirname, '../fixtures/meshes');

interface GraphJson {
  readonly nodes: readonly { readonly name: string; readonly root: string | null; readonly kind: string }[];
  readonly edges: readonly {
    readonly from: number;
    readonly to: number;
    readonly kind: string;
    readonly confidence: string;
    readonly via: string;
  }[];
  readonly services: readonly { readonly name: string; readonly kind: string; readonly folder: string }[];
  readonly unresolved: { readonly count: number };
}

function graphOf(fixture: string): GraphJson {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-mesh-'));
  cpSync(path.join(MESHES, fixture), dir, { recursive: true });
  const env = tempEnv();
  expect(runCli(['init', '--auto', '--workspace', dir], { env }).status).toBe(0);
  const out = path.join(dir, 'graph.json');
  const graph = runCli(['graph', '--format', 'json', '-o', out, '--workspace', dir], { env });
  expect(graph.status, graph.stderr).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as GraphJson;
}

/** `root -> root route confidence via` for every HTTP call edge, sorted. */
function callRows(graph: GraphJson): string[] {
  return graph.edges
    .filter((e) => e.kind === 'calls_http')
    .map((e) => {
      const [from, to] = [graph.nodes[e.from], graph.nodes[e.to]];
      return `${from?.root} -> ${to?.root} ${to?.name} ${e.confidence} ${e.via}`;
    })
    .sort();
}

describe('HTTP between services, resolved through the service model', () => {
  const graph = graphOf('spring-cloud-and-compose');

  test('services and gateways come from the manifests, one root each', () => {
    expect(graph.services.map((s) => `${s.folder} ${s.kind}`)).toEqual([
      'customer-service service',
      'gateway gateway',
      'order-service service',
      'reporting service',
      'zuul gateway',
    ]);
  });

  test('every call and gateway route reaches its route, and nothing is left unresolved', () => {
    expect(callRows(graph)).toEqual([
      'customer-service -> order-service GET /api/orders/{id} exact @FeignClient',
      'gateway -> customer-service GET /{id} exact proxy:spring-cloud-gateway',
      'gateway -> order-service GET /api/orders/{id} exact proxy:spring-cloud-gateway',
      'gateway -> order-service POST /api/orders exact proxy:spring-cloud-gateway',
      'reporting -> order-service GET /api/orders/{id} exact requests get',
      'zuul -> reporting GET /report/{oid} exact proxy:zuul',
    ]);
    expect(graph.unresolved.count).toBe(0);
  });
});

describe('.NET clients registered in Program.cs and used in another file', () => {
  test('typed and named clients take the base their registration gives, through the compose environment', () => {
    const graph = graphOf('dotnet-typed-clients');
    expect(callRows(graph)).toEqual([
      'services/web -> services/basket GET /basket/{id} exact HttpClient GetStringAsync',
      'services/web -> services/catalog GET /api/items exact HttpClient GetStringAsync',
      'services/web -> services/catalog POST /api/items exact HttpClient PostAsJsonAsync',
    ]);
    expect(graph.unresolved.count).toBe(0);
  });
});
