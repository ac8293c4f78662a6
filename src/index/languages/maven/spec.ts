import type { LanguageSpec } from '../language-spec.js';

/** Maven POMs and servlet deployment descriptors: WAR context paths and servlet mappings. */
export const mavenLanguage: LanguageSpec = {
  id: 'maven',
  configuration: true,
  extensions: [],
  fileNames: [/^pom\.xml$/, /^web\.xml$/],
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractMaven),
  fence: 'xml',
};
