import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditRows } from '../../src/store/audit-rows.js';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';
import {
  httpClient as connectHttp,
  startHttpServe,
  stopHttpServe,
  type HttpServe,
} from '../helpers/http-serve.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');
const IMPACT = { mode: 'impact', target: 'orders.created' };
const CONSUMER = '`services/payment/events.go:43`';

let workspace: string;
let env: Record<string, string>;
let serve: HttpServe;
let url: string;
const httpClient = () => connectHttp(url);

/** An answer without its timings, which differ from one run to the next. */
const withoutTimings = (result: unknown): unknown =>
  JSON.parse(JSON.stringify(result, (key, value: unknown) => (key === 'elapsed_ms' ? undefined : value)));

beforeAll(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-http-'));
  cpSync(EXAMPLE, workspace, { recursive: true });
  env = tempEnv();
  serve = await startHttpServe(['--workspace', workspace], env);
  url = serve.url;
}, 30_000);

afterAll(() => {
  if (serve.process.exitCode === null) serve.process.kill('SIGKILL');
});

describe('serve --http (built CLI)', () => {
  it('prints the bound loopback endpoint as one line', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('a first call on a cold cache waits for the index, with progress over SSE, then answers', async () => {
    const client = await httpClient();
    const progress: number[] = [];
    const result = await client.callTool({ name: 'contracts', arguments: IMPACT }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 60_000,
    });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0]?.text).toContain(CONSUMER);
    expect(progress.length).toBeGreaterThan(0);
    await client.close();
  }, 90_000);

  it('serves the same tools and the same structured answer as stdio', async () => {
    const http = await httpClient();
    const stdio = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--no-watch', '--workspace', workspace],
        env,
        stderr: 'pipe',
      }),
    );
    expect((await http.listTools()).tools).toEqual((await stdio.listTools()).tools);
    const call = { name: 'contracts', arguments: IMPACT };
    const [overHttp, overStdio] = [await http.callTool(call), await stdio.callTool(call)];
    expect(overHttp.isError).toBeFalsy();
    expect(JSON.stringify(overHttp.structuredContent)).toContain('services/payment/events.go');
    expect(withoutTimings(overHttp)).toEqual(withoutTimings(overStdio));
    await Promise.all([http.close(), stdio.close()]);
  }, 60_000);

  it('ends on SIGTERM with status 0, the calls in the audit log', async () => {
    expect(await stopHttpServe(serve)).toBe(0);
    const verify = runCli(['audit', 'verify'], { env });
    expect(verify.status).toBe(0);
    expect(verify.stdout).toMatch(/^audit log OK: [1-9]\d* /);
    // Each HTTP session is its own audit session, named by a prefix of its id (never the whole id); the
    // stdio server of the comparison wrote to the same log.
    const sessions = [...new Set(readAuditRows(String(env.MESHLENS_AUDIT_DB)).map((row) => row.session))];
    expect(sessions.map((s) => s.replace(/^(http|stdio)-.*/, '$1')).sort()).toEqual([
      'http',
      'http',
      'stdio',
    ]);
    for (const session of sessions.filter((s) => s.startsWith('http-')))
      expect(session).toMatch(/^http-[0-9a-f]{8}$/);
  }, 30_000);

  it('refuses to listen beyond loopback without authentication: status 2 and why', () => {
    const refused = runCli(['serve', '--http', '--listen', '0.0.0.0:8080', '--workspace', workspace], {
      env,
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      'meshlens: refusing to listen on 0.0.0.0:8080 without authentication: anyone who can reach it could read the workspace. ' +
        'Listen on a loopback address (127.0.0.1, ::1 or localhost), or configure authentication first (see docs/deploy.md).\n',
    );
    // The full CLI (two origins after one flag are commander's form, not the fast path's) says the same.
    const full = runCli(
      [
        'serve',
        '--http',
        '--listen',
        '[::]:8080',
        '--workspace',
        workspace,
        '--allow-origin',
        'https://a.example',
        'https://b.example',
      ],
      { env },
    );
    expect(full.status).toBe(2);
    expect(full.stderr).toContain('meshlens: refusing to listen on [::]:8080 without authentication:');
  });
});
