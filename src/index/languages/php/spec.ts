import type { LanguageSpec } from '../language-spec.js';

export const phpLanguage: LanguageSpec = {
  id: 'php',
  calls: {
    receiverTypes: 'typed parameters, properties, promoted constructor parameters, new',
    supertypes: 'extends, implements',
  },
  extensions: ['.php'],
  grammar: { file: 'tree-sitter-php.wasm', from: 'tree-sitter-php/tree-sitter-php.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractPhp),
};
