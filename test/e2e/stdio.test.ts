import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempEnv } from '../helpers/cli.js';

let workspace: string;
let env: Record<string, string>;

beforeAll(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-e2e-'));
  mkdirSync(path.join(workspace, 'svc'));
  writeFileSync(path.join(workspace, 'svc', 'main.go'), 'package main\n\nfunc main() {}\n');
  writeFileSync(path.join(workspace, 'meshlens.toml'), '[workspace]\nname = "e2e"\nroots = ["svc"]\n');
  env = tempEnv();
});

afterAll(() => undefined);

async function connect(surface: 'domain' | 'flat') {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--surface', surface, '--workspace', workspace],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('meshlens serve over stdio (built CLI)', () => {
  it('initializes and lists the domain surface', async () => {
    const { client } = await connect('domain');
    expect(client.getServerVersion()?.name).toBe('meshlens');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('admin');
    await client.close();
  });

  it('lists the flat surface and answers a call once indexed', async () => {
    const { client } = await connect('flat');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('index_status');
    let text = '';
    for (let attempt = 0; attempt < 100; attempt++) {
      const result = await client.callTool({ name: 'index_status', arguments: {} });
      text = (result.content as { text: string }[])[0]?.text ?? '';
      if (text.includes('Snapshot generation')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(text).toContain('# Index status: workspace `e2e`');
    expect(text).toContain('Snapshot generation 1, ready.');
    const unknown = client.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(unknown).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('answers a malformed line with -32700, keeps serving, and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--workspace', workspace], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let i = buffer.indexOf('\n');
      while (i !== -1) {
        lines.push(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        i = buffer.indexOf('\n');
      }
    });
    const waitFor = async (count: number) => {
      for (let i = 0; i < 100 && lines.length < count; i++) await new Promise((r) => setTimeout(r, 50));
    };
    child.stdin.write('this is not json\n');
    await waitFor(1);
    expect(JSON.parse(lines[0] ?? '{}')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not valid JSON' },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })}\n`);
    await waitFor(2);
    expect(JSON.parse(lines[1] ?? '{}')).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
    // Nothing but JSON-RPC frames on stdout.
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
