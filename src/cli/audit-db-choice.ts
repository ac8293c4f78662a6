import path from 'node:path';
import { auditDbPath, tenantAuditDbPath } from '../store/cache-paths.js';
import { checkedName } from './key-arguments.js';
import { UsageError } from './operation-commands.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The audit log a command reads: `--db FILE`, else a tenant's own chain with `--tenant NAME` (a server with
 * `[server.tenants]` keeps one per tenant), else the installation's.
 */
export function chosenAuditDb(options: { readonly db?: string; readonly tenant?: string }, env: Env): string {
  if (options.db !== undefined && options.tenant !== undefined)
    throw new UsageError('--db and --tenant each name an audit log: pass one of them');
  if (options.db !== undefined) return path.resolve(options.db);
  if (options.tenant !== undefined) return tenantAuditDbPath(checkedName('--tenant', options.tenant), env);
  return auditDbPath(env);
}
