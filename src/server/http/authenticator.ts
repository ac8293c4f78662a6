import type { IncomingMessage } from 'node:http';

/** Who a request was made by, as the authenticator names it (an API key's label, say). */
export interface Principal {
  readonly id: string;
}

export type Authentication =
  | { readonly ok: true; readonly principal: Principal }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly message: string;
      readonly headers?: Record<string, string>;
    };

/**
 * Decides whether an HTTP request may reach the MCP endpoint. The HTTP server asks it first, before it reads
 * the body or looks up a session; without one, the server refuses to listen beyond loopback.
 */
export interface Authenticator {
  authenticate(request: IncomingMessage): Promise<Authentication>;
}
