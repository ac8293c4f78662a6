import type { LanguageSpec } from '../language-spec.js';

export const elixirLanguage: LanguageSpec = {
  id: 'elixir',
  calls: { receiverTypes: 'aliased modules, struct literals', supertypes: 'behaviours, use, defimpl' },
  extensions: ['.ex', '.exs'],
  grammar: { file: 'tree-sitter-elixir.wasm', from: 'tree-sitter-elixir/tree-sitter-elixir.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractElixir),
};
