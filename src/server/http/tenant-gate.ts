/**
 * On a server with tenants, a key is only as good as its tenant's place on this server: a key whose tenant has
 * no workspace here is refused at authentication, before any session exists, so it can neither open one nor
 * be served another tenant's (or a default) workspace. Fail closed.
 *
 * The refusal comes after the key has matched whole (the inner authenticator's own refusals are passed on
 * unchanged), so it tells nothing to someone who does not hold the key.
 */
import { callerOf } from '../caller-auth-info.js';
import type { Authenticator } from './authenticator.js';

export const NO_TENANT_WORKSPACE =
  "Forbidden: this key's tenant has no workspace on this server. Ask an administrator to add the tenant to [server.tenants], or for a key of a tenant served here.";

export function tenantGate(inner: Authenticator, served: (tenant: string) => boolean): Authenticator {
  return {
    async authenticate(request) {
      const verdict = await inner.authenticate(request);
      if (!verdict.ok) return verdict;
      const key = callerOf(verdict.principal.authInfo).principal;
      if (key?.kind === 'key' && served(key.tenant)) return verdict;
      return { ok: false, status: 403, message: NO_TENANT_WORKSPACE };
    },
    ...(inner.admitCall ? { admitCall: inner.admitCall.bind(inner) } : {}),
  };
}
