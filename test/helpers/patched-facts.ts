/**
 * Replaces parts of indexed files' facts in an engine's installed snapshot before anything is asked of it:
 * for tests of operations over facts an extractor does not record yet (call sites, supertypes), on real
 * files whose text the operations read.
 */
import type { FileFacts } from '../../src/index/facts.js';
import type { IndexEngine } from '../../src/index/engine.js';

export function patchFacts(engine: IndexEngine, patches: Readonly<Record<string, Partial<FileFacts>>>): void {
  const snapshot = engine.snapshot();
  if (!snapshot) throw new Error('no snapshot to patch');
  for (const [key, patch] of Object.entries(patches)) {
    const [root, ...rest] = key.split('/');
    const file = snapshot.file(root as string, rest.join('/'));
    if (!file) throw new Error(`no indexed file ${key}`);
    // The snapshot's files are plain objects; the patch lands before any derived structure is built.
    (file as { facts: FileFacts }).facts = { ...file.facts, ...patch };
  }
}
