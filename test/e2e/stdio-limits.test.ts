import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';
import { textOf } from '../helpers/mcp.js';

describe('limits on a stdio server', () => {
  it('refuses the call past [server.limits.local] with an MCP tool error, and stats counts it', async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-limits-'));
    writeFileSync(
      path.join(workspace, 'meshlens.toml'),
      '[server.limits.local]\nrate = "2/m"\ndaily = 100\n',
    );
    writeFileSync(path.join(workspace, 'a.ts'), 'export const a = 1;\n');
    const env = tempEnv();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--surface', 'flat', '--no-watch', '--workspace', workspace],
      env,
      cwd: workspace,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'meshlens-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const results = [];
      for (let i = 0; i < 3; i++)
        results.push(await client.callTool({ name: 'index_status', arguments: {} }));
      expect(results.map((r) => r.isError === true)).toEqual([false, false, true]);
      expect(textOf(results[2])).toMatch(
        /^Rate limit reached for the local server \(2\/m\)\. Retry after 30 s\.$/,
      );
    } finally {
      await client.close();
    }
    const stats = JSON.parse(runCli(['stats', '--json'], { env, cwd: workspace }).stdout) as {
      key_usage: { callers: unknown[] };
    };
    expect(stats.key_usage.callers).toEqual([{ caller: 'local', tenant: null, calls: 2, refusals: 1 }]);
    rmSync(workspace, { recursive: true, force: true });
    rmSync(env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
  });
});
