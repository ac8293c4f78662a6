/**
 * An `IndexedFile` for graph tests that hand facts to `reconcile` directly: a root, a root-relative path and
 * the facts it would have yielded (contracts, and any other field of FileFacts).
 */
import { emptyFacts, type ContractFact, type FileFacts } from '../../src/index/facts.js';
import type { IndexedFile } from '../../src/index/snapshot.js';

export function indexedFile(
  root: string,
  path: string,
  facts: Partial<FileFacts> & { readonly contracts?: readonly ContractFact[] } = {},
  language = facts.language ?? 'x',
): IndexedFile {
  return {
    root,
    path,
    absolutePath: `/ws/${root}/${path}`,
    language,
    size: 1,
    mtimeMs: 1,
    hash: `${root}/${path}`,
    outcome: 'parsed',
    facts: { ...emptyFacts(language), ...facts },
  };
}
