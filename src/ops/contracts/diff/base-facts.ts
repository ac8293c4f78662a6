/**
 * A changed file as it was at the base revision: its text read from git in memory and parsed by the same
 * extractor that indexed the working-tree version, so both sides are compared as facts.
 */
import type { FileFacts } from '../../../index/facts.js';
import { GUARD_LIMITS } from '../../../index/guard.js';
import { languageOf } from '../../../index/languages/registry.js';
import { parseFile } from '../../../index/parse/parser.js';
import { showAtCommit } from '../git-show.js';
import type { ChangedFile } from './working-tree-diff.js';

export type BaseVersion =
  | { readonly kind: 'absent' }
  | { readonly kind: 'facts'; readonly text: string; readonly facts: FileFacts }
  /** Unreadable, too large or unparsable: the file's declarations and contracts are not compared. */
  | { readonly kind: 'unknown'; readonly reason: string };

/** The base version of `file` at `commit`, parsed. */
export async function baseVersion(file: ChangedFile, commit: string, signal: AbortSignal): Promise<BaseVersion> {
  if (file.status === 'added') return { kind: 'absent' };
  const language = languageOf(file.path);
  if (language === undefined) return { kind: 'unknown', reason: 'no extractor reads this kind of file' };
  const blob = await showAtCommit(file.location, commit, GUARD_LIMITS.maxSchemaBytes, signal);
  if (blob.kind === 'absent') return { kind: 'absent' };
  if (blob.kind === 'too_large') return { kind: 'unknown', reason: 'the base version is too large to parse' };
  if (blob.kind === 'failed') return { kind: 'unknown', reason: blob.reason };
  const parsed = await parseFile({ path: file.path, language, source: blob.text });
  if (parsed.kind === 'failed') return { kind: 'unknown', reason: `the base version failed to parse (${parsed.reason})` };
  return { kind: 'facts', text: blob.text, facts: parsed.facts };
}
