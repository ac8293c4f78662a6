import type { LanguageSpec } from '../language-spec.js';

/** Spring Boot configuration files: their properties feed value resolution and Kafka topics. */
export const springLanguage: LanguageSpec = {
  id: 'spring',
  extensions: [],
  fileNames: [/^application.*\.(ya?ml|properties)$/, /^bootstrap.*\.(ya?ml|properties)$/],
  hashComments: true,
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractSpring),
  fence: 'yaml',
};
