import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import type { MeshServer } from '../mesh-server.js';
import type { Authenticator, Principal } from './authenticator.js';
import { applyCors } from './cors.js';
import { refuse } from './http-errors.js';
import { authorityOf, beyondLoopbackRefusal, isLoopbackHost, type ListenAddress } from './listen-address.js';
import { DEFAULT_MAX_BODY_BYTES, isJsonContentType, readJsonBody } from './request-body.js';
import { checkOrigin, checkProtocolVersion, loopbackOrigins, type OriginPolicy } from './request-checks.js';
import { SessionTable } from './sessions.js';

export const MCP_PATH = '/mcp';
const METHODS = 'GET, POST, DELETE';

export interface HttpServerOptions {
  readonly listen: ListenAddress;
  /** A fresh MCP server for each session. */
  readonly createServer: (principal: Principal | undefined) => MeshServer;
  readonly logger: Logger;
  /** Required to listen beyond loopback; asked first on every request. */
  readonly authenticator?: Authenticator;
  /** Browser origins allowed besides this server's own loopback ones (`https://app.example`). */
  readonly allowedOrigins?: readonly string[];
  readonly maxBodyBytes?: number;
  /** A session with nothing open and nothing asked for this long is closed; the client re-initializes. */
  readonly sessionIdleMs?: number;
  /** New sessions past this many get 503 until one ends. */
  readonly maxSessions?: number;
}

export interface RunningHttpServer {
  /** The endpoint as bound (the real port when 0 was asked): `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  readonly sessions: SessionTable;
  /** Stops accepting, closes every session and connection. */
  close(): Promise<void>;
}

/**
 * The server cannot listen where it was asked: beyond loopback without an authenticator (refused before
 * binding), or an address the system would not bind.
 */
export class ListenRefusedError extends Error {}

const BIND_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the port is in use; stop the other server or pick another port with --listen',
  EACCES: 'not permitted (ports below 1024 need privileges); pick a port from 1024 up with --listen',
  EADDRNOTAVAIL: 'no interface of this machine has that address; check --listen',
  ENOTFOUND: 'the host name does not resolve; check --listen',
};

function listenFailure(address: ListenAddress, error: NodeJS.ErrnoException): Error {
  const reason = error.code ? BIND_FAILURES[error.code] : undefined;
  return reason ? new ListenRefusedError(`cannot listen on ${authorityOf(address)}: ${reason}`) : error;
}

const DEFAULT_IDLE_MS = 30 * 60 * 1000;
const DEFAULT_MAX_SESSIONS = 64;

/** Serves MCP's Streamable HTTP transport at `/mcp`: one MCP server per session, over Node's http module. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const loopback = isLoopbackHost(options.listen.host);
  if (!loopback && !options.authenticator)
    throw new ListenRefusedError(beyondLoopbackRefusal(options.listen));
  const sessions = new SessionTable({ createServer: options.createServer, logger: options.logger });
  let policy: OriginPolicy = { loopback, allowedOrigins: new Set() };
  const handler = requestHandler({ ...options, sessions, policy: () => policy });
  const http = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      options.logger.error({ err: error }, 'http request failed');
      refuse(response, { status: 500, message: 'Internal Server Error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenFailure(options.listen, error));
    http.once('error', failed);
    http.listen(options.listen.port, options.listen.host, () => {
      http.off('error', failed);
      resolve();
    });
  });
  const bound = http.address() as AddressInfo;
  const address = { host: bound.address, port: bound.port };
  const own = [...loopbackOrigins(bound.port), `http://${authorityOf(address)}`];
  policy = {
    loopback,
    allowedOrigins: new Set([...own, ...(options.allowedOrigins ?? [])].map((o) => o.toLowerCase())),
  };
  const idleMs = options.sessionIdleMs ?? DEFAULT_IDLE_MS;
  const sweep = setInterval(() => void sessions.expireIdle(idleMs), Math.min(idleMs, 60_000));
  sweep.unref();
  return {
    url: `http://${authorityOf(address)}${MCP_PATH}`,
    sessions,
    close: async () => {
      clearInterval(sweep);
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      await sessions.closeAll();
      http.closeAllConnections();
      await stopped;
    },
  };
}

interface HandlerContext extends HttpServerOptions {
  readonly sessions: SessionTable;
  readonly policy: () => OriginPolicy;
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The order matters: Host and Origin first (a browser tricked into calling us learns nothing), a CORS
 * preflight of an allowed origin, then the authenticator (nothing else is looked at for a stranger), then
 * the endpoint, the protocol version, the body, and last the session.
 */
function requestHandler(context: HandlerContext) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const forbidden = checkOrigin(request, context.policy());
    if (forbidden) return refuse(response, forbidden);
    if (applyCors(request, response)) return;
    let principal: Principal | undefined;
    if (context.authenticator) {
      const verdict = await context.authenticator.authenticate(request);
      if (!verdict.ok) return refuse(response, verdict);
      principal = verdict.principal;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH)
      return refuse(response, { status: 404, message: `Not Found: the MCP endpoint is ${MCP_PATH}` });
    const method = request.method ?? '';
    if (!METHODS.split(', ').includes(method)) {
      return refuse(response, {
        status: 405,
        message: `Method Not Allowed: ${MCP_PATH} answers ${METHODS}`,
        headers: { Allow: METHODS },
      });
    }
    const badVersion = checkProtocolVersion(request);
    if (badVersion) return refuse(response, badVersion);

    let body: unknown;
    if (method === 'POST') {
      if (!isJsonContentType(request)) {
        return refuse(response, {
          status: 415,
          message: 'Unsupported Media Type: send Content-Type: application/json',
        });
      }
      const read = await readJsonBody(request, context.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      if (!read.ok) return refuse(response, read.refusal);
      body = read.body;
    }
    const sessionId = header(request, 'mcp-session-id');
    if (sessionId === undefined) {
      if (method !== 'POST' || !isInitializeRequest(body)) {
        return refuse(response, {
          status: 400,
          message:
            'Bad Request: Mcp-Session-Id header is required; open a session with an initialize request first',
        });
      }
      if (context.sessions.size >= (context.maxSessions ?? DEFAULT_MAX_SESSIONS)) {
        return refuse(response, {
          status: 503,
          message: 'Service Unavailable: too many open sessions; end one (DELETE) or retry later',
          headers: { 'Retry-After': '30' },
        });
      }
      return context.sessions.initialize(request, response, body, principal);
    }
    const session = context.sessions.get(sessionId);
    // Another principal's session is answered as unknown: its id says nothing to a stranger.
    if (!session || session.principal?.id !== principal?.id) {
      return refuse(response, {
        status: 404,
        code: -32001,
        message: 'Not Found: no such session (it ended or expired); initialize a new one',
      });
    }
    if (principal && context.authenticator?.admitCall && callsTool(body)) {
      const admitted = await context.authenticator.admitCall(principal, Date.now());
      if (!admitted.ok) return refuse(response, admitted);
      return session.handle(request, response, body, admitted.principal);
    }
    return session.handle(request, response, body);
  };
}

/** Whether a POST body holds a `tools/call` (alone or in a batch): only calls are limited and counted. */
function callsTool(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      typeof message === 'object' &&
      message !== null &&
      (message as { method?: unknown }).method === 'tools/call',
  );
}
