/**
 * Traefik routers declared as docker-compose labels: `traefik.http.routers.<r>.rule` with
 * `PathPrefix(`/api`)` (or `Path(…)`) routes to the compose service carrying the labels (unless
 * `traefik.http.routers.<r>.service` names another), and a `stripprefix` middleware attached to the router
 * removes the prefix. Traefik v1's `traefik.frontend.rule=PathPrefix:/api` (and `PathPrefixStrip:`) too.
 */
import type { ProxyFact } from '../shared/gateway-paths.js';
import { prefixOfPattern } from '../shared/gateway-paths.js';

export interface Label {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** The path prefixes a rule matches: `Host(`a`) && PathPrefix(`/api`, `/v2`)` → `/api`, `/v2`. */
function rulePrefixes(rule: string): string[] {
  const out: string[] = [];
  for (const match of rule.matchAll(/\b(?:PathPrefix|Path)\s*\(([^)]*)\)/g))
    for (const arg of (match[1] ?? '').matchAll(/[`"']([^`"']+)[`"']/g)) if (arg[1]) out.push(arg[1]);
  return out;
}

/** Router name → its settings (`rule`, `service`, `middlewares`), and middleware → stripped prefixes. */
function collect(labels: readonly Label[]) {
  const routers = new Map<string, Map<string, Label>>();
  const strips = new Map<string, string[]>();
  for (const label of labels) {
    const router = /^traefik\.http\.routers\.([^.]+)\.(rule|service|middlewares)$/i.exec(label.key);
    if (router?.[1] && router[2]) {
      const settings = routers.get(router[1]) ?? routers.set(router[1], new Map()).get(router[1]);
      settings?.set(router[2].toLowerCase(), label);
      continue;
    }
    const strip = /^traefik\.http\.middlewares\.([^.]+)\.stripprefix\.prefixes$/i.exec(label.key);
    if (strip?.[1])
      strips.set(
        strip[1],
        label.value.split(',').map((p) => p.trim()),
      );
  }
  return { routers, strips };
}

/** One `http_proxy` fact per path prefix of each router of one compose service's labels. */
export function traefikRoutes(
  service: string,
  labels: readonly Label[],
  owners: ReadonlyMap<string, string>,
): ProxyFact[] {
  const { routers, strips } = collect(labels);
  const facts: ProxyFact[] = [];
  const add = (path: string, target: string, stripped: boolean, line: number): void => {
    const prefix = prefixOfPattern(path);
    facts.push({
      kind: 'http_proxy',
      prefix,
      target,
      ...(stripped ? { rewrite: '' } : {}),
      line,
      confidence: 'exact',
      via: 'proxy:traefik',
    });
  };
  for (const settings of routers.values()) {
    const rule = settings.get('rule');
    if (!rule) continue;
    const named = settings.get('service')?.value.replace(/@.*$/, '');
    // A router's Traefik service is defined on some compose service's labels: that compose service.
    const target = `service:${named === undefined ? service : (owners.get(named) ?? named)}`;
    const middlewares = (settings.get('middlewares')?.value ?? '')
      .split(',')
      .map((m) => m.trim().replace(/@.*$/, ''));
    const stripped = middlewares.flatMap((m) => strips.get(m) ?? []);
    for (const path of rulePrefixes(rule.value)) add(path, target, stripped.includes(path), rule.line);
  }
  for (const label of labels) {
    const v1 = /^traefik\.frontend\.rule$/i.test(label.key)
      ? /^(PathPrefixStrip|PathPrefix|Path):(.+)$/.exec(label.value)
      : null;
    if (v1?.[2])
      for (const path of v1[2].split(','))
        add(path.trim(), `service:${service}`, v1[1] === 'PathPrefixStrip', label.line);
  }
  return facts;
}

/** Traefik service name → the compose service whose labels define it (`traefik.http.services.<s>.…`). */
export function traefikServiceOwners(
  labelsByService: ReadonlyMap<string, readonly Label[]>,
): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [service, labels] of labelsByService)
    for (const label of labels) {
      const match = /^traefik\.http\.services\.([^.]+)\./i.exec(label.key);
      if (match?.[1] && !owners.has(match[1])) owners.set(match[1], service);
    }
  return owners;
}
