/**
 * `go.mod`: a module (its path's last segment names it). A `main` package at the module folder is its entry
 * point; two or more `cmd/<name>/main.go` binaries are one unit each, named `<name>` (a compose `command:`
 * picks which one a container runs).
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { firstMatch } from '../text-match.js';
import { joinRel, type WorkspaceFiles } from '../workspace-files.js';

const isMainPackage = (workspace: WorkspaceFiles, file: string): boolean =>
  /^\s*package\s+main\b/m.test(workspace.read(file) ?? '');

function binaries(workspace: WorkspaceFiles, moduleFolder: string): string[] {
  const cmd = joinRel(moduleFolder, 'cmd');
  return (workspace.children.get(cmd) ?? [])
    .map((name) => joinRel(cmd, name))
    .filter((folder) => workspace.filesOf(folder).includes('main.go'))
    .filter((folder) => isMainPackage(workspace, joinRel(folder, 'main.go')));
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const module = firstMatch(file.text, /^module\s+"?([^\s"]+)"?/m);
  const name = module?.value.split('/').pop();
  const out: Finding[] = [
    {
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, module?.line ?? 1, 'go.mod module'),
      ...(name ? { name } : {}),
    },
  ];
  // The module's own folder is a program when a Go file there is `package main` (any file name).
  const main = workspace
    .filesOf(file.folder)
    .filter((name) => name.endsWith('.go') && !name.endsWith('_test.go'))
    .sort((a, b) => (a === 'main.go' ? -1 : b === 'main.go' ? 1 : a < b ? -1 : a > b ? 1 : 0))
    .map((name) => joinRel(file.folder, name))
    .find((path) => isMainPackage(workspace, path));
  if (main !== undefined)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(main, 1, 'main package'),
    });
  const commands = binaries(workspace, file.folder);
  if (commands.length >= 2)
    for (const folder of commands)
      out.push({
        type: 'unit',
        folder,
        role: 'deployable',
        from: learnt(joinRel(folder, 'main.go'), 1, 'cmd binary (main package)'),
        name: folder.slice(folder.lastIndexOf('/') + 1),
      });
  return out;
}

export const goModuleReader: ManifestReader = {
  id: 'go.mod',
  matches: (name) => name === 'go.mod',
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
