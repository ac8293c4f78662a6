import type { LanguageSpec } from '../language-spec.js';
import { dirOf, slash } from '../shared/import-paths.js';
import { PythonImports } from './resolve-imports.js';

export const pythonLanguage: LanguageSpec = {
  id: 'python',
  calls: {
    receiverTypes: 'annotations, attributes assigned a class, class calls',
    supertypes: 'class bases',
  },
  extensions: ['.py', '.pyi'],
  grammar: { file: 'tree-sitter-python.wasm', from: 'tree-sitter-python/tree-sitter-python.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractPython),
  imports: {
    family: 'py',
    scope: (file, fact) => (fact.source.startsWith('.') ? dirOf(slash(file.absolutePath)) : file.root),
    byNames: true,
    create: ({ files, byPath, inFamily }) => {
      const resolver = new PythonImports(files, byPath, inFamily);
      return (file, fact) => resolver.resolve(file, fact);
    },
  },
  namedImports: true,
  moduleName: (pathWithoutExtension) => pathWithoutExtension.replace(/\//g, '.'),
  bodyLayout: 'indented',
};
