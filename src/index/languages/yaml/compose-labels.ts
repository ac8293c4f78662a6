/**
 * docker-compose service `labels:` (a map, or a list of `key=value`), read for the gateways declared in
 * them (Traefik routers).
 */
import type { Node as YamlNode, YAMLMap } from 'yaml';
import type { ProxyFact } from '../shared/gateway-paths.js';
import type { YamlDoc } from '../shared/yaml-utils.js';
import { type Label, traefikRoutes, traefikServiceOwners } from './traefik.js';

function labelsOf(doc: YamlDoc, service: YAMLMap | undefined): Label[] {
  const node = doc.get(service, 'labels');
  const map = doc.map(node);
  if (map !== undefined)
    return doc.entries(map).flatMap((e) => {
      const value = doc.text(e.value);
      return value === undefined ? [] : [{ key: e.key, value, line: e.line }];
    });
  return (doc.seq(node)?.items ?? []).flatMap((item) => {
    const text = doc.text(item);
    const eq = text?.indexOf('=') ?? -1;
    if (text === undefined || eq <= 0) return [];
    return [
      { key: text.slice(0, eq).trim(), value: text.slice(eq + 1).trim(), line: doc.line(item as YamlNode) },
    ];
  });
}

/** The gateway routes the compose services' labels declare. */
export function composeLabels(doc: YamlDoc, services: YAMLMap): ProxyFact[] {
  const byService = new Map<string, Label[]>();
  for (const entry of doc.entries(services)) byService.set(entry.key, labelsOf(doc, doc.map(entry.value)));
  const owners = traefikServiceOwners(byService);
  return [...byService].flatMap(([service, labels]) => traefikRoutes(service, labels, owners));
}
