/**
 * Entries that are folders rather than buildable units: `contracts` (source folders holding only .proto
 * files, outside every unit), `docs` (a top-level documentation folder) and `deploy` (folders of Kubernetes
 * manifests or Helm charts, outside every unit). Each is grouped up to the highest folder that holds no unit.
 */
import type { Finding } from './finding.js';
import { groupFolder, type SourceFolders } from './source-folders.js';
import type { Learnt, ServiceEntry } from './types.js';
import { baseName, joinRel, within, type WorkspaceFiles } from './workspace-files.js';

const DOCS = new Set(['docs', 'doc', 'documentation']);
const isMarkdown = (name: string): boolean => /\.(md|mdx|markdown)$/i.test(name);

const entry = (folder: string, kind: ServiceEntry['kind'], from: Learnt): ServiceEntry => ({
  folder,
  kind,
  names: [{ name: baseName(folder), from: { file: folder, line: 0, how: 'folder name' } }],
  env: [],
  evidence: [from],
});

function contracts(
  source: SourceFolders,
  unitFolders: readonly string[],
  workspace: WorkspaceFiles,
): ServiceEntry[] {
  const groups = new Set(source.uncovered(unitFolders).map((f) => groupFolder(f, unitFolders)));
  return [...groups]
    .filter((group) => group !== '.' && source.onlyContracts(group))
    .map((group) => {
      const folder = source.folders.find((f) => within(f, group)) ?? group;
      const file = workspace.filesOf(folder).find((n) => n.endsWith('.proto'));
      return entry(group, 'contracts', {
        file: file ? joinRel(folder, file) : group,
        line: file ? 1 : 0,
        how: '.proto files only',
      });
    });
}

function docs(workspace: WorkspaceFiles, unitFolders: readonly string[]): ServiceEntry[] {
  return (workspace.children.get('.') ?? [])
    .filter(
      (name) => DOCS.has(name.toLowerCase()) && !unitFolders.some((u) => within(u, name) || within(name, u)),
    )
    .filter((name) => workspace.foldersUnder(name).some((f) => workspace.filesOf(f).some(isMarkdown)))
    .map((name) => entry(name, 'docs', { file: name, line: 0, how: 'documentation folder' }));
}

function deploy(findings: readonly Finding[], unitFolders: readonly string[]): ServiceEntry[] {
  const groups = new Map<string, Learnt>();
  for (const finding of findings) {
    if (finding.type !== 'kind' || finding.kind !== 'deploy' || finding.folder === '.') continue;
    if (unitFolders.some((u) => within(finding.folder, u))) continue;
    const group = groupFolder(finding.folder, unitFolders);
    const known = groups.get(group);
    if (!known || known.file > finding.from.file) groups.set(group, finding.from);
  }
  const folders = [...groups.keys()];
  return folders
    .filter((folder) => !folders.some((other) => other !== folder && within(folder, other)))
    .map((folder) => entry(folder, 'deploy', groups.get(folder) as Learnt));
}

export function folderEntries(
  findings: readonly Finding[],
  unitFolders: readonly string[],
  source: SourceFolders,
  workspace: WorkspaceFiles,
): ServiceEntry[] {
  const taken = new Set<string>();
  const out: ServiceEntry[] = [];
  for (const e of [
    ...contracts(source, unitFolders, workspace),
    ...docs(workspace, unitFolders),
    ...deploy(findings, unitFolders),
  ])
    if (!taken.has(e.folder)) {
      taken.add(e.folder);
      out.push(e);
    }
  return out;
}
