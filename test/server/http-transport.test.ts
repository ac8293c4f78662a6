import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../src/core/operation.js';
import { Registry } from '../../src/core/registry.js';
import type { Logger } from '../../src/core/logger.js';
import type { Authenticator } from '../../src/server/http/authenticator.js';
import {
  ListenRefusedError,
  startHttpServer,
  type RunningHttpServer,
} from '../../src/server/http/http-server.js';
import { createMcpServer } from '../../src/server/mcp-server.js';
import { ServedRegistry } from '../../src/server/served-registry.js';
import { SAMPLE_OPERATIONS } from '../helpers/sample-ops.js';
import path from 'node:path';
import { createAdmitter } from '../../src/core/admission.js';
import { parseRateSpec, type RateSpec } from '../../src/core/rate-spec.js';
import { AUTH_MESSAGES } from '../../src/server/api-key-auth.js';
import { keyAuthenticator } from '../../src/server/http/key-authenticator.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

/** An operation that reads the index, so that a call waits while the registry says it is not ready. */
const INDEXED = defineOperation({
  domain: 'contracts',
  mode: 'impact',
  flatName: 'indexed',
  title: 'Needs the index',
  description: 'Reads the index, e.g. for the wait. DO NOT USE (use nothing).',
  args: {},
  output: z.looseObject({}),
  capabilities: { requiresIndex: true },
  run: () => ({ data: {}, markdown: 'ran' }),
});

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const ACCEPT = 'application/json, text/event-stream';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(
  options: { served?: ServedRegistry; idleMs?: number; authenticator?: Authenticator } = {},
) {
  const served =
    options.served ?? ServedRegistry.of(new Registry({ operations: SAMPLE_OPERATIONS, services: undefined }));
  running = await startHttpServer({
    listen: { host: '127.0.0.1', port: 0 },
    logger: quiet,
    maxBodyBytes: 4096,
    ...(options.idleMs !== undefined ? { sessionIdleMs: options.idleMs } : {}),
    ...(options.authenticator ? { authenticator: options.authenticator } : {}),
    createServer: () =>
      createMcpServer({ registry: served, surface: 'domain', version: 'test', structuredOutput: true }),
  });
  return running;
}

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One request as a browser or a script might send it: any Host, Origin or body. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; path?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? 'POST',
        headers: {
          accept: ACCEPT,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const errorOf = (answer: RawAnswer): string =>
  (JSON.parse(answer.text) as { error: { message: string } }).error.message;

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Opens a session by hand; returns its id. */
async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await raw(url, { body: INITIALIZE, headers });
  expect(answer.status).toBe(200);
  return String(answer.headers['mcp-session-id']);
}

