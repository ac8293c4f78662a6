/**
 * Helm charts: `Chart.yaml` marks a deploy folder; its `values.yaml` sets environment per service — an
 * `env` / `extraEnv` / `environment` (a `name`/`value` list or a map) at the top (for the chart's own
 * service) or under a top-level key naming a service (`adService: { env: … }`).
 */

import { looksSecret } from '../env-file.js';
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import type { ServiceEnvVar } from '../types.js';
import { joinRel, type WorkspaceFiles } from '../workspace-files.js';
import { get, items, pairsOf, parseYaml, str, type YamlDocument, type Node } from '../yaml-tree.js';

const ENV_KEYS = ['env', 'extraEnv', 'environment', 'envVars'];

function envOf(doc: YamlDocument, node: Node | null, file: string): ServiceEnvVar[] {
  const out: ServiceEnvVar[] = [];
  for (const key of ENV_KEYS) {
    const env = get(doc, node, key);
    for (const item of items(doc, env)) {
      const name = str(doc, get(doc, item, 'name'));
      const value = str(doc, get(doc, item, 'value'));
      if (name && value !== undefined && !looksSecret(name))
        out.push({ name, value, from: learnt(file, doc.line(item), 'Helm values env') });
    }
    for (const pair of pairsOf(doc, env)) {
      const value = str(doc, pair.value);
      if (value !== undefined && !looksSecret(pair.key))
        out.push({ name: pair.key, value, from: learnt(file, doc.line(pair.keyNode), 'Helm values env') });
    }
  }
  return out;
}

function readChart(chart: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const out: Finding[] = [
    { type: 'kind', folder: chart.folder, kind: 'deploy', from: learnt(chart.path, 1, 'Helm chart') },
  ];
  const chartName = parseYaml(chart.text).map((doc) => str(doc, get(doc, doc.root, 'name')))[0];
  const valuesPath = joinRel(chart.folder, 'values.yaml');
  const values = workspace.read(valuesPath);
  for (const doc of values ? parseYaml(values) : []) {
    const scopes: { name: string; node: Node | null; keyNode: Node | null }[] = [
      ...(chartName ? [{ name: chartName, node: doc.root, keyNode: doc.root }] : []),
      ...pairsOf(doc, doc.root).map((pair) => ({ name: pair.key, node: pair.value, keyNode: pair.keyNode })),
    ];
    for (const scope of scopes) {
      const env = envOf(doc, scope.node, valuesPath);
      if (env.length === 0) continue;
      const from = learnt(valuesPath, doc.line(scope.keyNode), 'Helm values');
      out.push({
        type: 'deployment',
        key: `helm:${valuesPath}#${scope.name}`,
        images: [],
        names: [{ name: scope.name, from }],
        env,
        kinds: [],
        from,
      });
    }
  }
  return out;
}

export const helmReader: ManifestReader = {
  id: 'Helm',
  matches: (name) => name === 'Chart.yaml',
  read: (files, workspace) => files.flatMap((file) => readChart(file, workspace)),
};
