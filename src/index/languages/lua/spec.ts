import type { LanguageSpec } from '../language-spec.js';

/**
 * Lua, read for what it says about HTTP traffic: wrk and wrk2 load scripts (`wrk.format(method, path, …)`).
 * No grammar is loaded; the scripts are read line by line (extract.ts).
 */
export const luaLanguage: LanguageSpec = {
  id: 'lua',
  extensions: ['.lua'],
  prose: false,
  extractor: () => import('./extract.js').then((m) => m.extractLua),
  fence: 'lua',
};
