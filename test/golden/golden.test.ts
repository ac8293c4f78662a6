/**
 * Golden extraction fixtures: each `test/golden/<language>/<case>/` holds input files and the facts they must
 * yield in `expected.json`. `npm run golden -- --update` rewrites the expected files from the extractors, so a
 * change of behaviour is reviewed as a diff of those files.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { languageOf } from '../../src/index/languages/registry.js';
import { extractCase, inputFiles, listCases, REGISTERED_LANGUAGES } from './extract.js';

const goldenDir = path.dirname(fileURLToPath(import.meta.url));
const cases = listCases(goldenDir);

describe('golden extraction', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, goldenCase) => {
    const facts = await extractCase(goldenCase.dir);
    expect(Object.keys(facts).length, 'a case needs at least one input file').toBeGreaterThan(0);
    if (goldenCase.negative) {
      for (const [file, fileFacts] of Object.entries(facts))
        expect(fileFacts.contracts, `${file} is a look-alike and must yield no contract`).toEqual([]);
    }
    await expect(`${JSON.stringify(facts, null, 2)}\n`).toMatchFileSnapshot(
      path.join(goldenCase.dir, 'expected.json'),
    );
  });

  test('every registered language has a golden case', () => {
    const covered = new Set<string>(
      cases.flatMap((c) => inputFiles(c.dir).map((file) => languageOf(file) ?? '')),
    );
    const missing = REGISTERED_LANGUAGES.filter((id) => !covered.has(id));
    expect(missing).toEqual([]);
  });
});
