import type { LanguageSpec } from '../language-spec.js';

export const yamlLanguage: LanguageSpec = {
  id: 'yaml',
  configuration: true,
  extensions: ['.yml', '.yaml'],
  hashComments: true,
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractYaml),
};
