import type { LanguageSpec } from '../language-spec.js';

export const rubyLanguage: LanguageSpec = {
  id: 'ruby',
  extensions: ['.rb'],
  grammar: { file: 'tree-sitter-ruby.wasm', from: 'tree-sitter-ruby/tree-sitter-ruby.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractRuby),
};
