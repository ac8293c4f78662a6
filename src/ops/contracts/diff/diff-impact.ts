/**
 * `contracts impact --diff`: everything a diff touches and what it reaches, gathered once for both the
 * MCP answer and `meshlens check --diff`.
 */
import type { DeclRef, IndexReader, SnapshotReader } from '../../../index/reader.js';
import { validateRevision } from '../../shared/git/revision.js';
import { changeLines, type ChangeLine } from './change-list.js';
import { collectDiffRows, type DiffRows } from './diff-rows.js';
import { collectFileChanges, type FileChanges } from './file-changes.js';
import { testsToRun, type TestToRun } from './tests-to-run.js';
import { workingTreeDiff, type WorkingTreeDiff } from './working-tree-diff.js';

export interface DiffImpact {
  readonly diff: WorkingTreeDiff;
  readonly files: readonly FileChanges[];
  readonly changes: readonly ChangeLine[];
  readonly impact: DiffRows;
  readonly tests: readonly TestToRun[];
  /** What makes a check fail: wire-breaking changes, and removals something still uses. */
  readonly failing: boolean;
}

/** The declarations the diff changes, as the call graph knows them. */
function changedDeclarations(files: readonly FileChanges[]): DeclRef[] {
  const refs: DeclRef[] = [];
  for (const file of files)
    for (const d of file.declarations)
      if (d.change !== 'removed' && d.symbol !== undefined && file.indexed)
        refs.push({ file: file.indexed, symbol: d.symbol });
  return refs;
}

/** The impact of the working tree against `revision` (checked here: one revision, never an option). */
export async function collectDiffImpact(
  index: IndexReader,
  snapshot: SnapshotReader,
  revision: string,
  signal: AbortSignal,
): Promise<DiffImpact> {
  validateRevision('diff', revision, 'or "HEAD" to compare uncommitted work');
  const diff = await workingTreeDiff(snapshot, revision, signal);
  const files = await collectFileChanges(index, snapshot, diff.repositories, signal);
  const impact = collectDiffRows(snapshot, files);
  const tests = testsToRun(snapshot, [...changedDeclarations(files), ...impact.handlers]);
  const changes = changeLines(files);
  const failing = changes.some((c) => c.kind === 'breaking') || impact.stillUsed.length > 0;
  return { diff, files, changes, impact, tests, failing };
}
