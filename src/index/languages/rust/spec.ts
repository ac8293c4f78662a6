import type { LanguageSpec } from '../language-spec.js';

export const rustLanguage: LanguageSpec = {
  id: 'rust',
  extensions: ['.rs'],
  grammar: { file: 'tree-sitter-rust.wasm', from: 'tree-sitter-rust/tree-sitter-rust.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractRust),
};
