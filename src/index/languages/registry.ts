/**
 * The one list of languages. Each entry is declared in its language's folder (`<lang>/spec.ts`); the crawler,
 * the guard, the parse workers, import resolution, the build script (grammars) and the operations read this
 * list, so adding a language is one folder and one entry here. The order decides which file-name rule wins
 * when two match (`openapi.yaml` is OpenAPI before it is YAML).
 */
import type { LanguageId } from '../facts.js';
import { cLanguage, cppLanguage } from './cpp/spec.js';
import { csharpLanguage } from './csharp/spec.js';
import { elixirLanguage } from './elixir/spec.js';
import type { Extractor } from './extractor.js';
import { goLanguage } from './go/spec.js';
import { javaLanguage } from './java/spec.js';
import { kotlinLanguage } from './kotlin/spec.js';
import type { LanguageSpec } from './language-spec.js';
import { markdownLanguage } from './markdown/spec.js';
import { mavenLanguage } from './maven/spec.js';
import { luaLanguage } from './lua/spec.js';
import { nginxLanguage } from './nginx/spec.js';
import { asyncapiLanguage, openapiLanguage } from './openapi/spec.js';
import { phpLanguage } from './php/spec.js';
import { protoLanguage } from './proto/spec.js';
import { pythonLanguage } from './python/spec.js';
import { rubyLanguage } from './ruby/spec.js';
import { rustLanguage } from './rust/spec.js';
import { scalaLanguage } from './scala/spec.js';
import { springLanguage } from './spring/spec.js';
import { javascriptLanguage, tsxLanguage, typescriptLanguage } from './typescript/spec.js';
import { yamlLanguage } from './yaml/spec.js';

export const LANGUAGES: readonly LanguageSpec[] = [
  typescriptLanguage,
  tsxLanguage,
  javascriptLanguage,
  goLanguage,
  javaLanguage,
  kotlinLanguage,
  pythonLanguage,
  rustLanguage,
  csharpLanguage,
  cppLanguage,
  cLanguage,
  rubyLanguage,
  phpLanguage,
  scalaLanguage,
  elixirLanguage,
  protoLanguage,
  openapiLanguage,
  asyncapiLanguage,
  springLanguage,
  mavenLanguage,
  yamlLanguage,
  nginxLanguage,
  luaLanguage,
  markdownLanguage,
];

const byId = new Map<LanguageId, LanguageSpec>();
const byExtension = new Map<string, LanguageId>();
for (const spec of LANGUAGES) {
  if (byId.has(spec.id)) throw new Error(`language ${spec.id} is registered twice`);
  byId.set(spec.id, spec);
  for (const extension of spec.extensions) {
    if (byExtension.has(extension)) throw new Error(`extension ${extension} is claimed by two languages`);
    byExtension.set(extension, spec.id);
  }
}
const nameRules = LANGUAGES.flatMap((spec) => (spec.fileNames ?? []).map((rule) => ({ rule, id: spec.id })));

/** The registered spec of `language`, or undefined for an id no longer registered (an old cache entry). */
export function languageSpec(language: LanguageId | undefined): LanguageSpec | undefined {
  return language === undefined ? undefined : byId.get(language);
}

/** Every distinct grammar the list refers to, sorted by file name. */
export const GRAMMARS: readonly { readonly file: string; readonly from: string }[] = [
  ...new Map(LANGUAGES.flatMap((spec) => (spec.grammar ? [[spec.grammar.file, spec.grammar]] : []))).values(),
].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

/** Every distinct grammar file name, sorted. */
export const GRAMMAR_FILES: readonly string[] = GRAMMARS.map((grammar) => grammar.file);

/**
 * The language of a file from its root-relative path (either separator), or undefined when no extractor
 * cares about it. Matching is case-insensitive: `README.MD` and `Main.JAVA` exist in real repositories.
 */
export function languageOf(relativePath: string): LanguageId | undefined {
  const slash = Math.max(relativePath.lastIndexOf('/'), relativePath.lastIndexOf('\\'));
  const name = relativePath.slice(slash + 1).toLowerCase();
  for (const { rule, id } of nameRules) if (rule.test(name)) return id;
  const dot = name.lastIndexOf('.');
  // A leading dot is a hidden file with no extension (`.ts` alone is not a TypeScript file).
  if (dot <= 0) return undefined;
  return byExtension.get(name.slice(dot));
}

/** The grammar file that parses `language`, or undefined when the language has no tree-sitter grammar. */
export function grammarOf(language: LanguageId): string | undefined {
  return byId.get(language)?.grammar?.file;
}

const loaded = new Map<LanguageId, Promise<Extractor | undefined>>();

/** The extractor of `language`, loaded once; a language without one is indexed with empty facts. */
export function extractorOf(language: LanguageId): Promise<Extractor | undefined> {
  let extractor = loaded.get(language);
  if (extractor === undefined) {
    extractor = byId.get(language)?.extractor?.() ?? Promise.resolve(undefined);
    loaded.set(language, extractor);
  }
  return extractor;
}
