/**
 * A tenant's own meshlens.toml shapes how its workspace is indexed, never what its keys may do: `[server]`,
 * the audit switch and the server's disabled domains come from the server's file.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { loadTenantOwnConfig, tenantLoaded } from '../../src/cli/tenant-config.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterAll(() => removeTemps());

describe('a tenant config under the server config', () => {
  it("keeps the tenant's workspace settings and takes visibility, limits, audit and disabled domains from the server", () => {
    const root = tempDir('meshlens-tenant-config-');
    writeFiles(root, {
      'server/meshlens.toml': [
        '[tools]',
        'disabled_domains = ["git"]',
        '[server.visibility.roles]',
        'member = ["code"]',
        '[server.limits.roles.member]',
        'daily = 100',
        '[server.tenants.acme]',
        'workspace = "../acme"',
        '',
      ].join('\n'),
      'acme/meshlens.toml': [
        '[workspace]',
        'name = "acme shop"',
        'roots = ["api"]',
        '[tools]',
        'disabled_domains = ["graph"]',
        '[policy]',
        'audit = false',
        '[server.visibility.roles]',
        'member = ["*"]',
        '',
      ].join('\n'),
      'acme/api/main.go': 'package main\n',
    });
    const server = loadConfig({ cwd: root, configPath: 'server/meshlens.toml' });
    const own = loadTenantOwnConfig('acme', path.join(root, 'acme'), { WORKSPACE_ROOT: root });
    const loaded = tenantLoaded(own, server.config);

    expect([loaded.workspaceName, loaded.roots.map((r) => r.name)]).toEqual(['acme shop', ['api']]);
    expect(loaded.config.tools.disabled_domains).toEqual(['git', 'graph']);
    expect(loaded.config.policy.audit).toBe(true);
    expect(loaded.config.server).toEqual({ ...server.config.server, tenants: {} });
    expect(loaded.warnings).toEqual([
      `[server] in ${path.join(root, 'acme/meshlens.toml')} is not used: on a server with tenants, the server's own config decides visibility, limits and tenants`,
    ]);
  });

  it('a tenant without a meshlens.toml gets the defaults, never a file from a folder above it', () => {
    const root = tempDir('meshlens-tenant-config-');
    writeFiles(root, {
      'meshlens.toml': '[workspace]\nroots = ["acme/api"]\n[docs]\nenabled = false\n',
      'acme/api/main.go': 'package main\n',
    });
    const own = loadTenantOwnConfig('acme', path.join(root, 'acme'));
    expect([own.file, own.roots.map((r) => r.name), own.config.docs.enabled]).toEqual([
      undefined,
      ['.'],
      true,
    ]);
  });
});
