import type { LanguageSpec } from '../language-spec.js';

export const elixirLanguage: LanguageSpec = {
  id: 'elixir',
  extensions: ['.ex', '.exs'],
  grammar: { file: 'tree-sitter-elixir.wasm', from: 'tree-sitter-elixir/tree-sitter-elixir.wasm' },
  hashComments: true,
  extractor: () => import('./extract.js').then((m) => m.extractElixir),
};
