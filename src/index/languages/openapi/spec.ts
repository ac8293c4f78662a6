import type { LanguageSpec } from '../language-spec.js';

const document = {
  extensions: [],
  hashComments: true,
  prose: true,
  extractor: () => import('./extract.js').then((m) => m.extractOpenApi),
  fence: 'yaml',
} as const;

export const openapiLanguage: LanguageSpec = {
  id: 'openapi',
  fileNames: [/^openapi.*\.(ya?ml|json)$/, /\.openapi\.(ya?ml|json)$/, /^swagger.*\.(ya?ml|json)$/],
  ...document,
};

export const asyncapiLanguage: LanguageSpec = {
  id: 'asyncapi',
  fileNames: [/^asyncapi.*\.(ya?ml|json)$/, /\.asyncapi\.(ya?ml|json)$/],
  ...document,
};
