/**
 * Wires the index of `serve --http --store postgres://…` to the team store: the engine's fact store is the
 * replica's own cache over the facts every replica shares, and the cold index goes through the workspace's
 * index job. Loaded only when a PostgreSQL store is configured.
 */
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { FactCache } from '../store/fact-cache.js';
import { IndexJobs } from '../store/postgres/index-jobs.js';
import { SharedFactStore } from '../store/postgres/shared-fact-store.js';
import { SharedFacts, type FactScope } from '../store/postgres/shared-facts.js';
import { SharedIndex } from '../store/postgres/shared-index.js';
import type { TeamStore } from '../store/postgres/team-store.js';

/** A server without `[server.tenants]` serves its workspace to every key: its rows belong to no one tenant. */
export const SERVER_TENANT = '*';

export interface TeamIndex {
  /** Opens the engine's fact store: the local cache `openLocal` gives, under the shared facts. */
  readonly openStore: () => SharedFactStore;
  readonly shared: SharedIndex;
}

export function teamIndex(
  team: TeamStore,
  loaded: LoadedConfig,
  logger: Logger,
  openLocal: () => FactCache,
  timing: { readonly pollMs?: number; readonly tenant?: string } = {},
): TeamIndex {
  // Replicas of one workspace share by its name: the folder name, or `[workspace] name`; a tenant's
  // workspace is shared only among that tenant's runtimes.
  const scope: FactScope = { tenant: timing.tenant ?? SERVER_TENANT, workspace: loaded.workspaceName };
  const facts = new SharedFacts(team.pool, scope);
  let opened: SharedFactStore | undefined;
  const shared = new SharedIndex({
    jobs: new IndexJobs(team.pool, scope, logger),
    replica: team.replica,
    logger,
    facts: () => opened,
    ...(timing.pollMs !== undefined ? { pollMs: timing.pollMs } : {}),
  });
  return {
    openStore: () => (opened = new SharedFactStore({ local: openLocal(), shared: facts, logger })),
    shared,
  };
}
