import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmitter, limitsOf, utcDayOf } from '../../src/core/admission.js';
import { LOCAL_PRINCIPAL, type KeyPrincipal } from '../../src/core/principal.js';
import { parseRateSpec, type RateSpec } from '../../src/core/rate-spec.js';
import { TokenBucket } from '../../src/core/token-bucket.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

const rate = (text: string): RateSpec => {
  const spec = parseRateSpec(text);
  if ('error' in spec) throw new Error(spec.error);
  return spec;
};

const T0 = Date.parse('2026-12-01T10:00:00Z');
const reader: KeyPrincipal = { kind: 'key', keyId: 7, prefix: 'ml_ab12cd34', tenant: 'acme', role: 'reader' };

describe('rates as written', () => {
  it('reads N/s, N/m and N/h and refuses anything else with the reason', () => {
    expect(parseRateSpec('5/s')).toEqual({ capacity: 5, refillPerSecond: 5, text: '5/s' });
    expect(parseRateSpec(' 120/m ')).toEqual({ capacity: 120, refillPerSecond: 2, text: '120/m' });
    expect(parseRateSpec('36/h')).toEqual({ capacity: 36, refillPerSecond: 0.01, text: '36/h' });
    for (const bad of ['0/s', '5', '5/d', '-1/s', '1.5/s', 'ten/s']) {
      expect(parseRateSpec(bad)).toEqual({
        error: `invalid rate ${JSON.stringify(bad)}: a rate is written N/s, N/m or N/h with N a whole number from 1, e.g. 10/s`,
      });
    }
  });
});

describe('the token bucket', () => {
  it('admits a full bucket back to back, then refuses with the seconds until the next token', () => {
    const bucket = new TokenBucket(rate('3/s'), T0);
    expect([1, 2, 3].map(() => bucket.take(T0).ok)).toEqual([true, true, true]);
    expect(bucket.take(T0)).toEqual({ ok: false, retryAfterSeconds: 1 });
    // A third of a second later one token has come back.
    expect(bucket.take(T0 + 334).ok).toBe(true);
    expect(bucket.take(T0 + 334).ok).toBe(false);
    // Long idle refills to the capacity, not beyond.
    expect([1, 2, 3, 4].map(() => bucket.take(T0 + 60_000).ok)).toEqual([true, true, true, false]);
  });

  it('rounds the wait up to whole seconds, and a clock stepping back gives nothing', () => {
    const bucket = new TokenBucket(rate('2/m'), T0);
    bucket.take(T0);
    bucket.take(T0);
    expect(bucket.take(T0)).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(bucket.take(T0 + 10_500)).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(bucket.take(T0 - 5_000)).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(bucket.take(T0 + 30_000).ok).toBe(true);
  });
});

describe('admitting calls', () => {
  afterAll(() => removeTemps());

  it("takes a key's own limits over its role's, and the local limits for the local principal", () => {
    const config = { local: { rate: rate('50/s') }, roles: { reader: { rate: rate('10/s'), daily: 500 } } };
    expect(limitsOf(config, reader)).toEqual({ rate: rate('10/s'), daily: 500 });
    expect(limitsOf(config, { ...reader, limits: { daily: 20 } })).toEqual({ rate: rate('10/s'), daily: 20 });
    expect(limitsOf(config, { ...reader, role: 'admin' })).toEqual({});
    expect(limitsOf(config, LOCAL_PRINCIPAL)).toEqual({ rate: rate('50/s') });
  });

  it('refuses past the rate with Retry-After and counts admitted calls and refusals in the store', () => {
    const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), env: {} });
    const admitter = createAdmitter({ limits: { roles: { reader: { rate: rate('2/s') } } }, usage: store });
    expect(admitter.admit(reader, T0)).toEqual({ ok: true });
    expect(admitter.admit(reader, T0 + 10)).toEqual({ ok: true });
    expect(admitter.admit(reader, T0 + 20)).toEqual({
      ok: false,
      retryAfterSeconds: 1,
      message: 'Rate limit reached for key ml_ab12cd34 (2/s). Retry after 1 s.',
    });
    expect(admitter.admit(reader, T0 + 1000)).toEqual({ ok: true });
    expect(store.usage(undefined)).toEqual([
      { subject: 'key:7', prefix: null, tenant: null, calls: 3, refusals: 1 },
    ]);
    store.close();
  });

  it('refuses past the daily quota until the UTC day ends, across a reopened store', () => {
    const file = path.join(tempDir(), 'keys.db');
    const limits = { local: { daily: 3 }, roles: {} };
    let store = SqliteKeyStore.open({ path: file, env: {} });
    const first = createAdmitter({ limits, usage: store });
    expect([0, 1].map((i) => first.admit(LOCAL_PRINCIPAL, T0 + i).ok)).toEqual([true, true]);
    store.close();
    store = SqliteKeyStore.open({ path: file, env: {} });
    const second = createAdmitter({ limits, usage: store });
    expect(second.admit(LOCAL_PRINCIPAL, T0 + 2)).toEqual({ ok: true });
    expect(second.admit(LOCAL_PRINCIPAL, T0 + 3)).toEqual({
      ok: false,
      retryAfterSeconds: 14 * 3600,
      message:
        'Daily quota reached for the local server (3 calls per UTC day). Retry after 50400 s, when the day ends.',
    });
    expect(second.admit(LOCAL_PRINCIPAL, Date.parse('2026-12-02T00:00:00Z')).ok).toBe(true);
    expect(utcDayOf(T0)).toBe('2026-12-01');
    expect(store.usage('2026-12-01')).toEqual([
      { subject: 'local', prefix: null, tenant: null, calls: 4, refusals: 1 },
    ]);
    store.close();
  });
});
