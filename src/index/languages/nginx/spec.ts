import type { LanguageSpec } from '../language-spec.js';

/**
 * nginx configuration (`nginx.conf`, `conf.d/*.conf`, and the `*.conf.template` files the official image
 * fills with `envsubst`): its `location` blocks proxying to services are gateway routes.
 */
export const nginxLanguage: LanguageSpec = {
  id: 'nginx',
  configuration: true,
  extensions: ['.conf'],
  fileNames: [/\.conf\.(?:template|tmpl|j2)$/],
  hashComments: true,
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractNginx),
  fence: 'nginx',
};
