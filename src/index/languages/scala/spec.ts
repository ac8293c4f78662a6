import type { LanguageSpec } from '../language-spec.js';

export const scalaLanguage: LanguageSpec = {
  id: 'scala',
  extensions: ['.scala', '.sc'],
  grammar: { file: 'tree-sitter-scala.wasm', from: 'tree-sitter-scala/tree-sitter-scala.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractScala),
  bodyLayout: 'braces-included',
};
