/**
 * Path arithmetic shared by the gateway readers (Zuul, Spring Cloud Gateway, nginx, Envoy, Ingress,
 * Traefik): the literal prefix of a route pattern, and what the target receives after the configured
 * rewrite. Every reader turns its configuration into the same `http_proxy` fact: `prefix` (gateway side),
 * `target` (a URL, `service:NAME`, `lb://name`, `${VAR}` placeholders kept for the graph to resolve) and
 * `rewrite` (the prefix the target receives instead; absent when unchanged, `''` when stripped).
 */
import type { ContractFact } from '../../facts.js';

export type ProxyFact = Extract<ContractFact, { kind: 'http_proxy' }>;

/** Characters that end the literal start of a regular expression or glob. */
const PATTERN_META = /[*?()[\]{}|+^$\\.]/;

/**
 * The literal prefix of a gateway path pattern, normalised: `/api/orders/**` → `/api/orders`,
 * `/orders/*` → `/orders`, `/` and `/**` → `/`. A `{name}` segment is kept as a parameter.
 */
export function prefixOfPattern(pattern: string): string {
  const segments: string[] = [];
  for (const segment of pattern.trim().split('/')) {
    if (segment === '') continue;
    if (/^\{[A-Za-z_][\w-]*\}$/.test(segment)) {
      segments.push(segment);
      continue;
    }
    if (segment.includes('*')) break;
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** The literal start of a regular expression path (`^/api/(?<rest>.*)` → `/api`), normalised. */
export function prefixOfRegex(regex: string): string {
  const body = regex.replace(/^\^/, '');
  let end = 0;
  while (end < body.length && !PATTERN_META.test(body[end] as string)) end += 1;
  // A `.` ends the literal too: `/api.v1` is rare, `/api/.*` common.
  return `/${body
    .slice(0, end)
    .split('/')
    .filter((s) => s !== '')
    .join('/')}`;
}

/** The prefix without its first `count` segments (`StripPrefix=1`: `/api/orders` → `/orders`; all: `''`). */
export function stripSegments(prefix: string, count: number): string {
  const rest = prefix.split('/').filter(Boolean).slice(count);
  return rest.length === 0 ? '' : `/${rest.join('/')}`;
}

/** `PrefixPath=/v1` before a path: `/v1` + `/orders` → `/v1/orders`. */
export function prependPath(head: string, path: string): string {
  const base = head.replace(/\/+$/, '');
  return path === '' || path === '/' ? base : `${base}${path.startsWith('/') ? '' : '/'}${path}`;
}

/**
 * A `RewritePath` (regex, replacement) applied to a prefix: when the regex's literal start covers the
 * prefix's start, the prefix's remainder follows the replacement's literal start (`/api/(?<s>.*)`,
 * `/$\{s}` on `/api/orders` → `/orders`). Undefined when the rewrite cannot be read.
 */
export function rewriteByRegex(prefix: string, regex: string, replacement: string): string | undefined {
  const literal = prefixOfRegex(regex);
  const head = literal === '/' ? '' : literal;
  if (!prefix.startsWith(head)) return undefined;
  const dollar = replacement.search(/\$/);
  const replaced = (dollar < 0 ? replacement : replacement.slice(0, dollar)).replace(/\\/g, '');
  const remainder = prefix.slice(head.length);
  const joined = prependPath(replaced, remainder);
  return joined === '/' ? '' : joined.replace(/\/+$/, '');
}
