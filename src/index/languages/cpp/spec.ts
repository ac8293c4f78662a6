import type { ImportRules, LanguageSpec } from '../language-spec.js';
import { dirOf, slash } from '../shared/import-paths.js';
import { CIncludes } from './resolve-imports.js';

const includes: ImportRules = {
  family: 'c',
  scope: (file) => dirOf(slash(file.absolutePath)),
  create: ({ byPath, inFamily }) => {
    const resolver = new CIncludes(byPath, inFamily);
    return (file, fact) => resolver.resolve(file, fact.source);
  },
};

export const cppLanguage: LanguageSpec = {
  id: 'cpp',
  calls: {
    receiverTypes: 'parameters, locals, file variables, same-file class fields, new',
    supertypes: 'base classes',
  },
  // `.h` is shared by C and C++; the C++ grammar parses C headers well enough for declarations.
  extensions: ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx', '.h'],
  grammar: { file: 'tree-sitter-cpp.wasm', from: 'tree-sitter-cpp/tree-sitter-cpp.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractCpp),
  imports: includes,
};

export const cLanguage: LanguageSpec = {
  id: 'c',
  calls: { receiverTypes: 'parameters, locals, file variables' },
  extensions: ['.c'],
  grammar: { file: 'tree-sitter-c.wasm', from: 'tree-sitter-c/tree-sitter-c.wasm' },
  extractor: () => import('./extract.js').then((m) => m.extractC),
  imports: includes,
};
