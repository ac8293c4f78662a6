import type { ConfigLookup } from './config-lookup.js';
import { interpolate } from './placeholders.js';

/**
 * The settings a Spring application serves every route under: the servlet context path (Boot 2+, then
 * Boot 1), and WebFlux's base path; each also as the environment variable Spring reads it from.
 */
const CONTEXT_PATH_KEYS = [
  { key: 'server.servlet.context-path', env: 'SERVER_SERVLET_CONTEXT_PATH' },
  { key: 'server.context-path', env: 'SERVER_CONTEXT_PATH' },
  { key: 'spring.webflux.base-path', env: 'SPRING_WEBFLUX_BASE_PATH' },
];

/**
 * The path every route of a root is served under (`''` for none): the first context-path setting of the
 * root's own environment or configuration (active, else default profile), placeholders resolved. Only the
 * root's own settings count: another service's context path says nothing about this one.
 */
export function contextPathOf(config: ConfigLookup, root: string): string {
  for (const { key, env } of CONTEXT_PATH_KEYS) {
    const raw = config.ownEnv(root, env) ?? config.property(root, key);
    if (raw === undefined) continue;
    const value = interpolate(raw, config.lookupFor(root))?.trim();
    if (value === undefined || value === '' || value === '/') return '';
    return `/${value.replace(/^\/+|\/+$/g, '')}`;
  }
  return '';
}
