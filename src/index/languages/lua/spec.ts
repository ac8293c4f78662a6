import type { LanguageSpec } from '../language-spec.js';

/**
 * Lua: declarations, `require` imports and call sites from the tree-sitter grammar, and the HTTP requests of
 * wrk and wrk2 load scripts (`wrk.format(method, path, …)`), read line by line (wrk.ts).
 */
export const luaLanguage: LanguageSpec = {
  id: 'lua',
  calls: { receiverTypes: 'require-bound modules, tables of the file' },
  extensions: ['.lua'],
  grammar: {
    file: 'tree-sitter-lua.wasm',
    from: '@tree-sitter-grammars/tree-sitter-lua/tree-sitter-lua.wasm',
  },
  prose: false,
  extractor: () => import('./extract.js').then((m) => m.extractLua),
  fence: 'lua',
};
