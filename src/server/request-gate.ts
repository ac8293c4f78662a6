/**
 * What the HTTP transport asks of every request before it reaches MCP: who is calling (401 when nobody
 * known), and, for a tool call, whether they may call now (429 with Retry-After when not). One call per
 * request; on success the SDK's `req.auth` is what it returns, and the registry takes the principal from it
 * and does not count the call again.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Admitter } from '../core/admission.js';
import { createAuthenticator, type KeyLookup } from './api-key-auth.js';
import { authInfoOf } from './caller-auth-info.js';

export type GateOutcome =
  | { readonly ok: true; readonly auth: AuthInfo }
  | {
      readonly ok: false;
      readonly status: 401 | 403 | 429;
      readonly headers: Readonly<Record<string, string>>;
      readonly message: string;
    };

export interface GateOptions {
  readonly keys: KeyLookup;
  readonly admission: Admitter;
}

const REALM = 'Bearer realm="meshlens"';

export function createRequestGate(options: GateOptions) {
  const authenticate = createAuthenticator(options.keys);
  /**
   * `header`: the `Authorization` value as received; `toolCall`: the request carries a `tools/call` (only
   * calls are limited and counted; listing tools or pinging is not).
   */
  return async (header: string | undefined, nowMs: number, toolCall: boolean): Promise<GateOutcome> => {
    const auth = authenticate(header, nowMs);
    if (!auth.ok) {
      // RFC 6750: a request without credentials gets the bare challenge, a bad token says invalid_token.
      const challenge = header === undefined ? REALM : `${REALM}, error="invalid_token"`;
      return {
        ok: false,
        status: auth.status,
        headers: { 'WWW-Authenticate': challenge },
        message: auth.message,
      };
    }
    if (!toolCall) return { ok: true, auth: authInfoOf(auth.principal, false) };
    const admitted = await options.admission.admit(auth.principal, nowMs);
    if (!admitted.ok) {
      return {
        ok: false,
        status: 429,
        headers: { 'Retry-After': String(admitted.retryAfterSeconds) },
        message: admitted.message,
      };
    }
    return { ok: true, auth: authInfoOf(auth.principal, true) };
  };
}
