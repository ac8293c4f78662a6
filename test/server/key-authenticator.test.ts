/**
 * API keys as the HTTP transport asks for them: 401 with a Bearer challenge for a missing or refused key, a
 * principal carrying the key (never its text) for a good one, and each tool call admitted against the key's
 * limit (429 with Retry-After) and counted once.
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmitter } from '../../src/core/admission.js';
import { parseRateSpec, type RateSpec } from '../../src/core/rate-spec.js';
import { AUTH_MESSAGES } from '../../src/server/api-key-auth.js';
import { callerOf } from '../../src/server/caller-auth-info.js';
import { keyAuthenticator } from '../../src/server/http/key-authenticator.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const requestWith = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('API keys on HTTP requests', () => {
  afterAll(() => removeTemps());

  it('answers 401 with a challenge, 429 with Retry-After, and otherwise the auth the registry reads', async () => {
    const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), env: {} });
    const { key, record } = store.create({ tenant: 'acme', role: 'reader' });
    const admission = createAdmitter({
      limits: { roles: { reader: { rate: parseRateSpec('1/s') as RateSpec } } },
      usage: store,
    });
    const auth = keyAuthenticator(store, admission);

    expect(await auth.authenticate(requestWith())).toEqual({
      ok: false,
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="meshlens"' },
      message: AUTH_MESSAGES.missing,
    });
    expect(await auth.authenticate(requestWith(`Bearer ml_${'0'.repeat(48)}`))).toEqual({
      ok: false,
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="meshlens", error="invalid_token"' },
      message: AUTH_MESSAGES.rejected,
    });

    const signedIn = await auth.authenticate(requestWith(`Bearer ${key}`));
    if (!signedIn.ok) throw new Error('the key was refused');
    const call = await auth.admitCall?.(signedIn.principal, T0);
    expect(await auth.admitCall?.(signedIn.principal, T0 + 100)).toEqual({
      ok: false,
      status: 429,
      headers: { 'Retry-After': '1' },
      message: `Rate limit reached for key ${record.prefix} (1/s). Retry after 1 s.`,
    });
    const principal = {
      kind: 'key',
      keyId: record.id,
      prefix: record.prefix,
      tenant: 'acme',
      role: 'reader',
    };
    expect(signedIn.principal.id).toBe(record.prefix);
    expect(callerOf(signedIn.principal.authInfo)).toEqual({ principal, admitted: false });
    expect(call?.ok && callerOf(call.principal.authInfo)).toEqual({ principal, admitted: true });
    // The key's text travels nowhere past the authenticator.
    expect(JSON.stringify([signedIn, call])).not.toContain(key);
    expect(store.usage(undefined)).toEqual([
      { subject: `key:${record.id}`, prefix: record.prefix, tenant: 'acme', calls: 1, refusals: 1 },
    ]);
    store.close();
  });
});
