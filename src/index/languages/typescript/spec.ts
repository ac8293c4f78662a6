import type { ImportRules, LanguageSpec } from '../language-spec.js';
import { dirOf, isRelative, slash } from '../shared/import-paths.js';
import { TypeScriptImports } from './resolve-imports.js';

const typescriptImports: ImportRules = {
  family: 'ts',
  scope: (file, fact) => (isRelative(fact.source) ? dirOf(slash(file.absolutePath)) : file.root),
  create: ({ byPath, settings, inFamily }) => {
    const resolver = new TypeScriptImports(byPath, settings, inFamily);
    return (file, fact) => resolver.resolve(file, fact.source);
  },
};

const common = {
  extractor: () => import('./extract.js').then((m) => m.extractTypeScript),
  imports: typescriptImports,
  namedImports: true,
} as const;

export const typescriptLanguage: LanguageSpec = {
  id: 'typescript',
  calls: {
    receiverTypes: 'fields, constructor parameter properties, parameters, locals, new',
    supertypes: 'extends, implements',
  },
  extensions: ['.ts', '.mts', '.cts'],
  grammar: {
    file: 'tree-sitter-typescript.wasm',
    from: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  },
  fence: 'ts',
  ...common,
};

// JavaScript is parsed with the TSX grammar: the TypeScript grammar rejects JSX, and the TSX grammar accepts
// plain JavaScript, so one grammar covers `.js`, `.jsx`, `.mjs` and `.cjs`.
const TSX_GRAMMAR = { file: 'tree-sitter-tsx.wasm', from: 'tree-sitter-typescript/tree-sitter-tsx.wasm' };

export const tsxLanguage: LanguageSpec = {
  id: 'tsx',
  calls: {
    receiverTypes: 'fields, constructor parameter properties, parameters, locals, new',
    supertypes: 'extends, implements',
  },
  extensions: ['.tsx', '.jsx'],
  grammar: TSX_GRAMMAR,
  fence: 'tsx',
  ...common,
};

export const javascriptLanguage: LanguageSpec = {
  id: 'javascript',
  calls: { receiverTypes: 'fields, parameters, locals, new', supertypes: 'extends' },
  extensions: ['.js', '.mjs', '.cjs'],
  grammar: TSX_GRAMMAR,
  fence: 'js',
  ...common,
};
