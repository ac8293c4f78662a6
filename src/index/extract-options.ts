import type { MeshConfig } from '../core/config-schema.js';
import type { ExtractOptions } from './languages/extractor.js';

/** What extraction needs from the config: the custom contract conventions, the docs filter, call sites or not. */
export function extractOptionsOf(config: Pick<MeshConfig, 'contracts' | 'docs' | 'code'>): ExtractOptions {
  return {
    patterns: config.contracts.patterns.map((p) => ({
      name: p.name,
      kind: p.kind,
      regex: p.regex,
      targetGroup: p.target_group,
      ...(p.file_pattern !== undefined ? { filePattern: p.file_pattern } : {}),
      ...(p.consumer_group !== undefined ? { consumerGroup: p.consumer_group } : {}),
    })),
    sanitizeDocs: config.docs.sanitize_prompt_injections,
    ...(config.code.call_graph ? {} : { calls: false }),
  };
}
