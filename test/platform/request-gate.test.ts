import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmitter } from '../../src/core/admission.js';
import { parseRateSpec, type RateSpec } from '../../src/core/rate-spec.js';
import { AUTH_MESSAGES } from '../../src/server/api-key-auth.js';
import { callerOf } from '../../src/server/caller-auth-info.js';
import { createRequestGate } from '../../src/server/request-gate.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');

describe('the request gate the HTTP transport calls', () => {
  afterAll(() => removeTemps());

  it('answers 401 with a challenge, 429 with Retry-After, and otherwise the auth the registry reads', async () => {
    const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), env: {} });
    const { key, record } = store.create({ tenant: 'acme', role: 'reader' });
    const admission = createAdmitter({
      limits: { roles: { reader: { rate: parseRateSpec('1/s') as RateSpec } } },
      usage: store,
    });
    const gate = createRequestGate({ keys: store, admission });

    expect(await gate(undefined, T0, true)).toEqual({
      ok: false,
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="meshlens"' },
      message: AUTH_MESSAGES.missing,
    });
    expect(await gate(`Bearer ml_${'0'.repeat(48)}`, T0, true)).toEqual({
      ok: false,
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="meshlens", error="invalid_token"' },
      message: AUTH_MESSAGES.rejected,
    });

    const listing = await gate(`Bearer ${key}`, T0, false);
    const call = await gate(`Bearer ${key}`, T0, true);
    expect(await gate(`Bearer ${key}`, T0 + 100, true)).toEqual({
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
    expect(listing.ok && callerOf(listing.auth)).toEqual({ principal, admitted: false });
    expect(call.ok && callerOf(call.auth)).toEqual({ principal, admitted: true });
    // The key's text travels nowhere past the gate.
    expect(JSON.stringify([listing, call])).not.toContain(key);
    expect(store.usage(undefined)).toEqual([
      { subject: `key:${record.id}`, prefix: record.prefix, tenant: 'acme', calls: 1, refusals: 1 },
    ]);
    store.close();
  });
});
