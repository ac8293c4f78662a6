import type { IndexStatus, SnapshotReader } from './reader.js';

/** The part of `IndexStatus` that describes what a snapshot holds. */
export type SnapshotCounts = Pick<
  IndexStatus,
  'files' | 'byLanguage' | 'noGrammar' | 'rejected' | 'symbols' | 'contracts' | 'edges' | 'docSections'
>;

/** Counts a snapshot's files and facts (one pass over the files; no derived structure is built). */
export function countSnapshot(snapshot: SnapshotReader | undefined): SnapshotCounts {
  const byLanguage: Record<string, number> = {};
  let symbols = 0;
  let contracts = 0;
  let docSections = 0;
  let noGrammar = 0;
  for (const file of snapshot?.files ?? []) {
    const language = file.language ?? 'other';
    byLanguage[language] = (byLanguage[language] ?? 0) + 1;
    symbols += file.facts.symbols.length;
    contracts += file.facts.contracts.length + (file.facts.protoServices?.length ?? 0);
    docSections += file.facts.sections?.length ?? 0;
    if (file.outcome === 'no-grammar') noGrammar++;
  }
  return {
    files: snapshot?.files.length ?? 0,
    byLanguage,
    noGrammar,
    rejected: snapshot?.rejected ?? [],
    symbols,
    contracts,
    // Counting edges must not build the graph: status is what an agent polls while it waits.
    ...(snapshot?.hasContractGraph() ? { edges: snapshot.contractGraph().edges.length } : {}),
    docSections,
  };
}
