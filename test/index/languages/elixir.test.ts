/**
 * The Elixir golden cases (test/golden/elixir), checked with the grammar from its npm package until the
 * golden runner covers every language folder: each case's expected.json must equal the extractor's facts,
 * and a `not-` case must yield no contract.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { extractElixir } from '../../../src/index/languages/elixir/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const casesDir = path.join(root, 'test/golden/elixir');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-elixir');
const CASE_FILES = new Set(['expected.json', 'options.json']);

function inputFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((file) => !CASE_FILES.has(file) && statSync(path.join(dir, file)).isFile())
    .sort();
}

async function extractCase(dir: string): Promise<Record<string, FileFacts>> {
  const facts: Record<string, FileFacts> = {};
  for (const file of inputFiles(dir)) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    const outcome = await parseFile(
      { path: file, language: 'elixir', source },
      { grammarsDir, extractors: { elixir: extractElixir } },
    );
    if (outcome.kind !== 'parsed')
      throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
    facts[file] = outcome.facts;
  }
  return facts;
}

const cases = readdirSync(casesDir)
  .filter((name) => statSync(path.join(casesDir, name)).isDirectory())
  .sort();

describe('elixir golden cases', () => {
  test.each(cases)('%s', async (name) => {
    const dir = path.join(casesDir, name);
    const facts = await extractCase(dir);
    expect(Object.keys(facts).length).toBeGreaterThan(0);
    if (name.startsWith('not-')) {
      for (const [file, fileFacts] of Object.entries(facts))
        expect(fileFacts.contracts, `${file} is a look-alike and must yield no contract`).toEqual([]);
    }
    const expected = readFileSync(path.join(dir, 'expected.json'), 'utf8');
    expect(facts).toEqual(JSON.parse(expected));
    // The golden runner compares text: the file must also be the facts as serialised.
    expect(`${JSON.stringify(facts, null, 2)}\n`).toBe(expected);
  });
});
