import type { LanguageSpec } from '../language-spec.js';

export const markdownLanguage: LanguageSpec = {
  id: 'markdown',
  extensions: ['.md', '.mdx', '.markdown'],
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractMarkdown),
  documentation: true,
};
