import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractYaml } from '../../../src/index/languages/yaml/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/languages/yaml');
const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
const MASK = '[REDACTED_SECRET]';

async function facts(name: string, source = read(name)): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: `deploy/${name}`, language: 'yaml', source },
    { extractors: { yaml: extractYaml } },
  );
  if (outcome.kind !== 'no-grammar') throw new Error(`unexpected outcome ${JSON.stringify(outcome)}`);
  return outcome.facts;
}

describe('deployment YAML', () => {
  test('docker-compose: services, map and list environments, merge keys on the `<<` line, secrets masked', async () => {
    expect(await facts('docker-compose.yml')).toEqual({
      language: 'yaml',
      symbols: [],
      imports: [],
      contracts: [],
      properties: [
        { key: 'compose.service', value: 'order-gateway', line: 6 },
        { key: 'env.LOG_LEVEL', value: 'info', line: 9 },
        { key: 'env.KAFKA_BROKERS', value: 'kafka:9092', line: 9 },
        { key: 'env.BILLING_URL', value: 'http://billing:8080', line: 10 },
        { key: 'env.PAYMENT_GRPC', value: 'payment-worker:50051', line: 11 },
        { key: 'env.DB_PASSWORD', value: MASK, line: 12 },
        { key: 'compose.service', value: 'billing', line: 16 },
        { key: 'env.INVENTORY_URL', value: 'http://inventory-manager:9000/api', line: 19 },
        { key: 'env.RETRIES', value: '3', line: 20 },
        { key: 'compose.service', value: 'kafka', line: 22 },
      ],
    });
  });

  test('Kubernetes: container env literals (valueFrom skipped), Service names, List items', async () => {
    expect((await facts('deploy.yaml')).properties).toEqual([
      { key: 'env.DB_URL', value: 'postgres://db:5432/orders', line: 12 },
      { key: 'env.BILLING_URL', value: 'http://billing.shop.svc:8080', line: 18 },
      { key: 'env.API_TOKEN', value: MASK, line: 20 },
      { key: 'k8s.service', value: 'order-gateway', line: 31 },
      { key: 'k8s.service', value: 'billing', line: 44 },
    ]);
  });

  test('a Helm template document that is not YAML is skipped, the others still read', async () => {
    expect((await facts('helm-deployment.yaml')).properties).toEqual([
      { key: 'k8s.service', value: 'static-svc', line: 12 },
    ]);
  });

  test('a CI workflow with env maps and service containers is neither compose nor Kubernetes', async () => {
    expect(await facts('workflow.yml')).toEqual({
      language: 'yaml',
      symbols: [],
      imports: [],
      contracts: [],
    });
  });

  test('`services:` without image or build outside a compose file is not compose', async () => {
    const source = 'services:\n  billing:\n    environment:\n      BILLING_URL: http://x\n';
    expect((await facts('values.yaml', source)).properties).toBeUndefined();
    expect((await facts('compose.override.yaml', source)).properties).toEqual([
      { key: 'compose.service', value: 'billing', line: 2 },
      { key: 'env.BILLING_URL', value: 'http://x', line: 4 },
    ]);
  });

  test('merge-key bombs exhaust the walk budget quickly', () => {
    const levels = ['a: &a {k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8}'];
    for (let i = 1; i < 12; i += 1) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} {<<: [${Array(8).fill(`*${prev}`).join(', ')}]}`);
    }
    const source = `${levels.join('\n')}\nservices:\n  web:\n    image: x\n    environment: *l\n`;
    const started = performance.now();
    expect(() => extractYaml({ path: 'docker-compose.yml', language: 'yaml', source })).toThrow(/budget/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
