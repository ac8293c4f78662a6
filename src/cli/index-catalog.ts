import { displayPath } from '../ops/shared/workspace-paths.js';
import { noteKeysOf, type IndexCatalog } from '../server/catalog.js';
import type { LazyNotes } from './lazy-notes.js';
import type { LazyIndex } from './lazy-index.js';

/** Contract kinds worth completing: what `contracts impact` and `code search` take as a target. */
const CONTRACT_KINDS = ['grpc_service', 'grpc_method', 'topic', 'http_route'] as const;

const sorted = (names: Iterable<string>): string[] =>
  [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The names the installed snapshot holds, for completions and the resource list; empty before the first
 * snapshot. Each list is computed once per snapshot generation. Note keys come from the notes store, read
 * on each request (another process may have written one since).
 */
export function indexCatalog(index: LazyIndex, notes?: LazyNotes): IndexCatalog {
  const memo = new Map<string, { generation: number; names: string[] }>();
  const cached = (key: string, build: () => Iterable<string>): readonly string[] => {
    const snapshot = index.snapshot();
    if (!snapshot) return [];
    const hit = memo.get(key);
    if (hit?.generation === snapshot.generation) return hit.names;
    const names = sorted(build());
    memo.set(key, { generation: snapshot.generation, names });
    return names;
  };
  return {
    noteKeys: noteKeysOf(notes?.open),
    // Loaded on first use: the git runner stays off the start-up path.
    revisions: async () =>
      (await import('./revision-names.js')).revisionNames(index.snapshot()?.roots.map((r) => r.path) ?? []),
    services: () =>
      cached('services', () => {
        const snapshot = index.snapshot();
        if (!snapshot) return [];
        const fromModel = snapshot.serviceModel().entries.flatMap((e) => e.names.map((n) => n.name));
        return [...snapshot.roots.map((r) => r.name), ...snapshot.services.values(), ...fromModel];
      }),
    contracts: () =>
      cached('contracts', () => {
        const graph = index.snapshot()?.contractGraph();
        return graph ? CONTRACT_KINDS.flatMap((kind) => graph.nodesOfKind(kind).map((n) => n.name)) : [];
      }),
    documents: () =>
      cached('documents', () => {
        const snapshot = index.snapshot();
        if (!snapshot) return [];
        return snapshot.files
          .filter((f) => (f.facts.sections?.length ?? 0) > 0)
          .map((f) => displayPath(snapshot.roots, f.root, f.path));
      }),
  };
}
