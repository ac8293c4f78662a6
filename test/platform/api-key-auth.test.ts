import * as crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, createAuthenticator } from '../../src/server/api-key-auth.js';
import { parseRateSpec } from '../../src/core/rate-spec.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const T0 = Date.parse('2026-12-01T10:00:00Z');

function setup() {
  let now = new Date(T0);
  const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), now: () => now, env: {} });
  const authenticate = createAuthenticator(store);
  const setNow = (ms: number) => {
    now = new Date(ms);
  };
  return { store, authenticate, setNow };
}

const refusal = (message: string) => ({ ok: false, status: 401, message });

describe('authenticating an Authorization header', () => {
  afterAll(() => removeTemps());
  beforeEach(() => {
    vi.mocked(crypto.timingSafeEqual).mockClear();
  });

  it('admits a valid key as its principal, with its own limits, and notes its use', () => {
    const { store, authenticate } = setup();
    const { key, record } = store.create({ tenant: 'acme', role: 'reader', rate: '5/s', daily: 100 });
    expect(authenticate(`Bearer ${key}`, T0)).toEqual({
      ok: true,
      principal: {
        kind: 'key',
        keyId: record.id,
        prefix: record.prefix,
        tenant: 'acme',
        role: 'reader',
        limits: { rate: parseRateSpec('5/s'), daily: 100 },
      },
    });
    expect(authenticate(`bearer  ${key}`, T0).ok).toBe(true);
    expect(store.find(record.prefix)?.lastUsedAt).toBe('2026-12-01T10:00:00.000Z');
    store.close();
  });

  it('says plainly when the header is missing or misspelt', () => {
    const { store, authenticate } = setup();
    const { key } = store.create({ tenant: 'acme', role: 'reader' });
    expect(authenticate(undefined)).toEqual(refusal(AUTH_MESSAGES.missing));
    expect(authenticate('  ')).toEqual(refusal(AUTH_MESSAGES.missing));
    for (const header of [
      key,
      `Basic ${key}`,
      `Bearer ${key}x`,
      `Bearer ${key.toUpperCase()}`,
      'Bearer',
      `Bearer ${key} extra`,
    ]) {
      expect(authenticate(header)).toEqual(refusal(AUTH_MESSAGES.malformed));
    }
    expect(AUTH_MESSAGES.malformed).toBe(
      'Malformed Authorization header: expected "Bearer " and a key, "ml_" followed by 48 hex digits.',
    );
    store.close();
  });

  it('gives an unknown key and a wrong secret behind a known prefix the same answer, after the same comparison', () => {
    const { store, authenticate } = setup();
    const { key } = store.create({ tenant: 'acme', role: 'reader' });
    const wrongSecret = `${key.slice(0, 11)}${'0'.repeat(40)}`;
    const unknown = `ml_${'f'.repeat(48)}`;
    const expected = refusal(
      'API key not accepted: it matches no key of this server. Check that it was copied whole, or ask an administrator for a key.',
    );
    expect(authenticate(`Bearer ${wrongSecret}`)).toEqual(expected);
    expect(authenticate(`Bearer ${unknown}`)).toEqual(expected);
    // One constant-time comparison each: against the row for the known prefix, against a stand-in otherwise.
    expect(vi.mocked(crypto.timingSafeEqual)).toHaveBeenCalledTimes(2);
    store.close();
  });

  it('tells the holder of a revoked or an expired key so, and only once the whole key matched', () => {
    const { store, authenticate, setNow } = setup();
    const revoked = store.create({ tenant: 'acme', role: 'reader' });
    setNow(T0 + 3_600_000);
    store.revoke(revoked.record.id);
    expect(authenticate(`Bearer ${revoked.key}`)).toEqual(
      refusal('API key revoked at 2026-12-01T11:00:00.000Z: ask an administrator for a new key.'),
    );
    const revokedGuess = `${revoked.key.slice(0, 11)}${'2'.repeat(40)}`;
    expect(authenticate(`Bearer ${revokedGuess}`)).toEqual(refusal(AUTH_MESSAGES.rejected));
    const expiring = store.create({
      tenant: 'acme',
      role: 'reader',
      expiresAt: new Date('2026-12-31T00:00:00Z'),
    });
    expect(authenticate(`Bearer ${expiring.key}`, Date.parse('2026-12-30T23:59:59Z')).ok).toBe(true);
    expect(authenticate(`Bearer ${expiring.key}`, Date.parse('2026-12-31T00:00:00Z'))).toEqual(
      refusal('API key expired at 2026-12-31T00:00:00.000Z: ask an administrator for a new key.'),
    );
    // The same prefix with another secret part learns nothing of either.
    const guess = `${expiring.key.slice(0, 11)}${'1'.repeat(40)}`;
    expect(authenticate(`Bearer ${guess}`, Date.parse('2027-01-01T00:00:00Z'))).toEqual(
      refusal(AUTH_MESSAGES.rejected),
    );
    store.close();
  });
});
