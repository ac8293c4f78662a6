import type { UsageCounter } from '../core/admission.js';
import type { Logger } from '../core/logger.js';
import { PostgresAuditSink } from '../store/postgres/audit-store.js';
import { LOCAL_TENANT, type TeamStore } from '../store/postgres/team-store.js';
import { PostgresUsageCounter } from '../store/postgres/usage-store.js';
import type { AuditTrail } from './lazy-audit.js';

/**
 * What a workspace's registry keeps in the PostgreSQL team store besides notes: its audit chain, under
 * `tenant` (`_local`, LOCAL_TENANT, for a server that serves no tenants), which every replica appends to, and
 * the count of calls made without a key against `[server.limits.local]`.
 */
export function teamAudit(
  team: TeamStore,
  tenant: string | undefined,
  logger: Logger,
): { readonly audit: () => AuditTrail; readonly usage: UsageCounter } {
  return {
    audit: () => new PostgresAuditSink(team.pool, { tenant: tenant ?? LOCAL_TENANT, logger }),
    usage: new PostgresUsageCounter(team.pool),
  };
}
