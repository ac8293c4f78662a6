import type { LanguageSpec } from '../language-spec.js';
import { jvmImports } from '../shared/jvm/import-rules.js';

export const kotlinLanguage: LanguageSpec = {
  id: 'kotlin',
  calls: {
    receiverTypes: 'properties, constructor parameters, parameters, locals, constructor calls',
    supertypes: 'supertype list',
  },
  extensions: ['.kt', '.kts'],
  grammar: {
    file: 'tree-sitter-kotlin.wasm',
    from: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  },
  extractor: () => import('./extract.js').then((m) => m.extractKotlin),
  imports: jvmImports,
  bodyLayout: 'braces-included',
};
