import type { LanguageSpec } from '../language-spec.js';

export const csharpLanguage: LanguageSpec = {
  id: 'csharp',
  calls: {
    receiverTypes: 'fields, properties, constructor parameters, parameters, locals, new',
    supertypes: 'base list',
  },
  extensions: ['.cs'],
  grammar: { file: 'tree-sitter-c_sharp.wasm', from: 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractCsharp),
};
