import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempEnv } from '../helpers/cli.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');
const IMPACT = { mode: 'impact', target: 'orders.created' };
const CONSUMER = '`services/payment/events.go:43`';

let workspace: string;

beforeAll(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-first-call-'));
  cpSync(EXAMPLE, workspace, { recursive: true });
});

async function connect(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--workspace', workspace],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'first-call', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { text: string }[])[0]?.text ?? '';

describe('the first call after initialize (built CLI over stdio)', () => {
  it('on a cold cache waits for the index, with progress for a token, then answers', async () => {
    const env = tempEnv();
    const client = await connect(env);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'contracts', arguments: IMPACT }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 60_000,
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain(CONSUMER);
    expect(progress.length).toBeGreaterThan(0);
    await client.close();

    // Warm: a new server on the same cache answers its first call too, and a call without a token is
    // told what it waits for through a log message rather than nothing (when it has to wait at all).
    const warm = await connect(env);
    const logs: string[] = [];
    warm.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String(n.params.data));
    });
    const again = await warm.callTool({ name: 'contracts', arguments: IMPACT });
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toContain(CONSUMER);
    expect(logs.every((line) => line.startsWith('Waiting for the first index'))).toBe(true);
    await warm.close();
  }, 90_000);

  it('with first_call_wait_seconds = 0 answers "still indexing" at once, as before', async () => {
    const own = mkdtempSync(path.join(os.tmpdir(), 'meshlens-first-call-nowait-'));
    cpSync(EXAMPLE, own, { recursive: true });
    const { appendFileSync, readFileSync } = await import('node:fs');
    const toml = path.join(own, 'meshlens.toml');
    const text = readFileSync(toml, 'utf8');
    appendFileSync(toml, text.includes('[tools]') ? '' : '\n[tools]\nfirst_call_wait_seconds = 0\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--workspace', own],
      env: tempEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'first-call', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'contracts', arguments: IMPACT });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Still indexing/);
    await client.close();
  }, 60_000);
});