describe('Streamable HTTP transport', () => {
  it('serves initialize, tools/list and tools/call to the SDK client, with a session id', async () => {
    const { url } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client, transport } = await connect(url);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code', 'admin']);
    const result = await client.callTool({ name: 'code', arguments: { mode: 'search', query: 'x' } });
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  it('refuses a foreign Origin and a non-loopback Host with 403, and accepts its own origin', async () => {
    const { url } = await start();
    const foreign = await raw(url, { body: INITIALIZE, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(errorOf(foreign)).toBe('Forbidden: Origin https://evil.example is not allowed');
    const rebound = await raw(url, { body: INITIALIZE, headers: { host: 'attacker.example:80' } });
    expect(rebound.status).toBe(403);
    expect(errorOf(rebound)).toBe(
      'Forbidden: Host attacker.example:80 is not a loopback name; this server answers only 127.0.0.1, [::1] or localhost',
    );
    const port = new URL(url).port;
    const own = await raw(url, {
      body: INITIALIZE,
      headers: { origin: `http://localhost:${port}`, host: `localhost:${port}` },
    });
    expect(own.status).toBe(200);
    expect(running?.sessions.size).toBe(1);
  });

  it('lets an allowed origin call across origins: preflight, then the session id readable', async () => {
    running = await startHttpServer({
      listen: { host: '127.0.0.1', port: 0 },
      logger: quiet,
      allowedOrigins: ['https://app.example'],
      createServer: () =>
        createMcpServer({
          registry: new Registry({ operations: SAMPLE_OPERATIONS, services: undefined }),
          surface: 'domain',
          version: 'test',
        }),
    });
    const origin = { origin: 'https://app.example' };
    const preflight = await raw(running.url, { method: 'OPTIONS', headers: origin });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Session-Id');
    const init = await raw(running.url, { body: INITIALIZE, headers: origin });
    expect(init.status).toBe(200);
    expect(init.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(init.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
    const other = await raw(running.url, { method: 'OPTIONS', headers: { origin: 'https://other.example' } });
    expect(other.status).toBe(403);
  });

  it('answers a bad protocol version with 400 and a missing one as the spec says (assumed)', async () => {
    const { url } = await start();
    const session = await openSession(url);
    const bad = await raw(url, {
      body: LIST,
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' },
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatch(
      /^Bad Request: unsupported MCP-Protocol-Version 1999-01-01; supported: 2025-11-25, /,
    );
    const missing = await raw(url, { body: LIST, headers: { 'mcp-session-id': session } });
    expect(missing.status).toBe(200);
    expect(missing.text).toContain('"name":"code"');
  });

  it('answers a wrong path 404, a wrong method 405, a big body 413, a non-JSON body 415/400, no session 400', async () => {
    const { url } = await start();
    const wrongPath = await raw(url, { method: 'GET', path: '/' });
    expect([wrongPath.status, errorOf(wrongPath)]).toEqual([404, 'Not Found: the MCP endpoint is /mcp']);
    const wrongMethod = await raw(url, { method: 'PUT' });
    expect([wrongMethod.status, wrongMethod.headers.allow]).toEqual([405, 'GET, POST, DELETE']);
    expect(errorOf(wrongMethod)).toBe('Method Not Allowed: /mcp answers GET, POST, DELETE');
    const big = await raw(url, { body: { ...INITIALIZE, padding: 'x'.repeat(5000) } });
    expect([big.status, errorOf(big)]).toEqual([
      413,
      'Payload Too Large: a request body may hold at most 4096 bytes',
    ]);
    const text = await raw(url, { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect([text.status, errorOf(text)]).toEqual([
      415,
      'Unsupported Media Type: send Content-Type: application/json',
    ]);
    const broken = await raw(url, { body: '{"jsonrpc":' });
    expect([broken.status, errorOf(broken)]).toEqual([400, 'Parse error: the body is not valid JSON']);
    const noSession = await raw(url, { body: LIST });
    expect([noSession.status, errorOf(noSession)]).toEqual([
      400,
      'Bad Request: Mcp-Session-Id header is required; open a session with an initialize request first',
    ]);
    expect(running?.sessions.size).toBe(0);
  });

  it('keeps two sessions apart; DELETE ends one, whose id is then unknown (404), and the other goes on', async () => {
    const { url } = await start();
    const first = await connect(url);
    const second = await connect(url);
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
    expect(running?.sessions.size).toBe(2);
    const ended = String(first.transport.sessionId);
    await first.transport.terminateSession();
    expect(running?.sessions.size).toBe(1);
    const after = await raw(url, { body: LIST, headers: { 'mcp-session-id': ended } });
    expect([after.status, errorOf(after)]).toEqual([
      404,
      'Not Found: no such session (it ended or expired); initialize a new one',
    ]);
    expect((await second.client.listTools()).tools).toHaveLength(2);
    await first.client.close();
    await second.client.close();
  });

  it('tells every session when the served registry changes (list_changed over the GET stream)', async () => {
    const served = ServedRegistry.of(new Registry({ operations: SAMPLE_OPERATIONS, services: undefined }));
    const { url } = await start({ served });
    const changes = [0, 0];
    const clients = await Promise.all([connect(url), connect(url)]);
    clients.forEach(({ client }, at) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes[at]!++),
    );
    // The client opens its GET stream after `initialized`; give it a moment to be listening.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await served.replace((registry) => registry.withDisabledDomains(['code']));
    await expect.poll(() => changes, { timeout: 2000 }).toEqual([1, 1]);
    expect((await clients[1]!.client.listTools()).tools.map((t) => t.name)).toEqual(['admin']);
    for (const { client } of clients) await client.close();
  });

  it("sends a call's log messages on the call's own stream, at or above the level the client set", async () => {
    let ready = false;
    const served = ServedRegistry.of(
      new Registry({
        operations: [INDEXED],
        services: undefined,
        readiness: () => (ready ? undefined : 'Still indexing; no snapshot yet.'),
        firstCallWaitMs: 5000,
      }),
    );
    const { url } = await start({ served });
    const session = await openSession(url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const call = (id: number) => {
      setTimeout(() => (ready = true), 150);
      ready = false;
      return raw(url, {
        headers,
        body: {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'contracts', arguments: { mode: 'impact' } },
        },
      });
    };
    // No GET stream was opened: the wait is reported on the POST's stream, before the result.
    const waited = await call(3);
    const events = waited.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { method?: string; id?: number });
    expect(events.map((e) => e.method ?? `result ${e.id}`)).toEqual(['notifications/message', 'result 3']);
    expect(waited.text).toContain('Waiting for the first index to start.');
    const level = await raw(url, {
      headers,
      body: { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'warning' } },
    });
    expect(level.status).toBe(200);
    const quietCall = await call(5);
    expect(quietCall.text).not.toContain('notifications/message');
  });

  it('closes a session idle for longer than the idle time', async () => {
    const { url } = await start({ idleMs: 50 });
    const session = await openSession(url);
    await expect.poll(() => running?.sessions.size, { timeout: 2000, interval: 25 }).toBe(0);
    const after = await raw(url, { body: LIST, headers: { 'mcp-session-id': session } });
    expect(after.status).toBe(404);
  });

  it('refuses to listen beyond loopback without an authenticator', async () => {
    await expect(
      startHttpServer({
        listen: { host: '0.0.0.0', port: 0 },
        logger: quiet,
        createServer: () =>
          createMcpServer({
            registry: new Registry({ operations: [], services: undefined }),
            surface: 'domain',
            version: 't',
          }),
      }),
    ).rejects.toThrow(ListenRefusedError);
  });

  it('says why it cannot bind a port in use', async () => {
    const { url } = await start();
    const port = Number(new URL(url).port);
    await expect(
      startHttpServer({
        listen: { host: '127.0.0.1', port },
        logger: quiet,
        createServer: () =>
          createMcpServer({
            registry: new Registry({ operations: [], services: undefined }),
            surface: 'domain',
            version: 't',
          }),
      }),
    ).rejects.toThrow(
      new ListenRefusedError(
        `cannot listen on 127.0.0.1:${port}: the port is in use; stop the other server or pick another port with --listen`,
      ),
    );
  });

  it('asks the authenticator first, and keeps a session to the principal who opened it', async () => {
    const authenticator: Authenticator = {
      authenticate: (request) => {
        const key = request.headers.authorization;
        return Promise.resolve(
          key === 'Bearer alice' || key === 'Bearer bob'
            ? { ok: true, principal: { id: key.slice(7) } }
            : {
                ok: false,
                status: 401,
                message: 'Unauthorized: send Authorization: Bearer <key>',
                headers: { 'WWW-Authenticate': 'Bearer' },
              },
        );
      },
    };
    const { url } = await start({ authenticator });
    const stranger = await raw(url, { method: 'GET', path: '/nowhere' });
    expect([stranger.status, errorOf(stranger), stranger.headers['www-authenticate']]).toEqual([
      401,
      'Unauthorized: send Authorization: Bearer <key>',
      'Bearer',
    ]);
    const session = await openSession(url, { authorization: 'Bearer alice' });
    const own = await raw(url, {
      body: LIST,
      headers: { authorization: 'Bearer alice', 'mcp-session-id': session },
    });
    expect(own.status).toBe(200);
    const other = await raw(url, {
      body: LIST,
      headers: { authorization: 'Bearer bob', 'mcp-session-id': session },
    });
    expect(other.status).toBe(404);
  });

  it('with API keys: a call needs a key, the SDK client calls with one, the limit answers 429, a revoked key 401', async () => {
    const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), env: {} });
    const { key, record } = store.create({ tenant: 'acme', role: 'reader' });
    const admission = createAdmitter({
      limits: { roles: { reader: { rate: parseRateSpec('1/m') as RateSpec } } },
      usage: store,
    });
    // Fail-closed visibility: the key's role must be granted what it calls.
    const served = ServedRegistry.of(
      new Registry({
        operations: SAMPLE_OPERATIONS,
        services: undefined,
        visibility: { roles: { reader: ['*'] }, tenants: {} },
      }),
    );
    const { url } = await start({ served, authenticator: keyAuthenticator(store, admission) });
    const anonymous = await raw(url, { body: INITIALIZE });
    expect([anonymous.status, errorOf(anonymous), anonymous.headers['www-authenticate']]).toEqual([
      401,
      AUTH_MESSAGES.missing,
      'Bearer realm="meshlens"',
    ]);
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'code', arguments: { mode: 'search', query: 'x' } });
    expect(result.isError).toBeFalsy();
    // Listing is not a call: it is never limited.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code', 'admin']);
    const over = await raw(url, {
      body: {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'code', arguments: { mode: 'search', query: 'x' } },
      },
      headers: { authorization: `Bearer ${key}`, 'mcp-session-id': String(transport.sessionId) },
    });
    expect([over.status, over.headers['retry-after'], errorOf(over)]).toEqual([
      429,
      '60',
      `Rate limit reached for key ${record.prefix} (1/m). Retry after 60 s.`,
    ]);
    // A role the table does not list sees no tool at all, and its call is answered like an unknown one.
    const guest = store.create({ tenant: 'acme', role: 'guest' });
    const guestClient = new Client({ name: 'http-guest', version: '1.0.0' });
    await guestClient.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${guest.key}` } },
      }),
    );
    expect((await guestClient.listTools()).tools).toEqual([]);
    await expect(
      guestClient.callTool({ name: 'code', arguments: { mode: 'search', query: 'x' } }),
    ).rejects.toThrow('Unknown tool: code');
    await guestClient.close();
    store.revoke(record.id);
    const revoked = await raw(url, {
      body: LIST,
      headers: { authorization: `Bearer ${key}`, 'mcp-session-id': String(transport.sessionId) },
    });
    expect(revoked.status).toBe(401);
    expect(store.usage(undefined)).toEqual([
      { subject: `key:${record.id}`, prefix: record.prefix, tenant: 'acme', calls: 1, refusals: 1 },
      {
        subject: `key:${guest.record.id}`,
        prefix: guest.record.prefix,
        tenant: 'acme',
        calls: 1,
        refusals: 0,
      },
    ]);
    await client.close().catch(() => undefined);
    store.close();
    removeTemps();
  });
});
