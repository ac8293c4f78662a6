import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/ops/catalog.js';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { DOMAIN_SURFACE_TOOLS } from '../helpers/tool-names.js';

afterEach(removeTemps);

const ALL_TOOLS = [...DOMAIN_SURFACE_TOOLS];

const config = (visibility: string) =>
  `[workspace]\nroots = ["api"]\n\n[server.visibility.roles]\n${visibility}\n`;

describe('[server.visibility] (built CLI over stdio)', () => {
  it('a rule naming an unknown mode stops serve with a config error naming it and the valid ones', () => {
    const ws = tempDir('meshlens-visibility-');
    writeFiles(ws, { 'meshlens.toml': config('reader = ["code.serch"]'), 'api/main.go': 'package main\n' });
    const env = tempEnv();
    const result = runCli(['serve', '--workspace', ws], { env });
    rmSync(env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
    const codeModes = OPERATIONS.filter((op) => op.domain === 'code').map((op) => op.mode);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `meshlens: Invalid config ${path.join(ws, 'meshlens.toml')}:\n` +
        `  - [server.visibility.roles] reader: unknown mode \`code.serch\` — did you mean \`code.search\`? (modes of code: ${codeModes.join(', ')})\n`,
    );
  });

  it('the stdio session is the local principal: it sees everything, and a table edited while serving changes nothing it sees', async () => {
    const ws = tempDir('meshlens-visibility-');
    const file = path.join(ws, 'meshlens.toml');
    writeFiles(ws, { 'meshlens.toml': config('reader = ["code.search"]'), 'api/main.go': 'package main\n' });
    const env = tempEnv();
    const client = new Client({ name: 'visibility', version: '1.0.0' });
    const changes: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push('tools'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--workspace', ws],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).toEqual(ALL_TOOLS);
      const outline = await client.callTool({
        name: 'code',
        arguments: { mode: 'outline', path: 'api/main.go' },
      });
      expect(outline.isError).toBeUndefined();

      writeFileSync(file, config('reader = ["code.search", "docs"]'));
      await new Promise((resolve) => setTimeout(resolve, 600));
      // A bad rule written while serving is not applied, and says why in the log.
      writeFileSync(file, config('reader = ["codes"]'));
      const deadline = Date.now() + 10_000;
      while (!stderr.includes('unknown domain `codes`') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr).toContain('config not applied');
      expect(stderr).toContain(
        '[server.visibility.roles] reader: unknown domain `codes` — did you mean `code`?',
      );
      expect(changes).toEqual([]);
      expect(await names()).toEqual(ALL_TOOLS);
    } finally {
      await client.close();
      rmSync(env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
    }
  }, 60_000);
});
