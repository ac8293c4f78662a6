/**
 * A language is one folder under src/index/languages/ with a `spec.ts`, and one entry in the registry.
 * These checks keep the folders and the list in step, and the build's grammars with the list.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { LanguageSpec } from '../../src/index/languages/language-spec.js';
import { GRAMMAR_FILES, GRAMMARS, LANGUAGES, languageSpec } from '../../src/index/languages/registry.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const languagesDir = path.join(root, 'src/index/languages');
/** Helpers shared by several languages; every other folder is a language. */
const SHARED_FOLDER = 'shared';

const isSpec = (value: unknown): value is LanguageSpec =>
  typeof value === 'object' && value !== null && 'id' in value && 'extensions' in value;

const languageFolders = readdirSync(languagesDir)
  .filter((entry) => entry !== SHARED_FOLDER && statSync(path.join(languagesDir, entry)).isDirectory())
  .sort();

async function specsOf(folder: string): Promise<LanguageSpec[]> {
  const module = (await import(pathToFileURL(path.join(languagesDir, folder, 'spec.ts')).href)) as Record<
    string,
    unknown
  >;
  return Object.values(module).filter(isSpec);
}

describe('language registry', () => {
  test.each(languageFolders)(
    'folder %s declares its languages in spec.ts, all registered',
    async (folder) => {
      expect(existsSync(path.join(languagesDir, folder, 'spec.ts')), `${folder}/spec.ts`).toBe(true);
      const specs = await specsOf(folder);
      expect(specs.length, `${folder}/spec.ts exports no LanguageSpec`).toBeGreaterThan(0);
      for (const spec of specs)
        expect(LANGUAGES.includes(spec), `${spec.id} (${folder}) is not in the registry`).toBe(true);
    },
  );

  test('every registered language comes from a language folder', async () => {
    const declared = new Set<LanguageSpec>();
    for (const folder of languageFolders) for (const spec of await specsOf(folder)) declared.add(spec);
    expect(LANGUAGES.filter((spec) => !declared.has(spec)).map((spec) => spec.id)).toEqual([]);
  });

  test('ids are unique and looked up by id', () => {
    expect(new Set(LANGUAGES.map((spec) => spec.id)).size).toBe(LANGUAGES.length);
    for (const spec of LANGUAGES) expect(languageSpec(spec.id)).toBe(spec);
    expect(languageSpec('cobol')).toBeUndefined();
    expect(languageSpec(undefined)).toBeUndefined();
  });

  test('every grammar ships in its npm package, and the build copies exactly those', () => {
    for (const grammar of GRAMMARS)
      expect(existsSync(path.join(root, 'node_modules', grammar.from)), grammar.from).toBe(true);
    const built = readdirSync(path.join(root, 'dist/grammars')).sort();
    expect(built).toEqual([...GRAMMAR_FILES]);
  });

  test('every language with an extractor loads it', async () => {
    for (const spec of LANGUAGES.filter((s) => s.extractor !== undefined))
      expect(typeof (await spec.extractor?.()), spec.id).toBe('function');
  });
});
