// The properties of Spring configuration files are golden cases (test/golden/spring); this file keeps the
// failures and budgets a fact file cannot show.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { extractSpring } from '../../../src/index/languages/spring/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('an alias bomb fails fast on the output budget instead of expanding', async () => {
  const source = readFileSync(path.join(root, 'test/fixtures/languages/spring/application-bomb.yml'), 'utf8');
  const parse = () =>
    parseFile(
      { path: 'application-bomb.yml', language: 'spring', source },
      { extractors: { spring: extractSpring } },
    );
  // The first call also compiles the YAML reader; an expanding bomb would be slow on every call, so time the second.
  await parse();
  const started = performance.now();
  const outcome = await parse();
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
