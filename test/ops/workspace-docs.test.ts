import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { composeRegistry } from '../../src/cli/compose.js';
import { LazyIndex } from '../../src/cli/lazy-index.js';
import { loadConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { workspaceDocLocations } from '../../src/index/workspace-docs.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';

afterEach(removeTemps);

/** A workspace whose only root is one service: README.md and docs/ at the top are outside every root. */
function workspace(docsSettings = ''): string {
  const ws = tempDir('meshlens-workspace-docs-');
  writeFiles(ws, {
    'meshlens.toml': `[workspace]\nroots = ["services/api"]\n\n[docs]\n${docsSettings}\n\n[policy]\naudit = false\n\n[cache]\nenabled = false\n`,
    'README.md': '# Shop\n\nThe demo shop.\n\n## Deploying the shop\n\nRun the blue-green rollout script.\n',
    'docs/architecture.md': '# Architecture\n\nOrders flow through the blue-green gateway.\n',
    'docs/diagram.png': 'not markdown',
    'NOTES.txt': 'blue-green in a text file, not a document',
    'services/api/README.md': '# API\n\nServes orders.\n',
    'services/api/main.go': 'package main\n\nfunc main() {}\n',
  });
  return ws;
}

async function serve(ws: string): Promise<{ client: Client; index: LazyIndex }> {
  const loaded = loadConfig({ cwd: ws, workspaceDir: ws, env: {} });
  const index = new LazyIndex(loaded, silentLogger);
  await index.start({ watch: false });
  const { registry } = composeRegistry({ loaded, index, logger: silentLogger });
  return { client: await connectClient(registry, 'flat'), index };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  textOf(await client.callTool({ name, arguments: args }));

describe('the workspace’s own documents', () => {
  it('README.md and docs/ outside every root are searched and read, [docs] paths or not', async () => {
    const { client, index } = await serve(workspace('paths = ["services/api"]'));
    try {
      const found = await call(client, 'search_docs', { query: 'blue-green', max_sections: 5 });
      const paths = [...found.matchAll(/^### \[\d\] .+? — `([^`]+)`/gm)].map((m) => m[1]);
      expect(paths.sort()).toEqual(['README.md', 'docs/architecture.md']);
      expect(found).toContain('Deploying the shop');
      const read = await call(client, 'read_doc', { path: 'README.md' });
      expect(read).toContain('Run the blue-green rollout script.');
      // The root's own Markdown is searched as before.
      expect(await call(client, 'search_docs', { query: 'serves orders' })).toContain(
        'services/api/README.md',
      );
    } finally {
      await client.close();
      await index.close();
    }
  });

  it('`[docs] workspace_docs = false` leaves them out of the index and the path jail', async () => {
    const { client, index } = await serve(workspace('workspace_docs = false'));
    try {
      const found = await call(client, 'search_docs', { query: 'blue-green' });
      expect(found).toContain('Exactly 0 doc sections match');
      const refused = await client.callTool({ name: 'read_doc', arguments: { path: 'README.md' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('must be inside the workspace roots');
    } finally {
      await client.close();
      await index.close();
    }
  });

  it('a root at the workspace folder, or one over docs/, already covers them', () => {
    const ws = workspace();
    expect(workspaceDocLocations(ws, [{ path: `${ws}/services/api` }])).toEqual([
      `${ws}/README.md`,
      `${ws}/docs`,
    ]);
    expect(workspaceDocLocations(ws, [{ path: `${ws}/docs` }])).toEqual([`${ws}/README.md`]);
    expect(workspaceDocLocations(ws, [{ path: ws }])).toEqual([]);
  });
});
