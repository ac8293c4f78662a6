import type { LanguageSpec } from '../language-spec.js';
import { jvmImports } from '../shared/jvm/import-rules.js';

export const javaLanguage: LanguageSpec = {
  id: 'java',
  calls: { receiverTypes: 'fields, parameters, locals, new', supertypes: 'extends, implements' },
  extensions: ['.java'],
  grammar: { file: 'tree-sitter-java.wasm', from: 'tree-sitter-java/tree-sitter-java.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractJava),
  imports: jvmImports,
  bodyLayout: 'braces-included',
};
