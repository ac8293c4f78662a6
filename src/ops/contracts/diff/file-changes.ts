/**
 * What each changed file changes: its declarations, its contracts, and for a `.proto` the wire check's
 * findings. The working-tree side is the index (so declarations keep the ids the call graph knows them by);
 * the base side is the base version parsed on the spot.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IndexedFile, IndexReader, SnapshotReader } from '../../../index/reader.js';
import { baseVersion } from './base-facts.js';
import { contractChanges, type ContractChange } from './contract-changes.js';
import { declarationChanges, touchedDeclarations, type DeclarationChange } from './declaration-changes.js';
import { compareSchemaFile, isSchemaFile, rpcsOfFinding, type WireChange } from './wire-changes.js';
import type { ChangedFile, RepositoryDiff } from './working-tree-diff.js';

export interface FileChanges {
  readonly file: ChangedFile;
  /** The indexed working-tree file (absent when deleted, or not indexed). */
  readonly indexed: IndexedFile | undefined;
  readonly declarations: readonly DeclarationChange[];
  readonly contracts: readonly ContractChange[];
  readonly wire: readonly WireChange[];
  /** Why part of the comparison could not be made. */
  readonly note?: string;
}

/** The working-tree text the index read (empty when it went since: then everything in it counts as removed). */
function workingText(file: IndexedFile): string {
  try {
    return readFileSync(file.absolutePath, 'utf8');
  } catch {
    return '';
  }
}

async function changesOf(
  index: IndexReader,
  snapshot: SnapshotReader,
  file: ChangedFile,
  commit: string,
  signal: AbortSignal,
): Promise<FileChanges> {
  const indexed = file.status === 'deleted' ? undefined : snapshot.file(file.root, file.path);
  const none = { file, indexed, declarations: [], contracts: [], wire: [] };
  if (!indexed && file.status !== 'deleted') {
    // Not indexed: a kind of file no extractor reads, or one the index refused (then say why). Only what
    // the index read is read again, so a link leading out of the workspace is never followed.
    const rejected = snapshot.rejected.find((r) => r.root === file.root && r.path === file.path);
    return rejected ? { ...none, note: `not indexed (${rejected.reason}), so not compared` } : none;
  }
  const base = await baseVersion(index, file, commit, signal);
  if (base.kind === 'unsupported') return none;
  if (isSchemaFile(file.path)) {
    const wire = compareSchemaFile(file, indexed, base.kind === 'absent' ? undefined : base.text);
    if (base.kind === 'unknown' && base.text === undefined)
      return {
        file,
        indexed,
        declarations: [],
        contracts: [],
        wire: [],
        note: `wire check skipped: ${base.reason}`,
      };
    return {
      file,
      indexed,
      declarations: [],
      contracts: [],
      wire:
        wire.kind === 'compared'
          ? wire.findings.map((f) => ({
              ...f,
              rpcs: rpcsOfFinding(snapshot, f, wire.text, base.kind === 'absent' ? '' : (base.text ?? '')),
            }))
          : [],
      ...(wire.kind === 'skipped' ? { note: `wire check skipped: ${wire.reason}` } : {}),
    };
  }
  if (base.kind === 'unknown') {
    // Without the base side only the hunks say what changed: every touched declaration counts as changed.
    return {
      file,
      indexed,
      declarations: indexed ? touchedDeclarations(indexed, file.ranges) : [],
      contracts: [],
      wire: [],
      note: `not compared with the base version: ${base.reason}`,
    };
  }
  const baseFacts = base.kind === 'facts' ? base.facts : undefined;
  const text = indexed ? workingText(indexed) : '';
  return {
    file,
    indexed,
    declarations: declarationChanges(
      base.kind === 'facts' ? { text: base.text, symbols: base.facts.symbols } : undefined,
      indexed ? { text, file: indexed } : undefined,
    ),
    contracts: contractChanges(baseFacts, indexed?.facts),
    wire: [],
    ...(indexed && createHash('sha256').update(text).digest('hex') !== indexed.hash
      ? {
          note: 'the index has not caught up with the last edit of this file, so its declarations and contracts are those indexed; ask again once it has (admin rescan)',
        }
      : {}),
  };
}

/** The changes of every changed file of the repositories, in their order. */
export async function collectFileChanges(
  index: IndexReader,
  snapshot: SnapshotReader,
  repositories: readonly RepositoryDiff[],
  signal: AbortSignal,
): Promise<FileChanges[]> {
  const out: FileChanges[] = [];
  for (const repo of repositories)
    for (const file of repo.files) out.push(await changesOf(index, snapshot, file, repo.base.commit, signal));
  return out;
}
