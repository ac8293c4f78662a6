import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

describe('smart_search over module declarations', () => {
  it('finds a Ruby module and a TypeScript namespace instead of a false authoritative zero', async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-modules-'));
    mkdirSync(path.join(workspace, 'svc'));
    writeFileSync(
      path.join(workspace, 'svc', 'billing.rb'),
      'module BillingRules\n  def self.apply; end\nend\n',
    );
    writeFileSync(
      path.join(workspace, 'svc', 'geo.ts'),
      'export namespace GeoRules {\n  export const x = 1;\n}\n',
    );
    writeFileSync(path.join(workspace, 'meshlens.toml'), '[workspace]\nroots = ["svc"]\n');
    const { registry, engine } = await indexedRegistry(workspace);
    const client = await connectClient(registry, 'flat');
    try {
      const ruby = textOf(
        await client.callTool({ name: 'smart_search', arguments: { query: 'BillingRules' } }),
      );
      expect(ruby).toContain('### [1] `svc/billing.rb`');
      const ts = textOf(await client.callTool({ name: 'smart_search', arguments: { query: 'GeoRules' } }));
      expect(ts).toContain('### [1] `svc/geo.ts`');
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
