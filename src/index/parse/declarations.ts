/**
 * Declarations of a text that is not the indexed file (an older revision of it): parsed in-process by the
 * same grammar and extractor that index the workspace, so both versions are read alike.
 */
import type { LanguageId, SymbolFact } from '../facts.js';
import { parseFile } from './parser.js';

export async function parseDeclarations(job: {
  readonly path: string;
  readonly language: LanguageId;
  readonly source: string;
}): Promise<{ kind: 'parsed'; symbols: readonly SymbolFact[] } | { kind: 'failed'; reason: string }> {
  // Only declarations are compared: call sites are not extracted.
  const outcome = await parseFile(job, { options: { calls: false } });
  return outcome.kind === 'failed'
    ? { kind: 'failed', reason: outcome.reason }
    : { kind: 'parsed', symbols: outcome.facts.symbols };
}
