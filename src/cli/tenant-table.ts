/**
 * `[server.tenants]` as a server uses it: each tenant's workspace folder, checked at start so that no two
 * tenants can read the same files. Everything a runtime keeps on disk (fact cache, notes) is named after its
 * workspace folder, so two tenants on one folder, or one inside the other's, would share data: refused.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type LoadedConfig } from '../core/config.js';

export interface TenantWorkspace {
  readonly tenant: string;
  /** The folder, absolute and with symlinks resolved. */
  readonly workspace: string;
}

const isInside = (child: string, parent: string): boolean => {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** One tenant's folder, resolved against the config file's folder; a missing one is a config error. */
function workspaceOf(loaded: LoadedConfig, tenant: string, spelling: string): string {
  const absolute = path.resolve(loaded.baseDir, spelling);
  if (!statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigError(
      `[server.tenants.${tenant}] workspace ${JSON.stringify(spelling)} is not a folder (looked at ${absolute}, ` +
        `relative to ${loaded.file ?? loaded.baseDir}): create it or fix the path.`,
    );
  }
  return realpathSync.native(absolute);
}

/** Two tenants whose data would mix: the same folder, one folder inside the other, or names that differ only in case. */
function clash(a: TenantWorkspace, b: TenantWorkspace): string | undefined {
  const pair = `\`${a.tenant}\` and \`${b.tenant}\``;
  if (a.tenant.toLowerCase() === b.tenant.toLowerCase())
    return `${pair} differ only in case, and their audit chains would be one file where case is ignored: rename one`;
  if (a.workspace === b.workspace)
    return `${pair} both name ${a.workspace}: they would share its index, cache and notes; give each tenant its own folder`;
  const [outer, inner] = isInside(b.workspace, a.workspace) ? [a, b] : [b, a];
  if (isInside(inner.workspace, outer.workspace))
    return `\`${outer.tenant}\`'s workspace ${outer.workspace} holds \`${inner.tenant}\`'s (${inner.workspace}): ${outer.tenant} would read ${inner.tenant}'s files; give each tenant a folder of its own, side by side`;
  return undefined;
}

/**
 * The tenants of `[server.tenants]`, sorted by name; empty without the table. Throws a ConfigError naming the
 * file when a folder is missing or two tenants would share data.
 */
export function tenantWorkspaces(loaded: LoadedConfig): readonly TenantWorkspace[] {
  const tenants = Object.entries(loaded.config.server.tenants)
    .map(([tenant, entry]) => ({ tenant, workspace: workspaceOf(loaded, tenant, entry.workspace) }))
    .sort((a, b) => (a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0));
  const problems = tenants.flatMap((a, i) =>
    tenants.slice(i + 1).flatMap((b) => {
      const problem = clash(a, b);
      return problem === undefined ? [] : [problem];
    }),
  );
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid [server.tenants] in ${loaded.file ?? 'meshlens.toml'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return tenants;
}
