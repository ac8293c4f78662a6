import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, waitFor, writeFiles } from '../helpers/engine.js';
import { DOMAIN_SURFACE_TOOLS, MEMORY_TOOLS } from '../helpers/tool-names.js';

const ALL_TOOLS = [...DOMAIN_SURFACE_TOOLS];

afterEach(removeTemps);

const config = (extra: string) => `[workspace]\nroots = ["api"]\n\n${extra}\n`;

describe('a config file changed while serving (built CLI over stdio)', () => {
  it('disabling a domain sends tools/list_changed and the next tools/list leaves it out', async () => {
    const ws = tempDir('meshlens-config-reload-');
    writeFiles(ws, {
      'meshlens.toml': config(''),
      'api/main.go': 'package main\n\nfunc main() {}\n',
    });
    const env = tempEnv();
    const client = new Client({ name: 'config-reload', version: '1.0.0' });
    const changes: string[] = [];
    const logs: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push('tools'));
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void logs.push(String(n.params.data)),
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--workspace', ws],
        env,
        stderr: 'pipe',
      }),
    );
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).toEqual([...ALL_TOOLS]);

      writeFileSync(
        path.join(ws, 'meshlens.toml'),
        config('[tools]\ndisabled_domains = ["docs", "graph"]\n\n[docs]\nstop_words = ["the"]'),
      );
      await waitFor('tools/list_changed', () => changes.length > 0, 10_000);
      expect(await names()).toEqual(['code', 'contracts', 'git', 'admin', 'admin_rescan', ...MEMORY_TOOLS]);
      // The stop words are read at start: the client is told that they need a restart.
      await waitFor('the restart notice', () => logs.some((l) => l.includes('docs.stop_words')), 10_000);

      // A half-typed edit is not applied: the tools stay as they are.
      writeFileSync(path.join(ws, 'meshlens.toml'), '[tools\n');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(changes).toEqual(['tools']);
      expect(await names()).toEqual(['code', 'contracts', 'git', 'admin', 'admin_rescan', ...MEMORY_TOOLS]);

      writeFileSync(path.join(ws, 'meshlens.toml'), config(''));
      await waitFor('the second tools/list_changed', () => changes.length > 1, 10_000);
      expect(await names()).toEqual([...ALL_TOOLS]);
    } finally {
      await client.close();
      rmSync(env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
    }
  }, 60_000);
});
