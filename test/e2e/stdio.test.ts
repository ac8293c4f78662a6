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

/** The built CLI serving over stdio, read and written as raw JSON-RPC lines. */
function spawnServe() {
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
    for (let i = 0; i < 200 && lines.length < count; i++) await new Promise((r) => setTimeout(r, 50));
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, waitFor, exited };
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
    const { child, lines, waitFor, exited } = spawnServe();
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
    child.stdin.end();
    expect(await exited).toBe(0);
    // Nothing but JSON-RPC frames on stdout.
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('answers calls nested 100000 levels deep or with mistyped params with -32602, and keeps serving', async () => {
    const { child, lines, waitFor, exited } = spawnServe();
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const call = (id: number, params: string) =>
      child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}\n`);
    call(1, `{"name":"code","arguments":{"mode":"search","query":${deep(100_000)}}}`);
    call(2, '{"name":"code","arguments":"search"}');
    call(3, '{"name":7,"arguments":{}}');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' })}\n`);
    await waitFor(4);
    const replies = lines.map((line) => JSON.parse(line) as { id: number });
    expect(replies.sort((a, b) => a.id - b.id)).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32602,
          message:
            'Invalid params: `params.arguments.query` nests deeper than 64 levels; tool arguments are flat strings, numbers and booleans.',
        },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32602,
          message:
            'Invalid params for tools/call: `params.arguments` must be a JSON object, got string "search". Send the tool\'s fields as one JSON object, e.g. {"mode": "search", "query": "OrderService"}; tools/list gives each tool\'s inputSchema.',
        },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message:
            'Invalid params for tools/call: `params.name` must be a string, got number 7. Name a tool that tools/list returns.',
        },
      },
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
    child.stdin.end();
    expect(await exited).toBe(0);
  });

  it('answers a line over 16 MiB once, skips the rest of it, and keeps serving', async () => {
    const { child, lines, waitFor, exited } = spawnServe();
    const huge = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(17 * 1024 * 1024)}"}}\n`;
    child.stdin.write(huge);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await waitFor(2);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: line exceeds 16 MiB' } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
