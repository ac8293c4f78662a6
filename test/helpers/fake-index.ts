import type { IndexReader, IndexStatus } from '../../src/index/reader.js';

/** An index that reports a fixed status; for tests of the platform that must not depend on the engine. */
export function fakeIndex(overrides: Partial<IndexStatus> = {}): IndexReader {
  const status: IndexStatus = {
    workspace: 'fake',
    roots: [{ name: 'svc', path: '/tmp/fake/svc' }],
    phase: 'not_started',
    generation: 0,
    files: 0,
    byLanguage: {},
    noGrammar: 0,
    rejected: [],
    symbols: 0,
    contracts: 0,
    edges: 0,
    docSections: 0,
    ...overrides,
  };
  return {
    status: () => status,
    snapshot: () => undefined,
    rescan: async () => {
      throw new Error('not in this fake');
    },
  };
}
