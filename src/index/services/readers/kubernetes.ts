/**
 * Kubernetes manifests: each workload (Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod, Rollout) is a
 * deployment with its containers' images and environment (`env` values, `configMapKeyRef`, `envFrom`
 * ConfigMaps); a Service selecting its pod labels names it, as does a Dapr `dapr.io/app-id` annotation.
 * The folders holding manifests are deploy folders.
 */

import { looksSecret } from '../env-file.js';
import {
  learnt,
  type DeploymentFinding,
  type Finding,
  type ManifestReader,
  type ReadFile,
} from '../finding.js';
import { kindOfImage } from '../kind-signatures.js';
import type { Learnt, ServiceEnvVar, ServiceName } from '../types.js';
import {
  get,
  getPath,
  items,
  pairsOf,
  parseYaml,
  splitDocuments,
  str,
  type Node,
  type YamlDocument,
} from '../yaml-tree.js';

const WORKLOADS = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'Pod',
  'Rollout',
  'CronJob',
]);
const LOOKS_LIKE_K8S = /^apiVersion:/m;
/** Documents worth parsing: the kinds read here (most manifests hold many others: RBAC, Istio, CRDs). */
const READ_KINDS =
  /^kind:\s*["']?(Deployment|StatefulSet|DaemonSet|ReplicaSet|Job|Pod|Rollout|CronJob|Service|ConfigMap|List)["']?\s*$/m;

interface K8sObject {
  readonly kind: string;
  readonly name: string;
  readonly doc: YamlDocument;
  readonly node: Node;
  readonly file: ReadFile;
}

type ConfigMaps = Map<string, Map<string, { value: string; from: Learnt }>>;

function objectsOf(files: readonly ReadFile[]): K8sObject[] {
  const out: K8sObject[] = [];
  for (const file of files) {
    if (!LOOKS_LIKE_K8S.test(file.text)) continue;
    const wanted = splitDocuments(file.text).filter((chunk) => READ_KINDS.test(chunk.text));
    for (const doc of wanted.flatMap((chunk) => parseYaml(chunk.text, chunk.line))) {
      const roots =
        str(doc, get(doc, doc.root, 'kind')) === 'List'
          ? items(doc, get(doc, doc.root, 'items'))
          : [doc.root];
      for (const node of roots) {
        const kind = str(doc, get(doc, node, 'kind'));
        const name = str(doc, getPath(doc, node, ['metadata', 'name']));
        if (kind && name && node && str(doc, get(doc, node, 'apiVersion')))
          out.push({ kind, name, doc, node, file });
      }
    }
  }
  return out;
}

function configMaps(objects: readonly K8sObject[]): ConfigMaps {
  const maps: ConfigMaps = new Map();
  for (const object of objects.filter((o) => o.kind === 'ConfigMap')) {
    const data = new Map<string, { value: string; from: Learnt }>();
    for (const pair of pairsOf(object.doc, get(object.doc, object.node, 'data'))) {
      const value = str(object.doc, pair.value);
      if (value !== undefined)
        data.set(pair.key, {
          value,
          from: learnt(object.file.path, object.doc.line(pair.keyNode), 'Kubernetes ConfigMap'),
        });
    }
    maps.set(object.name, data);
  }
  return maps;
}

/** The pod template of a workload (a CronJob's is one level deeper; a Pod is its own). */
function podSpec(object: K8sObject): {
  spec: Node | null;
  labels: Map<string, string>;
  annotations: Node | null;
} {
  const { doc, node } = object;
  const template =
    object.kind === 'Pod'
      ? node
      : object.kind === 'CronJob'
        ? getPath(doc, node, ['spec', 'jobTemplate', 'spec', 'template'])
        : getPath(doc, node, ['spec', 'template']);
  const labels = new Map<string, string>();
  for (const pair of pairsOf(doc, getPath(doc, template, ['metadata', 'labels'])))
    labels.set(pair.key, str(doc, pair.value) ?? '');
  return {
    spec: get(doc, template, 'spec'),
    labels,
    annotations: getPath(doc, template, ['metadata', 'annotations']),
  };
}

function containerEnv(object: K8sObject, container: Node, maps: ConfigMaps): ServiceEnvVar[] {
  const { doc, file } = object;
  const out: ServiceEnvVar[] = [];
  for (const item of items(doc, get(doc, container, 'env'))) {
    const name = str(doc, get(doc, item, 'name'));
    if (!name || looksSecret(name)) continue;
    const value = str(doc, get(doc, item, 'value'));
    if (value !== undefined) {
      out.push({ name, value, from: learnt(file.path, doc.line(item), 'Kubernetes env') });
      continue;
    }
    const ref = getPath(doc, item, ['valueFrom', 'configMapKeyRef']);
    const fromMap = maps
      .get(str(doc, get(doc, ref, 'name')) ?? '')
      ?.get(str(doc, get(doc, ref, 'key')) ?? '');
    if (fromMap) out.push({ name, value: fromMap.value, from: fromMap.from });
  }
  for (const source of items(doc, get(doc, container, 'envFrom'))) {
    const prefix = str(doc, get(doc, source, 'prefix')) ?? '';
    const data = maps.get(str(doc, getPath(doc, source, ['configMapRef', 'name'])) ?? '');
    for (const [key, entry] of data ?? [])
      if (!looksSecret(key)) out.push({ name: prefix + key, value: entry.value, from: entry.from });
  }
  return out;
}

function workload(object: K8sObject, maps: ConfigMaps): DeploymentFinding {
  const { doc, file } = object;
  const pod = podSpec(object);
  const images: string[] = [];
  const env: ServiceEnvVar[] = [];
  for (const container of items(doc, get(doc, pod.spec, 'containers'))) {
    const image = str(doc, get(doc, container, 'image'));
    if (image) images.push(image);
    env.push(...containerEnv(object, container, maps));
  }
  const from = learnt(
    file.path,
    doc.line(getPath(doc, object.node, ['metadata', 'name'])),
    `Kubernetes ${object.kind}`,
  );
  const names: ServiceName[] = [{ name: object.name, from }];
  const appId = get(doc, pod.annotations, 'dapr.io/app-id');
  const dapr = str(doc, appId);
  if (dapr) names.push({ name: dapr, from: learnt(file.path, doc.line(appId), 'Dapr app id') });
  const kinds = images
    .map((image) => kindOfImage(image)?.kind)
    .filter((k): k is 'gateway' | 'loadgen' => k !== undefined);
  return {
    type: 'deployment',
    key: `k8s:${file.path}#${object.kind}/${object.name}`,
    images,
    names,
    env,
    kinds: kinds.slice(0, 1),
    from,
  };
}

/** A Service names every workload whose pod labels include its selector. */
function serviceNames(
  object: K8sObject,
  workloads: readonly { object: K8sObject; labels: Map<string, string> }[],
): Finding[] {
  const { doc, file } = object;
  const selector = pairsOf(doc, getPath(doc, object.node, ['spec', 'selector'])).map(
    (p) => [p.key, str(doc, p.value) ?? ''] as const,
  );
  if (selector.length === 0) return [];
  const from = learnt(
    file.path,
    doc.line(getPath(doc, object.node, ['metadata', 'name'])),
    'Kubernetes Service',
  );
  return workloads
    .filter((w) => selector.every(([key, value]) => w.labels.get(key) === value))
    .map((w) => ({
      type: 'deployment',
      key: `k8s:${w.object.file.path}#${w.object.kind}/${w.object.name}`,
      images: [],
      names: [{ name: object.name, from }],
      env: [],
      kinds: [],
      from,
      alias: true,
    }));
}

function read(files: readonly ReadFile[]): Finding[] {
  const objects = objectsOf(files);
  const maps = configMaps(objects);
  const workloads = objects
    .filter((o) => WORKLOADS.has(o.kind))
    .map((object) => ({ object, labels: podSpec(object).labels }));
  const out: Finding[] = workloads.map((w) => workload(w.object, maps));
  for (const object of objects.filter((o) => o.kind === 'Service'))
    out.push(...serviceNames(object, workloads));
  const folders = new Map(objects.map((o) => [o.file.folder, o.file.path]));
  for (const [folder, path] of folders)
    out.push({ type: 'kind', folder, kind: 'deploy', from: learnt(path, 1, 'Kubernetes manifests') });
  return out;
}

export const kubernetesReader: ManifestReader = {
  id: 'Kubernetes',
  matches: (name) => /\.ya?ml$/.test(name) && !/^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/.test(name),
  read,
};
