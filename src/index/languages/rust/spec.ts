import type { LanguageSpec } from '../language-spec.js';

export const rustLanguage: LanguageSpec = {
  id: 'rust',
  calls: {
    receiverTypes: 'parameters, lets, struct fields, Type::f',
    supertypes: 'impl Trait for, trait bounds',
  },
  extensions: ['.rs'],
  grammar: { file: 'tree-sitter-rust.wasm', from: 'tree-sitter-rust/tree-sitter-rust.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractRust),
};
