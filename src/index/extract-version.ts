/**
 * Facts of another version of a file (its text at a git revision, say), extracted exactly as the index
 * extracts the file on disk: the same extractor, the workspace's settings and the same size limit. What an
 * operation compares with the indexed version must have been read the same way, or every fact the settings
 * add (custom conventions) would look changed.
 */
import type { ExtractOptions } from './languages/extractor.js';
import { languageOf } from './languages/registry.js';
import { GUARD_LIMITS } from './guard.js';
import { parseFile } from './parse/parser.js';
import type { ExtractedVersion } from './reader.js';

export async function extractVersion(
  relativePath: string,
  source: string,
  options: ExtractOptions | undefined,
): Promise<ExtractedVersion> {
  const language = languageOf(relativePath);
  if (language === undefined) return { kind: 'unsupported' };
  if (Buffer.byteLength(source, 'utf8') > GUARD_LIMITS.maxSchemaBytes)
    return { kind: 'failed', reason: `it is over the ${GUARD_LIMITS.maxSchemaBytes}-byte limit` };
  const parsed = await parseFile(
    { path: relativePath, language, source },
    options === undefined ? {} : { options },
  );
  if (parsed.kind === 'failed') return { kind: 'failed', reason: `it failed to parse (${parsed.reason})` };
  return { kind: 'facts', facts: parsed.facts };
}
