/**
 * One runtime per tenant of `[server.tenants]`: its own config, index, fact cache, notes, audit chain and
 * registry, created on the tenant's first session. Whatever a session reaches — operations, resources,
 * completions, cursors (offsets into the runtime's own data) — comes from its tenant's runtime, so it cannot
 * name another tenant's data, only fail to find it.
 */
import type { MeshConfig } from '../core/config-schema.js';
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { Principal } from '../core/principal.js';
import { visibilityTableOf } from '../core/visibility.js';
import { OPERATIONS } from '../ops/catalog.js';
import { tenantAuditDbPath } from '../store/cache-paths.js';
import { configChange, watchConfigFile } from './config-reload.js';
import type { ServedWorkspaces } from './served-workspaces.js';
import { loadTenantOwnConfig, tenantEnv, tenantLoaded, tenantPolicy } from './tenant-config.js';
import type { TenantWorkspace } from './tenant-table.js';
import { WorkspaceRuntime } from './workspace-runtime.js';
import type { TeamStore } from '../store/postgres/team-store.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface TenantRuntimesOptions {
  readonly tenants: readonly TenantWorkspace[];
  /** The server's own config: visibility, limits and the audit switch apply to every tenant. */
  readonly server: LoadedConfig;
  readonly reload: () => LoadedConfig;
  readonly logger: Logger;
  readonly watch: boolean;
  readonly env?: Env;
  /** The PostgreSQL team store, when the server has one; each tenant's rows carry its name. */
  readonly teamStore?: TeamStore;
}

/** Log lines of a tenant's runtime say whose they are. */
const taggedLogger = (logger: Logger, tenant: string): Logger => {
  const tag =
    (method: Logger['info']): Logger['info'] =>
    (context, message) =>
      typeof context === 'string' ? method({ tenant }, context) : method({ tenant, ...context }, message);
  return {
    debug: tag(logger.debug),
    info: tag(logger.info),
    warn: tag(logger.warn),
    error: tag(logger.error),
  };
};

export class TenantRuntimes implements ServedWorkspaces {
  /** Each tenant's own config, read at start so that a broken one stops the server, not a session. */
  private readonly own = new Map<string, LoadedConfig>();
  private readonly runtimes = new Map<string, WorkspaceRuntime>();
  private server: MeshConfig;
  private readonly options: TenantRuntimesOptions;
  private readonly env: Env;

  /** Throws a ConfigError naming the tenant when its own meshlens.toml does not load. */
  constructor(options: TenantRuntimesOptions) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.server = options.server.config;
    for (const { tenant, workspace } of options.tenants)
      this.own.set(tenant, loadTenantOwnConfig(tenant, workspace, this.env));
  }

  /** Whether the tenant has a workspace on this server. */
  readonly serves = (tenant: string): boolean => this.own.has(tenant);

  runtimeFor(caller: Principal | undefined): WorkspaceRuntime {
    const tenant = caller?.kind === 'key' ? caller.tenant : undefined;
    const own = tenant === undefined ? undefined : this.own.get(tenant);
    // The authenticator refuses such keys first; reaching here would be a wiring mistake, never a fallback.
    if (tenant === undefined || !own) throw new Error('a session without a served tenant reached the server');
    return this.runtimes.get(tenant) ?? this.startRuntime(tenant, own);
  }

  private startRuntime(tenant: string, own: LoadedConfig): WorkspaceRuntime {
    const logger = taggedLogger(this.options.logger, tenant);
    const runtime = new WorkspaceRuntime({
      loaded: tenantLoaded(own, this.server),
      logger,
      session: `http-${process.pid}-${Date.now()}-${tenant}`,
      auditPath: tenantAuditDbPath(tenant, this.env),
      pathEnv: tenantEnv(this.env),
      tenant,
      ...(this.options.teamStore ? { teamStore: this.options.teamStore } : {}),
    });
    this.runtimes.set(tenant, runtime);
    runtime.start({ watch: this.options.watch });
    logger.info({ workspace: own.baseDir }, 'tenant runtime started');
    return runtime;
  }

  /** Tenants start on their first session. */
  start(): void {}

  /**
   * A change to the server's file applies its visibility tiers and disabled domains to every tenant at once;
   * anything else (the tenants table among it) waits for a restart, and every session is told so. The
   * message names settings, not the file: the server's paths are none of a tenant's business.
   */
  watchConfig(warnClients: (message: string) => void): () => void {
    const file = this.options.server.file;
    if (!this.options.watch || file === undefined) return () => undefined;
    const { logger } = this.options;
    return watchConfigFile({
      file,
      reload: this.options.reload,
      logger,
      onChange: (next) => {
        const change = configChange(this.server, next.config);
        try {
          visibilityTableOf(next.config.server.visibility, OPERATIONS, file);
        } catch (error) {
          logger.warn({ config: file }, `config not applied: ${(error as Error).message}`);
          return;
        }
        this.server = next.config;
        this.applyServerConfig();
        if (change.needsRestart.length > 0) {
          const message = `The server's config changed ${change.needsRestart.join(', ')}: it applies when the server restarts.`;
          logger.warn({ config: file }, message);
          warnClients(message);
        }
      },
    });
  }

  private applyServerConfig(): void {
    for (const [tenant, runtime] of this.runtimes) {
      const own = this.own.get(tenant);
      if (!own) continue;
      const config = tenantPolicy(own.config, this.server);
      void runtime.served
        .replace((registry) =>
          registry
            .withDisabledDomains(config.tools.disabled_domains)
            .withVisibility(config.server.visibility),
        )
        .catch((error: unknown) =>
          this.options.logger.warn({ tenant }, `config not applied: ${(error as Error).message}`),
        );
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((runtime) => runtime.close()));
  }
}
