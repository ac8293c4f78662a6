import type { LanguageSpec } from '../language-spec.js';

export const phpLanguage: LanguageSpec = {
  id: 'php',
  extensions: ['.php'],
  grammar: { file: 'tree-sitter-php.wasm', from: 'tree-sitter-php/tree-sitter-php.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractPhp),
};
