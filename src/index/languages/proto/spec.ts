import type { LanguageSpec } from '../language-spec.js';

/** Parsed by protobufjs in the extractor: there is no tree-sitter grammar for `.proto`. */
export const protoLanguage: LanguageSpec = {
  id: 'proto',
  extensions: ['.proto'],
  extractor: () => import('./extract.js').then((m) => m.extractProto),
  grpcSchema: true,
};
