/**
 * MCP over Streamable HTTP by hand, for tests that must see each answer's HTTP status and headers (401, 429,
 * 503 and their `Retry-After`), which the SDK client turns into exceptions.
 */
import { request as httpRequest } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The JSON-RPC message: the body, or the data of its one SSE event. */
  readonly message: { result?: unknown; error?: { message: string } } | undefined;
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const target = new URL(url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => {
          const json = /^data: (.*)$/m.exec(received)?.[1] ?? received;
          let message: RawAnswer['message'];
          try {
            message = JSON.parse(json) as RawAnswer['message'];
          } catch {
            message = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, message });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const bearer = (key: string | undefined): Record<string, string> =>
  key === undefined ? {} : { authorization: `Bearer ${key}` };

/** Opens a session for `key`; the answer carries its id in `mcp-session-id` when it succeeds. */
export function initialize(url: string, key?: string): Promise<RawAnswer> {
  return post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    },
    bearer(key),
  );
}

/** A session ready for calls: initialized, and told so. */
export async function openSession(url: string, key?: string): Promise<string> {
  const answer = await initialize(url, key);
  if (answer.status !== 200)
    throw new Error(`initialize answered ${answer.status}: ${JSON.stringify(answer.message)}`);
  const session = String(answer.headers['mcp-session-id']);
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(session, key));
  return session;
}

const sessionHeaders = (session: string, key: string | undefined): Record<string, string> => ({
  ...bearer(key),
  'mcp-session-id': session,
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
});

export function callTool(
  url: string,
  session: string,
  key: string | undefined,
  name: string,
  args: Record<string, unknown>,
): Promise<RawAnswer> {
  return post(
    url,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } },
    sessionHeaders(session, key),
  );
}
