/**
 * What each changed file changes: its declarations, its contracts, and for a `.proto` the wire check's
 * findings. The working-tree side is the index (so declarations keep the ids the call graph knows them by);
 * the base side is the base version parsed on the spot.
 */
import type { IndexedFile, SnapshotReader } from '../../../index/reader.js';
import type { WireFinding } from '../wire-check/findings.js';
import { baseVersion } from './base-facts.js';
import { contractChanges, type ContractChange } from './contract-changes.js';
import { declarationChanges, type DeclarationChange } from './declaration-changes.js';
import { compareSchemaFile, isSchemaFile } from './wire-changes.js';
import type { ChangedFile, RepositoryDiff } from './working-tree-diff.js';

export interface FileChanges {
  readonly file: ChangedFile;
  /** The indexed working-tree file (absent when deleted, or not indexed). */
  readonly indexed: IndexedFile | undefined;
  readonly declarations: readonly DeclarationChange[];
  readonly contracts: readonly ContractChange[];
  readonly wire: readonly WireFinding[];
  /** Why part of the comparison could not be made. */
  readonly note?: string;
}

async function changesOf(
  snapshot: SnapshotReader,
  file: ChangedFile,
  commit: string,
  signal: AbortSignal,
): Promise<FileChanges> {
  const indexed = file.status === 'deleted' ? undefined : snapshot.file(file.root, file.path);
  const base = await baseVersion(file, commit, signal);
  if (base.kind === 'unknown') {
    // Without the base side only the hunks say what changed: every touched declaration counts as changed.
    return {
      file,
      indexed,
      declarations: indexed ? declarationChanges(indexed.facts.symbols, indexed, file.ranges) : [],
      contracts: [],
      wire: [],
      note: `not compared with the base version: ${base.reason}`,
    };
  }
  const baseFacts = base.kind === 'facts' ? base.facts : undefined;
  if (isSchemaFile(file.path)) {
    const wire = compareSchemaFile(file, base.kind === 'facts' ? base.text : undefined);
    return {
      file,
      indexed,
      declarations: [],
      contracts: [],
      wire: wire.kind === 'compared' ? wire.findings : [],
      ...(wire.kind === 'skipped' ? { note: `wire check skipped: ${wire.reason}` } : {}),
    };
  }
  return {
    file,
    indexed,
    declarations: declarationChanges(baseFacts?.symbols, indexed, file.ranges),
    contracts: contractChanges(baseFacts, indexed?.facts),
    wire: [],
  };
}

/** The changes of every changed file of the repositories, in their order. */
export async function collectFileChanges(
  snapshot: SnapshotReader,
  repositories: readonly RepositoryDiff[],
  signal: AbortSignal,
): Promise<FileChanges[]> {
  const out: FileChanges[] = [];
  for (const repo of repositories)
    for (const file of repo.files) out.push(await changesOf(snapshot, file, repo.base.commit, signal));
  return out;
}
