/**
 * Spring Cloud Gateway routes from Spring configuration: `spring.cloud.gateway.routes[i]` (also under
 * `server.webflux` / `server.webmvc` / `mvc`, the newer property roots) with a `uri` (`lb://name` or a URL),
 * `Path=` predicates and `StripPrefix` / `RewritePath` / `PrefixPath` filters (route and default filters),
 * in the shortcut (`Path=/a/**`) and the expanded (`name: Path`, `args: …`) forms; and the discovery
 * locator (`spring.cloud.gateway.discovery.locator.enabled: true`), which serves every service registered
 * in discovery under `/<serviceId>/**`, that prefix stripped.
 */
import type { PropertyFact } from '../../facts.js';
import { applyFilter, type GatewayFilter, pathPatterns } from '../shared/gateway-filters.js';
import { prefixOfPattern, type ProxyFact } from '../shared/gateway-paths.js';

const ROUTE_KEY =
  /^spring\.cloud\.gateway(?:\.server\.web(?:flux|mvc)|\.mvc)?\.(routes\[(\d+)\]|default-filters)(?:\.|\[)(.*)$/;
const DISCOVERY_KEY = /^spring\.cloud\.gateway(?:\.server\.web(?:flux|mvc))?\.discovery\.locator\.enabled$/;

interface Shortcut {
  readonly entries: Map<string, Map<string, string>>;
}

interface RouteDraft {
  uri?: PropertyFact;
  readonly predicates: Shortcut;
  readonly filters: Shortcut;
}

const shortcut = (): Shortcut => ({ entries: new Map() });

/** `predicates[0]` → entry `0` with key `''`; `predicates[0].args.pattern` → entry `0`, key `args.pattern`. */
function addEntry(into: Shortcut, rest: string, value: string): void {
  const match = /^(\d+)\]?(?:\.(.*))?$/.exec(rest);
  if (!match?.[1]) return;
  const entry = into.entries.get(match[1]) ?? into.entries.set(match[1], new Map()).get(match[1]);
  entry?.set(match[2] ?? '', value);
}

/** A predicate or filter entry as `{ name, args }`: the shortcut `Name=a, b` or the expanded form. */
function readEntry(entry: Map<string, string>): GatewayFilter {
  const text = entry.get('');
  if (text !== undefined) {
    const eq = text.indexOf('=');
    const name = (eq < 0 ? text : text.slice(0, eq)).trim();
    return {
      name,
      args:
        eq < 0
          ? []
          : text
              .slice(eq + 1)
              .split(',')
              .map((a) => a.trim()),
    };
  }
  const args = [...entry].filter(([key]) => key.startsWith('args.')).map(([, value]) => value);
  return { name: entry.get('name') ?? '', args };
}

function drafts(properties: readonly PropertyFact[]): {
  routes: Map<string, RouteDraft>;
  defaults: Shortcut;
} {
  const routes = new Map<string, RouteDraft>();
  const defaults = shortcut();
  for (const property of properties) {
    const match = ROUTE_KEY.exec(property.key);
    if (!match) continue;
    const rest = match[3] ?? '';
    if (match[1] === 'default-filters') {
      addEntry(defaults, rest, property.value);
      continue;
    }
    const index = match[2] ?? '';
    const route =
      routes.get(index) ?? routes.set(index, { predicates: shortcut(), filters: shortcut() }).get(index);
    if (!route) continue;
    if (rest === 'uri') route.uri = property;
    else if (rest.startsWith('predicates['))
      addEntry(route.predicates, rest.slice('predicates['.length), property.value);
    else if (rest.startsWith('filters['))
      addEntry(route.filters, rest.slice('filters['.length), property.value);
  }
  return { routes, defaults };
}

/** One `http_proxy` fact per path of each route of one profile's properties, and one for discovery. */
export function cloudGatewayRoutes(properties: readonly PropertyFact[]): ProxyFact[] {
  const { routes, defaults } = drafts(properties);
  const facts: ProxyFact[] = [];
  const defaultFilters = [...defaults.entries.values()].map(readEntry);
  for (const route of routes.values()) {
    if (!route.uri) continue;
    const predicates = [...route.predicates.entries.values()].map(readEntry);
    const filters = [...defaultFilters, ...[...route.filters.entries.values()].map(readEntry)];
    for (const pattern of pathPatterns(predicates)) {
      const prefix = prefixOfPattern(pattern);
      const rewrite = filters.reduce<string | undefined>(
        (path, filter) => applyFilter(filter, prefix, path),
        undefined,
      );
      facts.push({
        kind: 'http_proxy',
        prefix,
        target: route.uri.value.trim(),
        ...(rewrite === undefined ? {} : { rewrite }),
        line: route.uri.line,
        confidence: 'exact',
        via: 'proxy:spring-cloud-gateway',
      });
    }
  }
  const discovery = properties.find((p) => DISCOVERY_KEY.test(p.key) && p.value.trim() === 'true');
  if (discovery)
    facts.push({
      kind: 'http_proxy',
      prefix: '/{service}',
      target: 'service:{service}',
      rewrite: '',
      line: discovery.line,
      confidence: 'heuristic',
      via: 'proxy:spring-cloud-gateway',
    });
  return facts;
}
