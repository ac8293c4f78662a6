/**
 * A changed file as it was at the base revision: its text read from git in memory and extracted by the
 * index exactly as the working-tree version was, so both sides are compared as facts.
 */
import type { FileFacts, IndexReader } from '../../../index/reader.js';
import { showAtCommit } from '../git-show.js';
import { MAX_PROTO_BYTES } from '../wire-check.js';
import type { ChangedFile } from './working-tree-diff.js';

export type BaseVersion =
  | { readonly kind: 'absent' }
  /** A kind of file no extractor reads (its changes hold no declarations or contracts). */
  | { readonly kind: 'unsupported' }
  | { readonly kind: 'facts'; readonly text: string; readonly facts: FileFacts }
  /** Unreadable, too large or unparsable: the file's declarations and contracts are not compared. */
  | { readonly kind: 'unknown'; readonly reason: string; readonly text?: string };

/** The base version of `file` at `commit`, extracted. */
export async function baseVersion(
  index: IndexReader,
  file: ChangedFile,
  commit: string,
  signal: AbortSignal,
): Promise<BaseVersion> {
  if (file.status === 'added') return { kind: 'absent' };
  const blob = await showAtCommit(file.location, commit, MAX_PROTO_BYTES, signal);
  if (blob.kind === 'absent') return { kind: 'absent' };
  if (blob.kind === 'too_large')
    return { kind: 'unknown', reason: 'the base version is too large to extract' };
  if (blob.kind === 'failed') return { kind: 'unknown', reason: blob.reason };
  if (!index.extractVersion)
    return {
      kind: 'unknown',
      reason: 'this index cannot extract another version of a file',
      text: blob.text,
    };
  const extracted = await index.extractVersion(file.path, blob.text);
  if (extracted.kind === 'unsupported') return { kind: 'unsupported' };
  if (extracted.kind === 'failed')
    return { kind: 'unknown', reason: `the base version: ${extracted.reason}`, text: blob.text };
  return { kind: 'facts', text: blob.text, facts: extracted.facts };
}
