/**
 * Envoy route tables (`static_resources`): each listener's HTTP connection manager `route_config`
 * (`virtual_hosts[].routes[]`: `match.prefix` or `match.path`, `route.cluster`, `route.prefix_rewrite`), with
 * the cluster resolved to its endpoint's socket address (`clusters[].load_assignment…socket_address`, or
 * the older `hosts[]`). Envoy configs are often templates filled by `envsubst`: a `${VAR}` address is kept
 * as a placeholder for the graph to resolve from the proxy's environment.
 */
import type { YAMLMap } from 'yaml';
import type { ProxyFact } from '../shared/gateway-paths.js';
import { prefixOfPattern } from '../shared/gateway-paths.js';
import type { YamlDoc } from '../shared/yaml-utils.js';

/** How deep to look for `route_config` under a listener (filters → typed_config → route_config). */
const MAX_DEPTH = 10;

/** Cluster name → its first endpoint as a URL (`http://${HOST}:8080`). */
function clusterAddresses(doc: YamlDoc, resources: YAMLMap): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of doc.seq(doc.get(resources, 'clusters'))?.items ?? []) {
    const cluster = doc.map(item);
    const name = doc.text(doc.get(cluster, 'name'));
    if (cluster === undefined || name === undefined) continue;
    const socket = findMap(doc, cluster, 'socket_address', 0);
    const address = doc.text(doc.get(socket, 'address'));
    if (address === undefined) continue;
    const port = doc.text(doc.get(socket, 'port_value'));
    out.set(name, `http://${address}${port === undefined ? '' : `:${port}`}`);
  }
  return out;
}

/** The first map under `key` anywhere below `map` (depth-first, bounded). */
function findMap(doc: YamlDoc, map: YAMLMap, key: string, depth: number): YAMLMap | undefined {
  if (depth > MAX_DEPTH) return undefined;
  for (const entry of doc.entries(map)) {
    if (entry.key === key && doc.map(entry.value)) return doc.map(entry.value);
    const children = doc.seq(entry.value)?.items ?? [entry.value];
    for (const child of children) {
      const childMap = doc.map(child);
      const found = childMap === undefined ? undefined : findMap(doc, childMap, key, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** Every `route_config` map below the listeners. */
function routeConfigs(doc: YamlDoc, map: YAMLMap, depth: number, out: YAMLMap[]): void {
  if (depth > MAX_DEPTH) return;
  for (const entry of doc.entries(map)) {
    const value = doc.map(entry.value);
    if (entry.key === 'route_config' && value) {
      out.push(value);
      continue;
    }
    for (const child of doc.seq(entry.value)?.items ?? [entry.value]) {
      const childMap = doc.map(child);
      if (childMap) routeConfigs(doc, childMap, depth + 1, out);
    }
  }
}

function routeFact(doc: YamlDoc, item: unknown, clusters: Map<string, string>): ProxyFact | undefined {
  const route = doc.map(item);
  const match = doc.map(doc.get(route, 'match'));
  const action = doc.map(doc.get(route, 'route'));
  const path = doc.text(doc.get(match, 'prefix')) ?? doc.text(doc.get(match, 'path'));
  const cluster = doc.text(doc.get(action, 'cluster'));
  if (route === undefined || path === undefined || cluster === undefined) return undefined;
  const rewrite = doc.text(doc.get(action, 'prefix_rewrite'));
  const normalised = rewrite === undefined ? undefined : prefixOfPattern(rewrite);
  return {
    kind: 'http_proxy',
    prefix: prefixOfPattern(path),
    // A cluster without a readable endpoint is named like the service it fronts (a DNS name) more often than not.
    target: clusters.get(cluster) ?? `http://${cluster}`,
    ...(normalised === undefined ? {} : { rewrite: normalised === '/' ? '' : normalised }),
    line: doc.line(route),
    confidence: 'exact',
    via: 'proxy:envoy',
  };
}

/** One `http_proxy` fact per routed (not redirected) route of the document's static resources. */
export function envoyRoutes(doc: YamlDoc, root: YAMLMap): ProxyFact[] {
  const resources = doc.map(doc.get(root, 'static_resources'));
  if (resources === undefined) return [];
  const clusters = clusterAddresses(doc, resources);
  const configs: YAMLMap[] = [];
  const listeners = doc.seq(doc.get(resources, 'listeners'));
  for (const listener of listeners?.items ?? []) {
    const map = doc.map(listener);
    if (map) routeConfigs(doc, map, 0, configs);
  }
  const facts: ProxyFact[] = [];
  for (const config of configs) {
    for (const host of doc.seq(doc.get(config, 'virtual_hosts'))?.items ?? []) {
      for (const route of doc.seq(doc.get(doc.map(host), 'routes'))?.items ?? []) {
        const fact = routeFact(doc, route, clusters);
        if (fact) facts.push(fact);
      }
    }
  }
  return facts;
}
