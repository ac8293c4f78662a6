/**
 * API keys over HTTP: every request names its key in `Authorization: Bearer …` (401 with a Bearer challenge
 * when it does not, or when the key is refused), and each tool call is admitted against the key's rate
 * limit and daily quota before it reaches MCP (429 with `Retry-After`). The key's principal travels to the
 * registry in the request's `AuthInfo`, marked as admitted so that the call is not counted twice. When the
 * store behind the keys cannot be reached, requests get 503 with `Retry-After`: no key is taken on trust.
 */
import type { Admitter } from '../../core/admission.js';
import { createAuthenticator, type KeyLookup } from '../api-key-auth.js';
import { authInfoOf, callerOf } from '../caller-auth-info.js';
import type { Authenticator, CallAdmission, Principal } from './authenticator.js';

const REALM = 'Bearer realm="meshlens"';
const RETRY_UNAVAILABLE_SECONDS = 5;

/** The store's "cannot be reached" error, told by its name: the server layer does not import the store. */
const storeUnavailable = (error: unknown): boolean =>
  error instanceof Error && error.name === 'StoreUnavailableError';

const UNAVAILABLE = {
  ok: false,
  status: 503,
  message: `Service Unavailable: the key store cannot be reached, so no key can be checked or counted; retry in ${RETRY_UNAVAILABLE_SECONDS} s.`,
  headers: { 'Retry-After': String(RETRY_UNAVAILABLE_SECONDS) },
} as const;

export function keyAuthenticator(keys: KeyLookup, admission: Admitter): Authenticator {
  const check = createAuthenticator(keys);
  return {
    async authenticate(request) {
      const value = request.headers.authorization;
      let auth;
      try {
        auth = await check(value, Date.now());
      } catch (error) {
        if (storeUnavailable(error)) return UNAVAILABLE;
        throw error;
      }
      if (!auth.ok) {
        // RFC 6750: no credentials get the bare challenge, a refused token says invalid_token.
        const challenge = value === undefined ? REALM : `${REALM}, error="invalid_token"`;
        return {
          ok: false,
          status: auth.status,
          message: auth.message,
          headers: { 'WWW-Authenticate': challenge },
        };
      }
      return {
        ok: true,
        principal: { id: auth.principal.prefix, authInfo: authInfoOf(auth.principal, false) },
      };
    },
    async admitCall(principal: Principal, nowMs: number): Promise<CallAdmission> {
      const key = callerOf(principal.authInfo).principal;
      if (key?.kind !== 'key') return { ok: true, principal };
      let decision;
      try {
        decision = await admission.admit(key, nowMs);
      } catch (error) {
        if (storeUnavailable(error)) return UNAVAILABLE;
        throw error;
      }
      if (!decision.ok)
        return {
          ok: false,
          status: 429,
          message: decision.message,
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        };
      return { ok: true, principal: { id: principal.id, authInfo: authInfoOf(key, true) } };
    },
  };
}
