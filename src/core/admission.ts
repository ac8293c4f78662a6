import { principalLabel, usageSubjectOf, type CallLimits, type Principal } from './principal.js';
import { TokenBucket } from './token-bucket.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * Where calls are counted: one row per caller per UTC day, shared by every process on the store. Both
 * methods write; a quota is only as good as the counter behind it, so nothing here merely reads. A counter
 * on a server (PostgreSQL) answers with promises, one in a local file (SQLite) at once.
 */
export interface UsageCounter {
  /**
   * Counts one admitted call, unless `dailyLimit` calls were admitted today already, in which case it counts
   * a refusal instead. Check and count are one atomic step, so two processes cannot both take the last call.
   */
  admitCall(
    subject: string,
    day: string,
    dailyLimit: number | undefined,
  ): MaybePromise<{ readonly admitted: boolean }>;
  /** Counts a call refused before it reached the daily quota (the rate limit). */
  countRefusal(subject: string, day: string): MaybePromise<void>;
}

/** A counter that answers at once, so that admission does too. */
export interface SyncUsageCounter extends UsageCounter {
  admitCall(subject: string, day: string, dailyLimit: number | undefined): { readonly admitted: boolean };
  countRefusal(subject: string, day: string): void;
}

/** Limits by caller: for the local principal, and for each role; a key's own limits win over its role's. */
export interface LimitsConfig {
  readonly local?: CallLimits;
  readonly roles: Readonly<Record<string, CallLimits>>;
}

export type AdmissionDecision =
  | { readonly ok: true }
  | { readonly ok: false; readonly retryAfterSeconds: number; readonly message: string };

export interface Admitter {
  /**
   * Decides whether `principal` may make one more call at `nowMs`, and counts it either way. A promise where
   * the counter is opened on first use (SQLite is loaded only when limits are configured).
   */
  admit(principal: Principal, nowMs: number): AdmissionDecision | Promise<AdmissionDecision>;
}

/** Everyone may call, nothing is counted: a server with no limits configured. */
export const admitAll: Admitter = { admit: () => ({ ok: true }) };

export function limitsOf(config: LimitsConfig, principal: Principal): CallLimits {
  if (principal.kind === 'local') return config.local ?? {};
  const role = config.roles[principal.role] ?? {};
  const rate = principal.limits?.rate ?? role.rate;
  const daily = principal.limits?.daily ?? role.daily;
  return { ...(rate ? { rate } : {}), ...(daily !== undefined ? { daily } : {}) };
}

/** The UTC day a moment falls on, `2026-12-02`: the key of a usage row. */
export const utcDayOf = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10);

const DAY_MS = 86_400_000;
const secondsToNextUtcDay = (nowMs: number): number =>
  Math.max(1, Math.ceil((Math.floor(nowMs / DAY_MS + 1) * DAY_MS - nowMs) / 1000));

export interface AdmitterOptions<Counter extends UsageCounter = UsageCounter> {
  readonly limits: LimitsConfig;
  /** Where calls are counted; without one, only the in-memory rate limit applies and no daily quota can. */
  readonly usage?: Counter;
}

/** Runs `next` on a value now, or once a promise of it settles. */
const then = <T, R>(value: MaybePromise<T>, next: (value: T) => R): MaybePromise<R> =>
  value instanceof Promise ? value.then(next) : next(value);

/**
 * The rate limit first (in memory, per process: with several replicas a key may call up to that many times
 * the rate), then the daily quota (in the store, so shared by every process and kept across restarts).
 */
export function createAdmitter(options: AdmitterOptions<SyncUsageCounter>): {
  admit(principal: Principal, nowMs: number): AdmissionDecision;
};
export function createAdmitter(options: AdmitterOptions): Admitter;
export function createAdmitter(options: AdmitterOptions): Admitter {
  const buckets = new Map<string, { readonly rateText: string; readonly bucket: TokenBucket }>();
  const bucketFor = (subject: string, limits: CallLimits, nowMs: number): TokenBucket | undefined => {
    if (!limits.rate) return undefined;
    const held = buckets.get(subject);
    if (held && held.rateText === limits.rate.text) return held.bucket;
    const bucket = new TokenBucket(limits.rate, nowMs);
    buckets.set(subject, { rateText: limits.rate.text, bucket });
    return bucket;
  };
  return {
    admit(principal, nowMs) {
      const limits = limitsOf(options.limits, principal);
      const subject = usageSubjectOf(principal);
      const day = utcDayOf(nowMs);
      const taken = bucketFor(subject, limits, nowMs)?.take(nowMs) ?? { ok: true };
      if (!taken.ok) {
        const refusal: AdmissionDecision = {
          ok: false,
          retryAfterSeconds: taken.retryAfterSeconds,
          message: `Rate limit reached for ${principalLabel(principal)} (${limits.rate?.text}). Retry after ${taken.retryAfterSeconds} s.`,
        };
        return then(options.usage?.countRefusal(subject, day), () => refusal);
      }
      if (!options.usage) return { ok: true };
      return then(options.usage.admitCall(subject, day, limits.daily), (counted): AdmissionDecision => {
        if (counted.admitted) return { ok: true };
        const retryAfterSeconds = secondsToNextUtcDay(nowMs);
        return {
          ok: false,
          retryAfterSeconds,
          message: `Daily quota reached for ${principalLabel(principal)} (${limits.daily} call${limits.daily === 1 ? '' : 's'} per UTC day). Retry after ${retryAfterSeconds} s, when the day ends.`,
        };
      });
    },
  };
}
