import type { LanguageSpec } from '../language-spec.js';

export const csharpLanguage: LanguageSpec = {
  id: 'csharp',
  extensions: ['.cs'],
  grammar: { file: 'tree-sitter-c_sharp.wasm', from: 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractCsharp),
};
