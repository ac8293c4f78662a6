import type { LanguageSpec } from '../language-spec.js';

export const rubyLanguage: LanguageSpec = {
  id: 'ruby',
  calls: {
    receiverTypes: 'variables assigned Foo.new, class-method receivers',
    supertypes: 'superclass, included modules',
  },
  extensions: ['.rb'],
  grammar: { file: 'tree-sitter-ruby.wasm', from: 'tree-sitter-ruby/tree-sitter-ruby.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractRuby),
};
