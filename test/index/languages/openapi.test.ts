// The facts of OpenAPI and AsyncAPI specs are golden cases (test/golden/openapi); this file keeps what a fact
// file cannot show: failures, budgets and time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { extractOpenApi } from '../../../src/index/languages/openapi/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const extractors = { openapi: extractOpenApi, asyncapi: extractOpenApi };

test('invalid YAML fails the file with the parser reason', async () => {
  const source = readFileSync(path.join(root, 'test/fixtures/languages/openapi/openapi-broken.yaml'), 'utf8');
  const outcome = await parseFile(
    { path: 'api/openapi-broken.yaml', language: 'openapi', source },
    { extractors },
  );
  expect(outcome.kind).toBe('failed');
  if (outcome.kind === 'failed')
    expect(outcome.reason).toMatch(/^extractor failed: invalid openapi document: /);
});

test('an alias bomb is never expanded: the file parses fast', async () => {
  const source = readFileSync(
    path.join(root, 'test/golden/openapi/alias-bomb-not-expanded/api/openapi-bomb.yaml'),
    'utf8',
  );
  const parse = () =>
    parseFile({ path: 'api/openapi-bomb.yaml', language: 'openapi', source }, { extractors });
  // The first call also compiles the YAML reader; an expanded bomb would be slow on every call, so time the second.
  await parse();
  const started = performance.now();
  const outcome = await parse();
  expect(performance.now() - started).toBeLessThan(500);
  expect(outcome.kind).toBe('no-grammar');
});

test('merge keys that multiply exhaust the walk budget instead of memory', () => {
  const levels = ['a: &a {k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8}'];
  for (let i = 1; i < 12; i += 1) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    levels.push(`${name}: &${name} {<<: [${Array(8).fill(`*${prev}`).join(', ')}]}`);
  }
  const source = `openapi: 3.0.0\n${levels.join('\n')}\n<<: *l\npaths: {}\n`;
  const started = performance.now();
  expect(() => extractOpenApi({ path: 'openapi.yaml', language: 'openapi', source })).toThrow(/budget/);
  expect(performance.now() - started).toBeLessThan(2_000);
});
