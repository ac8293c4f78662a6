import os from 'node:os';
import path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where meshlens keeps its caches: `$MESHLENS_CACHE_DIR`, else `$XDG_CACHE_HOME/meshlens`, else
 * `~/.cache/meshlens`. Kept free of SQLite so that start-up can name the files without loading it.
 */
export function cacheRoot(env: Env = process.env): string {
  if (env.MESHLENS_CACHE_DIR) return path.resolve(env.MESHLENS_CACHE_DIR);
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'meshlens');
  return path.join(env.HOME || os.homedir(), '.cache', 'meshlens');
}

/** `$MESHLENS_AUDIT_DB`, else `audit.db` in the cache folder. */
export function auditDbPath(env: Env = process.env): string {
  if (env.MESHLENS_AUDIT_DB) return path.resolve(env.MESHLENS_AUDIT_DB);
  return path.join(cacheRoot(env), 'audit.db');
}

/**
 * A tenant's own audit chain on a server with `[server.tenants]`: `tenants/<tenant>/audit.db` beside the
 * installation's audit log, so that `audit verify --tenant` and `stats --tenant` find it from the name alone.
 * Tenant names are one safe path segment (see core/tenant-name.ts).
 */
export function tenantAuditDbPath(tenant: string, env: Env = process.env): string {
  return path.join(path.dirname(auditDbPath(env)), 'tenants', tenant, 'audit.db');
}
