/**
 * Everything an HTTP server keeps for one workspace: its config, index, notes, audit trail and the registry
 * over them. A server without tenants has one; a server with `[server.tenants]` has one per tenant, so that
 * nothing one tenant's session reaches (operations, resources, completions, cursors) is built over another's.
 */
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { IndexCatalog } from '../server/catalog.js';
import { ServedRegistry } from '../server/served-registry.js';
import { flushCompileCache } from './compile-cache.js';
import { composeRegistry, type ComposedRegistry } from './compose.js';
import { indexCatalog } from './index-catalog.js';
import { LazyIndex } from './lazy-index.js';
import { LazyNotes } from './lazy-notes.js';
import { warmEachSnapshot } from './snapshot-warmup.js';
import { teamAudit } from './team-audit.js';
import { teamNotes } from './team-notes.js';
import type { TeamStore } from '../store/postgres/team-store.js';

export interface WorkspaceRuntimeOptions {
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
  /** The audit session of calls made outside any MCP session. */
  readonly session: string;
  /** The audit log's file; the installation's by default. */
  readonly auditPath?: string;
  /** Where `${WORKSPACE_ROOT}` in skill paths is read from (a tenant's runtime reads none). */
  readonly pathEnv?: Readonly<Record<string, string | undefined>>;
  /** The PostgreSQL team store, when the server has one: the workspace's shared data lives there. */
  readonly teamStore?: TeamStore;
  /** The tenant this runtime serves, with `[server.tenants]`; rows in the team store carry it. */
  readonly tenant?: string;
}

export class WorkspaceRuntime {
  readonly loaded: LoadedConfig;
  readonly index: LazyIndex;
  readonly notes: LazyNotes;
  readonly served: ServedRegistry;
  readonly catalog: IndexCatalog;
  private readonly composed: ComposedRegistry;
  private readonly logger: Logger;

  /** Composes the operations over the workspace; nothing is read or indexed until `start`. */
  constructor(options: WorkspaceRuntimeOptions) {
    const { loaded, logger } = options;
    this.loaded = loaded;
    this.logger = logger;
    for (const warning of loaded.warnings) logger.warn({ config: loaded.file }, warning);
    const team = options.teamStore
      ? { team: options.teamStore, ...(options.tenant !== undefined ? { tenant: options.tenant } : {}) }
      : {};
    this.index = new LazyIndex(loaded, logger, team);
    // With a team store every replica keeps the workspace's notes in it; else in the local SQLite file.
    this.notes = new LazyNotes(
      loaded.baseDir,
      options.teamStore ? { open: teamNotes(options.teamStore, options.tenant) } : {},
    );
    this.composed = composeRegistry({
      loaded,
      index: this.index,
      notes: this.notes,
      logger,
      session: options.session,
      ...(options.auditPath !== undefined ? { auditPath: options.auditPath } : {}),
      ...(options.pathEnv ? { pathEnv: options.pathEnv } : {}),
      // With a team store the audit chain is kept there, one per tenant, shared by every replica.
      ...(options.teamStore ? teamAudit(options.teamStore, options.tenant, logger) : {}),
    });
    this.served = ServedRegistry.of(this.composed.registry);
    this.catalog = indexCatalog(this.index, this.notes);
  }

  /** Opens the audit log and starts indexing (and, with `watch`, watching the roots). */
  start(options: { readonly watch: boolean }): void {
    const { index, logger } = this;
    void this.composed.audit?.load();
    warmEachSnapshot(index, logger);
    void index
      .start({ watch: options.watch })
      .catch((error: unknown) => logger.error({ err: error }, 'indexing failed'));
    void index
      .load()
      .then(flushCompileCache)
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.index
      .close()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'closing the index failed'));
    // The audit log is written last: the records of calls that the closing sessions ended are in it.
    await this.composed.close();
  }
}
