import type { LanguageSpec } from '../language-spec.js';
import { GoImports } from './resolve-imports.js';

export const goLanguage: LanguageSpec = {
  id: 'go',
  calls: {
    receiverTypes: 'parameters, locals, package variables, same-file struct fields, composite literals',
    supertypes: 'embedding',
  },
  extensions: ['.go'],
  grammar: { file: 'tree-sitter-go.wasm', from: 'tree-sitter-go/tree-sitter-go.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractGo),
  imports: {
    family: 'go',
    scope: (file) => file.root,
    create: ({ files, settings, inFamily }) => {
      const resolver = new GoImports(files, settings, inFamily);
      return (_file, fact) => resolver.resolve(fact.source);
    },
  },
  importedByFolder: true,
  structuralInterfaces: true,
};
