import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, tempEnv } from './cli.js';
import { waitFor } from './engine.js';
import { textOf } from './mcp.js';

/** `meshlens serve` (the built CLI) over stdio with a cold cache of its own, and an SDK client talking to it. */
export interface StdioServer {
  /** Calls a tool of the flat surface and returns its text. */
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Polls `index_status` until a snapshot is installed; returns the status text that said so. */
  ready(timeoutMs?: number): Promise<string>;
  /** Ends the server and removes its cache folder. */
  close(): Promise<void>;
}

export async function serveOverStdio(
  workspace: string,
  extraArgs: readonly string[] = [],
): Promise<StdioServer> {
  const env = tempEnv();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--surface', 'flat', '--workspace', workspace, ...extraArgs],
    env,
    cwd: workspace,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'meshlens-test', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    textOf(await client.callTool({ name, arguments: args }));
  return {
    call,
    async ready(timeoutMs = 60_000) {
      let status = '';
      await waitFor(
        'the first snapshot',
        async () => {
          status = await call('index_status');
          return /Snapshot generation \d+, ready/.test(status);
        },
        timeoutMs,
      );
      return status;
    },
    async close() {
      await client.close();
      rmSync(env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
    },
  };
}
