/**
 * Netflix Zuul routes from Spring configuration (`zuul.routes.<name>.path` with `serviceId` or `url`, or the
 * short form `zuul.routes.<serviceId>: /path/**`), under the global `zuul.prefix`. Zuul strips the route's
 * prefix unless `strip-prefix: false`, and the global prefix unless `zuul.strip-prefix: false`.
 */
import type { PropertyFact } from '../../facts.js';
import { prefixOfPattern, prependPath, type ProxyFact } from '../shared/gateway-paths.js';

interface ZuulRoute {
  path?: PropertyFact;
  serviceId?: string;
  url?: string;
  stripPrefix?: string;
  line?: number;
}

/** Relaxed binding: `service-id`, `serviceId` and `serviceid` are one setting. */
const relaxed = (key: string): string => key.replace(/[-_]/g, '').toLowerCase();

function collect(properties: readonly PropertyFact[]): {
  routes: Map<string, ZuulRoute>;
  globals: Map<string, string>;
} {
  const routes = new Map<string, ZuulRoute>();
  const globals = new Map<string, string>();
  for (const property of properties) {
    const match = /^zuul\.routes\.([^.]+)(?:\.(.+))?$/.exec(property.key);
    if (!match?.[1]) {
      if (property.key.startsWith('zuul.')) globals.set(relaxed(property.key.slice(5)), property.value);
      continue;
    }
    const name = match[1];
    const route = routes.get(name) ?? routes.set(name, {}).get(name) ?? {};
    route.line ??= property.line;
    const setting = match[2] === undefined ? 'path' : relaxed(match[2]);
    if (setting === 'path') route.path = property;
    else if (setting === 'serviceid') route.serviceId = property.value;
    else if (setting === 'url') route.url = property.value;
    else if (setting === 'stripprefix') route.stripPrefix = property.value;
  }
  return { routes, globals };
}

/** One `http_proxy` fact per Zuul route of one profile's properties. */
export function zuulRoutes(properties: readonly PropertyFact[]): ProxyFact[] {
  const { routes, globals } = collect(properties);
  const globalPrefix = prefixOfPattern(globals.get('prefix') ?? '/');
  const head = globalPrefix === '/' ? '' : globalPrefix;
  const stripGlobal = globals.get('stripprefix')?.trim() !== 'false';
  const facts: ProxyFact[] = [];
  for (const [name, route] of routes) {
    const target = route.url ?? `service:${route.serviceId ?? name}`;
    // Without a path, Zuul serves a route under its own name.
    const own = prefixOfPattern(route.path?.value ?? `/${name}/**`);
    const routePart = own === '/' ? '' : own;
    const prefix = prependPath(head, routePart) || '/';
    const forwarded = `${stripGlobal ? '' : head}${route.stripPrefix?.trim() === 'false' ? routePart : ''}`;
    facts.push({
      kind: 'http_proxy',
      prefix,
      target,
      ...(forwarded === prefix ? {} : { rewrite: forwarded }),
      line: route.path?.line ?? route.line ?? 1,
      confidence: 'exact',
      via: 'proxy:zuul',
    });
  }
  return facts;
}
