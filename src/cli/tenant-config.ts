/**
 * A tenant's configuration: its workspace's own meshlens.toml (or the defaults), with what decides access taken
 * from the server's file. The tenant's file comes with its repository, so it may shape how its workspace is
 * indexed and searched, but never widen what its keys may do: `[server]` (visibility, limits), the audit
 * switch, and the domains the server turned off are the server's.
 */
import { configSchema, type MeshConfig } from '../core/config-schema.js';
import { ConfigError, loadConfig, type LoadedConfig } from '../core/config.js';

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_SERVER_SECTION = JSON.stringify(configSchema.parse({}).server);

/** What a tenant's runtime serves, from its own settings and the server's. */
export function tenantPolicy(own: MeshConfig, server: MeshConfig): MeshConfig {
  return {
    ...own,
    server: { ...server.server, tenants: {} },
    policy: { ...own.policy, audit: server.policy.audit },
    tools: {
      ...own.tools,
      disabled_domains: [
        ...new Set([...server.tools.disabled_domains, ...own.tools.disabled_domains]),
      ].sort(),
    },
  };
}

/**
 * Loads the tenant's own file from its workspace folder (never one above it: that may be the server's, or
 * another tenant's parent) and holds its paths to that folder: `$WORKSPACE_ROOT` and
 * `--allow-outside-workspace` are the server's, not the tenant's, and do not apply. A config error names the
 * tenant.
 */
export function loadTenantOwnConfig(tenant: string, workspace: string, env: Env = process.env): LoadedConfig {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig({
      cwd: workspace,
      workspaceDir: workspace,
      env: tenantEnv(env),
      // Left out first, to be refused below in words that fit a tenant (the usual ways out do not apply).
      outsideWorkspace: 'leave-out',
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`tenant \`${tenant}\`: ${error.message}`);
    throw error;
  }
  if (loaded.outside.length > 0) {
    throw new ConfigError(
      [
        `tenant \`${tenant}\`: ${loaded.file ?? workspace} points outside the tenant's workspace folder ${loaded.baseDir}:`,
        ...loaded.outside.map((o) => `  - ${o.setting} \`${o.value}\` leads to ${o.resolved}`),
        "A tenant's config may only name folders and files inside its own workspace, or its keys could read " +
          'what is not theirs: move them inside. $WORKSPACE_ROOT and --allow-outside-workspace do not apply to tenants.',
      ].join('\n'),
    );
  }
  return loaded;
}

/** The environment a tenant's paths are read with: without `$WORKSPACE_ROOT`, which would widen its boundary. */
export const tenantEnv = (env: Env): Env => ({ ...env, WORKSPACE_ROOT: undefined });

/** The tenant's config as its runtime serves it, under the server's current config. */
export function tenantLoaded(own: LoadedConfig, server: MeshConfig): LoadedConfig {
  const ignored =
    own.file !== undefined && JSON.stringify(own.config.server) !== DEFAULT_SERVER_SECTION
      ? [
          `[server] in ${own.file} is not used: on a server with tenants, the server's own config decides visibility, limits and tenants`,
        ]
      : [];
  return { ...own, config: tenantPolicy(own.config, server), warnings: [...own.warnings, ...ignored] };
}
