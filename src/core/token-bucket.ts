import type { RateSpec } from './rate-spec.js';

/**
 * A token bucket: it holds up to `capacity` tokens, gains `refillPerSecond` of them as time passes, and each
 * call takes one. Time is passed in, never read, so the arithmetic is tested without waiting.
 */
export class TokenBucket {
  private tokens: number;
  private updatedMs: number;

  constructor(
    private readonly rate: RateSpec,
    nowMs: number,
  ) {
    this.tokens = rate.capacity;
    this.updatedMs = nowMs;
  }

  /** Takes a token: `{ ok: true }`, or how many whole seconds until one will be there. */
  take(nowMs: number): { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number } {
    this.refill(nowMs);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    const waitSeconds = (1 - this.tokens) / this.rate.refillPerSecond;
    // Whole seconds, as Retry-After carries them, rounded up so that a caller who waits that long succeeds.
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds - 1e-9)) };
  }

  private refill(nowMs: number): void {
    // A clock that steps back gives no tokens and takes none.
    const elapsedMs = Math.max(0, nowMs - this.updatedMs);
    this.tokens = Math.min(this.rate.capacity, this.tokens + (elapsedMs / 1000) * this.rate.refillPerSecond);
    this.updatedMs = Math.max(this.updatedMs, nowMs);
  }
}
