/** Dapr multi-app run files (`dapr.yaml`): each `apps[]` entry runs `appDirPath` as `appID`, with its `env`. */
import { looksSecret } from '../env-file.js';
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import type { ServiceEnvVar } from '../types.js';
import { joinRel, normalizeRel, type WorkspaceFiles } from '../workspace-files.js';
import { get, items, pairsOf, parseYaml, str } from '../yaml-tree.js';

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const out: Finding[] = [];
  for (const doc of parseYaml(file.text)) {
    const common = get(doc, doc.root, 'common');
    for (const app of items(doc, get(doc, doc.root, 'apps'))) {
      const appId = get(doc, app, 'appID');
      const id = str(doc, appId);
      const dir = normalizeRel(joinRel(file.folder, str(doc, get(doc, app, 'appDirPath')) ?? '.'));
      if (!id || dir === undefined || !workspace.has(dir)) continue;
      const env: ServiceEnvVar[] = [];
      for (const scope of [app, common])
        for (const pair of pairsOf(doc, get(doc, scope, 'env'))) {
          const value = str(doc, pair.value);
          if (value !== undefined && !looksSecret(pair.key))
            env.push({
              name: pair.key,
              value,
              from: learnt(file.path, doc.line(pair.keyNode), 'Dapr run env'),
            });
        }
      const from = learnt(file.path, doc.line(appId), 'Dapr app id');
      out.push({
        type: 'deployment',
        key: `dapr:${file.path}#${id}`,
        folder: dir,
        images: [],
        names: [{ name: id, from }],
        env,
        kinds: [],
        from,
      });
      out.push({ type: 'unit', folder: dir, role: 'built', from });
    }
  }
  return out;
}

export const daprRunReader: ManifestReader = {
  id: 'Dapr run file',
  matches: (name) => /^dapr\.ya?ml$/.test(name),
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
