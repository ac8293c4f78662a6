import type { LanguageSpec } from '../language-spec.js';

/**
 * Spring Boot and Quarkus configuration files, and MicroProfile Config's `microprofile-config.properties`:
 * their properties feed value resolution and topics (`mp.messaging.*` channels, Spring Cloud Stream bindings).
 */
export const springLanguage: LanguageSpec = {
  id: 'spring',
  configuration: true,
  extensions: [],
  fileNames: [
    /^application.*\.(ya?ml|properties)$/,
    /^bootstrap.*\.(ya?ml|properties)$/,
    /^microprofile-config\.properties$/,
  ],
  hashComments: true,
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractSpring),
  fence: 'yaml',
};
