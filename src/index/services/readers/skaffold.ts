/** `skaffold.yaml`: each `build.artifacts[]` (also under `profiles[]`) builds `image` from `context` (+ `docker.dockerfile`). */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { joinRel, normalizeRel, parentOf, type WorkspaceFiles } from '../workspace-files.js';
import { get, getPath, items, parseYaml, str, type Node, type YamlDocument } from '../yaml-tree.js';

function artifacts(
  doc: YamlDocument,
  build: Node | null,
  file: ReadFile,
  workspace: WorkspaceFiles,
): Finding[] {
  const out: Finding[] = [];
  for (const artifact of items(doc, get(doc, build, 'artifacts'))) {
    const image = str(doc, get(doc, artifact, 'image'));
    const context = normalizeRel(joinRel(file.folder, str(doc, get(doc, artifact, 'context')) ?? '.'));
    if (!image || context === undefined || !workspace.has(context)) continue;
    const dockerfile = str(doc, getPath(doc, artifact, ['docker', 'dockerfile']));
    const fromDockerfile = dockerfile ? normalizeRel(parentOf(joinRel(context, dockerfile))) : undefined;
    const folder = fromDockerfile !== undefined && workspace.has(fromDockerfile) ? fromDockerfile : context;
    const from = learnt(file.path, doc.line(artifact), 'skaffold artifact');
    out.push({ type: 'image', image, folder, from }, { type: 'unit', folder, role: 'built', from });
  }
  return out;
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  return parseYaml(file.text).flatMap((doc) => [
    ...artifacts(doc, get(doc, doc.root, 'build'), file, workspace),
    ...items(doc, get(doc, doc.root, 'profiles')).flatMap((profile) =>
      artifacts(doc, get(doc, profile, 'build'), file, workspace),
    ),
  ]);
}

export const skaffoldReader: ManifestReader = {
  id: 'skaffold',
  matches: (name) => /^skaffold.*\.ya?ml$/.test(name),
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
