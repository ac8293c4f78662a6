/**
 * The service model of a workspace: every reader in the registry is handed the files it reads, and the
 * findings are merged into units, matched with deployments and turned into entries. Bounded: one capped
 * walk of the folder tree and capped reads of the declaration files only.
 */
import { mergedDeployments, matchDeployments } from './deployments.js';
import { unitEntries } from './entries.js';
import type { Finding, ReadFile } from './finding.js';
import { folderEntries } from './folder-entries.js';
import { MANIFEST_READERS } from './readers/registry.js';
import { SourceFolders } from './source-folders.js';
import type { ServiceModel } from './types.js';
import { buildUnits } from './units.js';
import { joinRel, WorkspaceFiles } from './workspace-files.js';

export interface ServiceModelResult {
  readonly model: ServiceModel;
  /** Folders holding source code directly (workspace-relative, sorted), for coverage by roots. */
  readonly sourceFolders: SourceFolders;
  /** True when the walk hit its cap: the model may miss folders. */
  readonly partial: boolean;
  /** The folder listing the model was read from. */
  readonly workspace: WorkspaceFiles;
}

function findingsOf(workspace: WorkspaceFiles): Finding[] {
  const out: Finding[] = [];
  for (const reader of MANIFEST_READERS) {
    const files: ReadFile[] = [];
    for (const [folder, names] of workspace.folders)
      for (const name of names) {
        if (!reader.matches(name)) continue;
        const path = joinRel(folder, name);
        const text = workspace.read(path);
        if (text !== undefined) files.push({ path, folder, name, text });
      }
    out.push(...reader.read(files, workspace));
  }
  return out;
}

const byFolder = (a: { folder: string }, b: { folder: string }): number =>
  a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0;

/** The service model of the workspace at `workspaceDir` (an absolute folder). */
export function buildServiceModel(workspaceDir: string): ServiceModelResult {
  const workspace = new WorkspaceFiles(workspaceDir);
  const source = new SourceFolders(workspace);
  const findings = findingsOf(workspace);
  const units = buildUnits(findings);
  const matched = matchDeployments(mergedDeployments(findings), units, findings);
  const unitList = unitEntries({ units, findings, matched, source });
  const unitFolders = unitList.map((e) => e.folder);
  const entries = [...unitList, ...folderEntries(findings, unitFolders, source, workspace)].sort(byFolder);
  return {
    model: { entries, uncovered: source.uncovered(entries.map((e) => e.folder)) },
    sourceFolders: source,
    partial: workspace.truncated,
    workspace,
  };
}
