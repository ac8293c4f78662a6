/**
 * The one list of languages: how a file is recognised and which tree-sitter grammar parses it. Everything
 * else (the crawler's filter, the parser, the extractor list, `doctor`) derives from this table, so a new
 * language starts here.
 */
import type { LanguageId } from '../facts.js';

export interface LanguageSpec {
  readonly id: LanguageId;
  /** Lower-case extensions with the dot, matched against the end of the lower-cased file name. */
  readonly extensions: readonly string[];
  /**
   * Rules on the lower-cased file name that win over every extension: `application-dev.yml` is Spring
   * configuration, not plain YAML.
   */
  readonly fileNames?: readonly RegExp[];
  /** File name of the grammar in the grammars directory (`dist/grammars`); none when another parser is used. */
  readonly grammar?: string;
}

const TYPESCRIPT_GRAMMAR = 'tree-sitter-typescript.wasm';
// JavaScript is parsed with the TSX grammar: the TypeScript grammar rejects JSX, and the TSX grammar
// accepts plain JavaScript, so one grammar covers `.js`, `.jsx`, `.mjs` and `.cjs`.
const TSX_GRAMMAR = 'tree-sitter-tsx.wasm';

// A mapped type over LanguageId makes the compiler reject a language added to `LANGUAGES` without a row.
const SPECS: { readonly [L in LanguageId]: Omit<LanguageSpec, 'id'> } = {
  typescript: { extensions: ['.ts', '.mts', '.cts'], grammar: TYPESCRIPT_GRAMMAR },
  tsx: { extensions: ['.tsx', '.jsx'], grammar: TSX_GRAMMAR },
  javascript: { extensions: ['.js', '.mjs', '.cjs'], grammar: TSX_GRAMMAR },
  go: { extensions: ['.go'], grammar: 'tree-sitter-go.wasm' },
  java: { extensions: ['.java'], grammar: 'tree-sitter-java.wasm' },
  kotlin: { extensions: ['.kt', '.kts'], grammar: 'tree-sitter-kotlin.wasm' },
  python: { extensions: ['.py', '.pyi'], grammar: 'tree-sitter-python.wasm' },
  rust: { extensions: ['.rs'], grammar: 'tree-sitter-rust.wasm' },
  csharp: { extensions: ['.cs'], grammar: 'tree-sitter-c_sharp.wasm' },
  // `.h` is shared by C and C++; the C++ grammar parses C headers well enough for declarations.
  cpp: { extensions: ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx', '.h'], grammar: 'tree-sitter-cpp.wasm' },
  c: { extensions: ['.c'], grammar: 'tree-sitter-c.wasm' },
  ruby: { extensions: ['.rb'], grammar: 'tree-sitter-ruby.wasm' },
  php: { extensions: ['.php'], grammar: 'tree-sitter-php.wasm' },
  scala: { extensions: ['.scala', '.sc'], grammar: 'tree-sitter-scala.wasm' },
  // protobufjs parses `.proto` in the extractor; there is no tree-sitter grammar for it.
  proto: { extensions: ['.proto'] },
  openapi: {
    extensions: [],
    fileNames: [/^openapi.*\.(ya?ml|json)$/, /\.openapi\.(ya?ml|json)$/, /^swagger.*\.(ya?ml|json)$/],
  },
  asyncapi: { extensions: [], fileNames: [/^asyncapi.*\.(ya?ml|json)$/, /\.asyncapi\.(ya?ml|json)$/] },
  spring: {
    extensions: [],
    fileNames: [/^application.*\.(ya?ml|properties)$/, /^bootstrap.*\.(ya?ml|properties)$/],
  },
  yaml: { extensions: ['.yml', '.yaml'] },
  markdown: { extensions: ['.md', '.mdx', '.markdown'] },
};

export const LANGUAGE_TABLE: readonly LanguageSpec[] = Object.entries(SPECS).map(([id, spec]) => ({
  id: id as LanguageId,
  ...spec,
}));

/** Every distinct grammar file the table refers to, sorted. */
export const GRAMMAR_FILES: readonly string[] = [
  ...new Set(LANGUAGE_TABLE.flatMap((spec) => (spec.grammar === undefined ? [] : [spec.grammar]))),
].sort();

const byExtension = new Map<string, LanguageId>();
for (const spec of LANGUAGE_TABLE) {
  for (const extension of spec.extensions) {
    if (byExtension.has(extension)) throw new Error(`extension ${extension} is claimed by two languages`);
    byExtension.set(extension, spec.id);
  }
}
const nameRules = LANGUAGE_TABLE.flatMap((spec) =>
  (spec.fileNames ?? []).map((rule) => ({ rule, id: spec.id })),
);

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
  return SPECS[language].grammar;
}
