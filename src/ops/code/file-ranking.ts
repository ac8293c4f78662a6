/**
 * What makes one file a better answer than another with an equally good name match: hand-written code
 * before generated stubs (an agent asked for `CartService` wants the class, not `demo_pb2_grpc.py`), and
 * one entry for a file copied verbatim into several roots (the same `demo.proto` vendored by five services)
 * that names where the copies are.
 */
import type { IndexedFile } from '../../index/reader.js';

/**
 * Folds hits on byte-identical files (same content hash) into the first, best-ranked one, which lists the
 * others as `copies`. The order of the first appearances is kept.
 */
export function foldIdentical<T extends { readonly file: IndexedFile }>(
  hits: readonly T[],
): (T & { readonly copies: readonly IndexedFile[] })[] {
  const byHash = new Map<string, T & { copies: IndexedFile[] }>();
  const kept: (T & { copies: IndexedFile[] })[] = [];
  for (const hit of hits) {
    const first = byHash.get(hit.file.hash);
    if (first) {
      first.copies.push(hit.file);
      continue;
    }
    const entry = { ...hit, copies: [] as IndexedFile[] };
    byHash.set(hit.file.hash, entry);
    kept.push(entry);
  }
  return kept;
}
