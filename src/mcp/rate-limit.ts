/**
 * A token bucket per key (client IP now, OAuth grant later): `burst` calls at
 * once, refilled at `perMinute`. Written here rather than taken from a
 * library because the ones on npm are fixed-window counters or bring a
 * store; this is twenty lines, in memory, and bounded: the least recently
 * seen keys are dropped past `maxKeys` (a dropped key starts full again,
 * which only ever errs towards letting a call through).
 */
export interface RateLimitOptions {
  readonly perMinute: number;
  readonly burst: number;
  readonly maxKeys?: number;
  readonly now?: () => number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** Seconds until one call is allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

/**
 * In memory (below) or shared by every instance (`src/store/shared-state/rate-limiter.ts`,
 * chosen by the composition root when `REDIS_URL` is set), hence a decision or its promise.
 */
export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}

export function createRateLimiter({ perMinute, burst, maxKeys = 50_000, now = Date.now }: RateLimitOptions): {
  take(key: string): RateDecision;
} {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  return {
    take(key) {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: burst, at: t };
      buckets.delete(key);
      bucket.tokens = Math.min(burst, bucket.tokens + (t - bucket.at) * perMs);
      bucket.at = t;
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value ?? key);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, retryAfterS: 0 };
      }
      return { allowed: false, retryAfterS: Math.ceil((1 - bucket.tokens) / perMs / 1000) };
    },
  };
}
