import type { LanguageSpec } from '../language-spec.js';

export const scalaLanguage: LanguageSpec = {
  id: 'scala',
  calls: { receiverTypes: 'fields, parameters, vals, new', supertypes: 'extends, with' },
  extensions: ['.scala', '.sc'],
  grammar: { file: 'tree-sitter-scala.wasm', from: 'tree-sitter-scala/tree-sitter-scala.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractScala),
  bodyLayout: 'braces-included',
};
