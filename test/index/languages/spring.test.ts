import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractSpring } from '../../../src/index/languages/spring/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/languages/spring');
const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
const MASK = '[REDACTED_SECRET]';

async function facts(name: string, source = read(name)): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: `services/billing/src/main/resources/${name}`, language: 'spring', source },
    { extractors: { spring: extractSpring } },
  );
  if (outcome.kind !== 'no-grammar') throw new Error(`unexpected outcome ${JSON.stringify(outcome)}`);
  return outcome.facts;
}

describe('Spring configuration', () => {
  test('application.yml: dotted keys, list indexes, every document kept, secrets masked, exact lines', async () => {
    expect(await facts('application.yml')).toEqual({
      language: 'spring',
      symbols: [],
      imports: [],
      contracts: [],
      properties: [
        { key: 'server.port', value: '8080', line: 3 },
        { key: 'spring.application.name', value: 'billing-saga', line: 6 },
        { key: 'spring.datasource.url', value: 'jdbc:postgresql://db:5432/billing', line: 8 },
        { key: 'spring.datasource.username', value: 'billing', line: 9 },
        { key: 'spring.datasource.password', value: MASK, line: 10 },
        { key: 'spring.kafka.bootstrap-servers[0]', value: 'kafka-1:9092', line: 13 },
        { key: 'spring.kafka.bootstrap-servers[1]', value: 'kafka-2:9092', line: 14 },
        { key: 'shop.topics.orders', value: 'order-created-topic', line: 17 },
        { key: 'shop.topics.invoices', value: 'invoice-generated-topic', line: 18 },
        { key: 'shop.retry.delays[0]', value: '100', line: 20 },
        { key: 'shop.retry.delays[1]', value: '200', line: 20 },
        { key: 'shop.retry.ratio', value: '1.50', line: 21 },
        { key: 'shop.retry.enabled', value: 'true', line: 22 },
        // A block scalar that looks like YAML is one string value, not keys.
        { key: 'shop.note', value: 'topics:\n  fake: not-a-topic\n', line: 23 },
        { key: 'shop.empty', value: '', line: 26 },
        { key: 'shop.defaults.timeout', value: '30s', line: 28 },
        { key: 'shop.payment-client.timeout', value: '30s', line: 30 },
        { key: 'shop.payment-client.url', value: '${PAYMENT_URL:http://payment:8080}', line: 31 },
        { key: 'spring.config.activate.on-profile', value: 'prod', line: 36 },
        { key: 'spring.datasource.url', value: 'jdbc:postgresql://prod-db:5432/billing', line: 38 },
        // A reference names the secret, it does not hold it.
        { key: 'spring.datasource.password', value: '${DB_PASSWORD}', line: 39 },
        { key: 'shop.topics.orders', value: 'prod.order-created', line: 42 },
      ],
    });
  });

  test('application.properties: separators, continuations, escapes, comments, exact lines', async () => {
    expect((await facts('application.properties')).properties).toEqual([
      { key: 'server.port', value: '8081', line: 3 },
      { key: 'spring.application.name', value: 'order-gateway', line: 4 },
      { key: 'shop.topics.orders', value: 'order-created-topic', line: 5 },
      { key: 'shop.greeting', value: 'Hello World', line: 6 },
      { key: 'shop.long-list', value: 'a,b,c', line: 7 },
      { key: 'spring.datasource.password', value: MASK, line: 10 },
      { key: 'shop.path', value: 'C:\\data\\orders', line: 11 },
      { key: 'shop.escaped=key', value: 'value', line: 12 },
      { key: 'shop.empty', value: '', line: 13 },
      { key: 'spring.config.activate.on-profile', value: 'prod', line: 16 },
      { key: 'shop.topics.orders', value: 'prod.order-created', line: 17 },
    ]);
  });

  test('a masked default inside a placeholder keeps the reference', async () => {
    const result = await facts('application.yml', 'app:\n  jwt-secret: ${JWT_SECRET:dev-only-secret}\n');
    expect(result.properties).toEqual([{ key: 'app.jwt-secret', value: `\${JWT_SECRET:${MASK}}`, line: 2 }]);
  });

  test('an alias bomb fails fast on the output budget instead of expanding', async () => {
    const started = performance.now();
    const outcome = await parseFile(
      { path: 'application-bomb.yml', language: 'spring', source: read('application-bomb.yml') },
      { extractors: { spring: extractSpring } },
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(outcome).toEqual({
      kind: 'failed',
      reason: 'extractor failed: flattened properties exceed 8× the file size (alias bomb?)',
      timedOut: false,
    });
  });

  test('a bomb of empty collections (no output) exhausts the walk budget', () => {
    const levels = ['a: &a [[], [], [], [], [], [], [], [], []]'];
    for (let i = 1; i < 10; i += 1) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    const started = performance.now();
    expect(() =>
      extractSpring({ path: 'application.yml', language: 'spring', source: levels.join('\n') }),
    ).toThrow(/budget/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test('invalid YAML fails the file', () => {
    expect(() =>
      extractSpring({ path: 'application.yml', language: 'spring', source: 'a: [1, 2\nb: 3\n' }),
    ).toThrow(/^invalid YAML: /);
  });
});
