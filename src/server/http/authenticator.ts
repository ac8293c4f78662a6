import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/** Who a request was made by, as the authenticator names it (an API key's label, say). */
export interface Principal {
  readonly id: string;
  /** What the MCP handlers receive as `extra.authInfo` (absent: the id as `clientId`). */
  readonly authInfo?: AuthInfo;
}

/**
 * Whether a principal may make a tool call now; refused with 429 and the time to wait when not, or 503 when
 * the store that counts calls cannot be reached.
 */
export type CallAdmission =
  | { readonly ok: true; readonly principal: Principal }
  | {
      readonly ok: false;
      readonly status: 429 | 503;
      readonly message: string;
      readonly headers: Record<string, string>;
    };

export type Authentication =
  | { readonly ok: true; readonly principal: Principal }
  | {
      readonly ok: false;
      /** 503: the key store cannot be reached, so no key can be checked (it says nothing about the key). */
      readonly status: 401 | 403 | 503;
      readonly message: string;
      readonly headers?: Record<string, string>;
    };

/**
 * Decides whether an HTTP request may reach the MCP endpoint. The HTTP server asks it first, before it reads
 * the body or looks up a session; without one, the server refuses to listen beyond loopback.
 */
export interface Authenticator {
  authenticate(request: IncomingMessage): Promise<Authentication>;
  /**
   * Counts a `tools/call` against the caller's rate limit and quota, before it reaches MCP, so that a refusal
   * is an HTTP 429 with `Retry-After`. The principal it returns travels with that request only.
   */
  admitCall?(principal: Principal, nowMs: number): Promise<CallAdmission>;
}
