/**
 * Other YAML files. Only deployment descriptors matter here, for what they tell the reconciler about HTTP
 * base URLs: environment variables given to services (`env.BILLING_URL = http://billing:8080`) and the
 * names services are reachable by (`compose.service = billing`, `k8s.service = billing`).
 *
 * Properties come in source order, so each compose service's `compose.service` property precedes the
 * `env.*` properties of that service; the reconciler groups them by that order (or by line).
 *
 * A document that does not parse (a Helm template full of `{{ }}`, a CI file with a tab) is skipped, not
 * failed: plain YAML is not a contract file, and such templates are common.
 */
import { maskPropertyValue } from '../../../trust/secret-mask.js';
import type { FileFacts, PropertyFact } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { YamlFile, type YamlDoc } from '../shared/yaml-utils.js';
import type { Node as YamlNode, YAMLMap } from 'yaml';
import type { ProxyFact } from '../shared/gateway-paths.js';
import { envoyRoutes } from './envoy.js';
import { ingressRoutes } from './ingress.js';
import { composeLabels } from './compose-labels.js';

const COMPOSE_FILE = /(?:^|\/)(?:docker-)?compose[^/]*\.ya?ml$/i;
const CONTAINER_KEYS = new Set(['containers', 'initContainers']);
/** Deep enough for a CronJob (`spec.jobTemplate.spec.template.spec.containers`), bounded for odd files. */
const MAX_DEPTH = 8;

export function extractYaml(input: ExtractInput): FileFacts {
  const file = new YamlFile(input.source);
  const properties: PropertyFact[] = [];
  const add = (key: string, value: string, line: number): void => {
    properties.push({ key, value: maskPropertyValue(key, value).value, line });
  };
  const proxies: ProxyFact[] = [];
  for (const { doc, errors } of file.documents) {
    if (errors.length > 0) continue;
    const root = doc.map(doc.root);
    if (root === undefined) continue;
    const services = doc.map(doc.get(root, 'services'));
    if (services !== undefined && isCompose(input.path, doc, services)) {
      composeFacts(doc, services, add);
      proxies.push(...composeLabels(doc, services));
    } else if (doc.text(doc.get(root, 'apiVersion')) !== undefined) {
      kubernetesFacts(doc, root, add);
      proxies.push(...ingressRoutes(doc, root));
    } else proxies.push(...envoyRoutes(doc, root));
  }
  const builder = new FactBuilder(input.language);
  for (const proxy of proxies) builder.addContract(proxy);
  return builder.build(properties.length > 0 ? { properties } : {});
}

type Add = (key: string, value: string, line: number) => void;

/** A compose file by name, or a `services:` map whose entries build or run an image. */
function isCompose(path: string, doc: YamlDoc, services: YAMLMap): boolean {
  if (COMPOSE_FILE.test(path)) return true;
  return doc.entries(services).some((entry) => {
    const service = doc.map(entry.value);
    return doc.get(service, 'image') !== undefined || doc.get(service, 'build') !== undefined;
  });
}

function composeFacts(doc: YamlDoc, services: YAMLMap, add: Add): void {
  for (const entry of doc.entries(services)) {
    const service = doc.map(entry.value);
    if (service === undefined) continue;
    add('compose.service', entry.key, entry.line);
    const environment = doc.get(service, 'environment');
    const map = doc.map(environment);
    if (map !== undefined) {
      for (const variable of doc.entries(map)) {
        // `KEY:` without a value passes the host's variable through: its value is unknown here.
        const value = doc.text(variable.value);
        if (value !== undefined) add(`env.${variable.key}`, value, variable.line);
      }
      continue;
    }
    for (const item of doc.seq(environment)?.items ?? []) {
      const text = doc.text(item);
      const eq = text?.indexOf('=') ?? -1;
      if (text === undefined || eq <= 0) continue;
      add(`env.${text.slice(0, eq).trim()}`, text.slice(eq + 1), doc.line(item as YamlNode));
    }
  }
}

function kubernetesFacts(doc: YamlDoc, object: YAMLMap, add: Add): void {
  const kind = doc.text(doc.get(object, 'kind'));
  if (kind === 'List') {
    for (const item of doc.seq(doc.get(object, 'items'))?.items ?? []) {
      const map = doc.map(item);
      if (map !== undefined) kubernetesFacts(doc, map, add);
    }
    return;
  }
  if (kind === 'Service') {
    const metadata = doc.map(doc.get(object, 'metadata'));
    const name = metadata === undefined ? undefined : doc.entries(metadata).find((e) => e.key === 'name');
    const value = doc.text(name?.value);
    if (name !== undefined && value !== undefined) add('k8s.service', value, name.line);
  }
  containers(doc, object, add, 0);
}

/** Finds `containers:` lists under the object's maps and emits each container's literal `env` values. */
function containers(doc: YamlDoc, map: YAMLMap, add: Add, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const entry of doc.entries(map)) {
    if (CONTAINER_KEYS.has(entry.key)) {
      for (const container of doc.seq(entry.value)?.items ?? []) {
        const env = doc.seq(doc.get(doc.map(container), 'env'));
        for (const item of env?.items ?? []) {
          const variable = doc.map(item);
          const name = doc.text(doc.get(variable, 'name'));
          // `valueFrom` (secrets, config maps, field refs) has no literal value to report.
          const value = doc.text(doc.get(variable, 'value'));
          if (variable !== undefined && name !== undefined && value !== undefined) {
            add(`env.${name}`, value, doc.line(variable));
          }
        }
      }
      continue;
    }
    const child = doc.map(entry.value);
    if (child !== undefined) containers(doc, child, add, depth + 1);
  }
}
