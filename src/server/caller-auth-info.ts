/**
 * How the caller travels from an HTTP request to the registry: the transport puts the authenticated principal
 * into the SDK's `AuthInfo` (`req.auth`), the SDK hands it to the call handler as `extra.authInfo`, and the
 * handler takes it out here. Nothing else is read from `AuthInfo`.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { KeyPrincipal, Principal } from '../core/principal.js';

const PRINCIPAL = 'meshlensPrincipal';
const ADMITTED = 'meshlensAdmitted';

/**
 * What the HTTP transport attaches to an authenticated request. `admitted`: it ran admission itself (to answer
 * 429 with Retry-After), so the registry must not count the call again. The key's text is not carried: the
 * token field holds its prefix.
 */
export function authInfoOf(principal: KeyPrincipal, admitted: boolean): AuthInfo {
  return {
    token: principal.prefix,
    clientId: principal.prefix,
    scopes: [principal.role],
    extra: { [PRINCIPAL]: principal, [ADMITTED]: admitted },
  };
}

/** The caller of a tool call; nothing for a call without auth (stdio), which the registry takes as local. */
export function callerOf(authInfo: AuthInfo | undefined): {
  readonly principal?: Principal;
  readonly admitted?: boolean;
} {
  const principal = authInfo?.extra?.[PRINCIPAL] as Principal | undefined;
  if (!principal) return {};
  return { principal, admitted: authInfo?.extra?.[ADMITTED] === true };
}
