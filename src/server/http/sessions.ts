import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../../core/logger.js';
import type { MeshServer } from '../mesh-server.js';
import type { Principal } from './authenticator.js';

/** One MCP session over HTTP: its own server (its own log level, documents, client info) and transport. */
export class HttpSession {
  readonly id: string;
  /** Who opened it, when an authenticator is on; nobody else may use it. */
  readonly principal: Principal | undefined;
  readonly server: MeshServer;
  private readonly transport: StreamableHTTPServerTransport;
  private lastActive = Date.now();
  private inFlight = 0;

  constructor(
    id: string,
    server: MeshServer,
    transport: StreamableHTTPServerTransport,
    principal: Principal | undefined,
  ) {
    this.id = id;
    this.server = server;
    this.transport = transport;
    this.principal = principal;
  }

  /** Hands one request to the transport; the session counts as busy while any of its answers is open. */
  /** `caller`: this request's principal when admission gave it its own (a counted tool call). */
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body?: unknown,
    caller: Principal | undefined = this.principal,
  ): Promise<void> {
    this.inFlight++;
    response.once('close', () => {
      this.inFlight--;
      this.lastActive = Date.now();
    });
    return this.transport.handleRequest(withAuth(request, caller), response, body);
  }

  /** Idle: no open request or stream and nothing asked for `idleMs`. A listening GET stream is not idle. */
  idleSince(now: number, idleMs: number): boolean {
    return this.inFlight === 0 && now - this.lastActive >= idleMs;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** The principal as the SDK passes it on to request handlers (`extra.authInfo`). */
function withAuth(request: IncomingMessage, principal: Principal | undefined): IncomingMessage {
  if (principal) {
    const auth: AuthInfo = principal.authInfo ?? { token: '', clientId: principal.id, scopes: [] };
    Object.assign(request, { auth });
  }
  return request;
}

export interface SessionTableOptions {
  /** A fresh MCP server for a new session, for the principal who opens it. */
  readonly createServer: (principal: Principal | undefined) => MeshServer;
  readonly logger: Logger;
}

/** The open sessions by `Mcp-Session-Id`. A session leaves the table when its transport closes. */
export class SessionTable {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly options: SessionTableOptions;

  constructor(options: SessionTableOptions) {
    this.options = options;
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): HttpSession | undefined {
    return this.sessions.get(id);
  }

  /** The open sessions now (to tell every client something). */
  all(): HttpSession[] {
    return [...this.sessions.values()];
  }

  /**
   * Answers an `initialize` request with a new session. The id is assigned by the transport as it answers;
   * an initialize that fails leaves no session behind.
   */
  async initialize(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    principal: Principal | undefined,
  ): Promise<void> {
    const { logger } = this.options;
    let session: HttpSession | undefined;
    const server = this.options.createServer(principal);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = new HttpSession(id, server, transport, principal);
        this.sessions.set(id, session);
        logger.info({ session: id, sessions: this.sessions.size }, 'http session opened');
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.sessions.delete(id)) {
        logger.info({ session: id, sessions: this.sessions.size }, 'http session closed');
      }
    };
    await server.connect(transport);
    await transport.handleRequest(withAuth(request, principal), response, body);
    if (!session) await server.close();
  }

  /** Closes the sessions idle for `idleMs` or longer; returns how many. */
  async expireIdle(idleMs: number, now = Date.now()): Promise<number> {
    const idle = [...this.sessions.values()].filter((session) => session.idleSince(now, idleMs));
    await Promise.all(idle.map((session) => session.close()));
    return idle.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
  }
}
