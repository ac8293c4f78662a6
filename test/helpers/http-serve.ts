import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI } from './cli.js';

export interface HttpServe {
  readonly process: ChildProcess;
  /** The endpoint the server printed: `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Everything on stderr so far. */
  readonly stderr: () => string;
}

/** Starts the built CLI's `serve --http` on a free loopback port; resolves once it prints its endpoint. */
export function startHttpServe(args: readonly string[], env: Record<string, string>): Promise<HttpServe> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--listen', '127.0.0.1:0', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /^meshlens: listening on (\S+)$/m.exec(stderr)?.[1];
      if (url) resolve({ process: child, url, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve --http exited with ${code}: ${stderr}`)));
  });
}

/** An SDK client connected over Streamable HTTP; with `key`, every request carries it as a Bearer token. */
export async function httpClient(url: string, name = 'http-e2e', key?: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const requestInit = key === undefined ? undefined : { headers: { Authorization: `Bearer ${key}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), requestInit ? { requestInit } : {}));
  return client;
}

/** Sends SIGTERM and resolves with the exit status. */
export function stopHttpServe(serve: HttpServe): Promise<number | null> {
  if (serve.process.exitCode !== null) return Promise.resolve(serve.process.exitCode);
  const exited = new Promise<number | null>((resolve) => serve.process.once('exit', resolve));
  serve.process.kill('SIGTERM');
  return exited;
}
