/**
 * The one place the golden runner turns a case folder into facts: every input file is recognised by the
 * language registry and parsed exactly as the index does it (grammar, extractor, then custom patterns).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FileFacts } from '../../src/index/facts.js';
import type { ExtractOptions } from '../../src/index/languages/extractor.js';
import { languageOf, LANGUAGES } from '../../src/index/languages/registry.js';
import { parseFile } from '../../src/index/parse/parser.js';

/** Files of a case folder that describe the case rather than feed it. */
export const CASE_FILES = new Set(['expected.json', 'options.json']);

export interface GoldenCase {
  /** `<language folder>/<case>`, `/`-separated. */
  readonly name: string;
  readonly dir: string;
  /** Negative case: look-alikes that must yield no contract. */
  readonly negative: boolean;
}

/** The ids of every registered language, for the coverage check. */
export const REGISTERED_LANGUAGES: readonly string[] = LANGUAGES.map((spec) => spec.id);

/** Every `<language folder>/<case>` under `goldenDir`, sorted. */
export function listCases(goldenDir: string): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const language of readdirSync(goldenDir).sort()) {
    const languageDir = path.join(goldenDir, language);
    if (!statSync(languageDir).isDirectory()) continue;
    for (const name of readdirSync(languageDir).sort()) {
      const dir = path.join(languageDir, name);
      if (statSync(dir).isDirectory())
        cases.push({ name: `${language}/${name}`, dir, negative: name.startsWith('not-') });
    }
  }
  return cases;
}

/** The case's input files, root-relative and `/`-separated, sorted. */
export function inputFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const relative = entry.split(path.sep).join('/');
    if (CASE_FILES.has(relative) || !statSync(path.join(dir, entry)).isFile()) continue;
    files.push(relative);
  }
  return files.sort();
}

function optionsOf(dir: string): ExtractOptions | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'options.json'), 'utf8')) as ExtractOptions;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Facts of every input file of the case, keyed by root-relative path in sorted order. */
export async function extractCase(dir: string): Promise<Record<string, FileFacts>> {
  const options = optionsOf(dir);
  const facts: Record<string, FileFacts> = {};
  for (const file of inputFiles(dir)) {
    const language = languageOf(file);
    if (language === undefined) throw new Error(`${file}: no registered language recognises this file`);
    const source = readFileSync(path.join(dir, file), 'utf8');
    const outcome = await parseFile(
      { path: file, language, source },
      options === undefined ? {} : { options },
    );
    if (outcome.kind === 'failed') throw new Error(`${file}: ${outcome.reason}`);
    facts[file] = outcome.facts;
  }
  return facts;
}
