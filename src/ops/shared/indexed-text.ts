/**
 * An indexed file's current text, masked whole (a line's masking can depend on the lines above it), with
 * whether it still is the content that was indexed: line numbers in the facts are only exact for that one.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IndexedFile } from '../../index/reader.js';
import { maskedLinesOf } from '../../trust/secret-search.js';
import type { MaskedLines } from '../../trust/secret-mask.js';

export interface IndexedText {
  readonly masked: MaskedLines;
  /** The file changed since it was indexed (a reload is pending): facts' lines may be off. */
  readonly stale: boolean;
}

/** The file's masked text, or undefined when it can no longer be read. */
export function readIndexedText(file: IndexedFile): IndexedText | undefined {
  let content: Buffer;
  try {
    content = readFileSync(file.absolutePath);
  } catch {
    return undefined;
  }
  const stale =
    content.length !== file.size || createHash('sha256').update(content).digest('hex') !== file.hash;
  return { masked: maskedLinesOf(content.toString('utf8')), stale };
}

/**
 * Whether the file on disk is no longer the one indexed, by size and modification time (no read): for an
 * answer built from the facts alone.
 */
export function changedSinceIndexed(file: IndexedFile): boolean {
  try {
    const stat = statSync(file.absolutePath);
    return stat.size !== file.size || stat.mtimeMs !== file.mtimeMs;
  } catch {
    return true;
  }
}

/** The note an answer carries when it was built from a file that changed after indexing. */
export const STALE_NOTE =
  'The file changed after it was indexed (a reload is pending); line numbers may be off until it is re-indexed.';
