import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** What the MCP endpoint asks of a limiter (`RateLimiter` in `src/mcp/rate-limit.ts`, matched by shape). */
export interface SharedRateDecision {
  readonly allowed: boolean;
  readonly retryAfterS: number;
}

export interface SharedRateLimitOptions {
  readonly perMinute: number;
  readonly burst: number;
  /** Keeps this limiter's keys apart from other limiters (and parallel test runs) on the same Redis. */
  readonly prefix: string;
}

/**
 * The MCP per-connection limit counted in Redis, so every instance draws on
 * one allowance per client IP or OAuth grant instead of one each.
 *
 * rate-limiter-flexible rather than a hand-written script: one atomic
 * Redis call per decision, maintained, and the same API in memory, which it
 * uses as the insurance limiter while Redis does not answer (each instance
 * then limits on its own, as without Redis; a call is never failed for it).
 * Its counters are fixed windows, not the in-memory token bucket: a window
 * holds `burst` calls and lasts `burst / perMinute` minutes, which keeps the
 * same largest burst and the same rate over a minute (at a window's edge a
 * client may get two bursts back to back, an accepted cost of sharing).
 */
export function createRedisRateLimiter(client: Redis, options: SharedRateLimitOptions) {
  const { perMinute, burst, prefix } = options;
  const shape = { points: burst, duration: Math.max(1, Math.round((burst * 60) / perMinute)) };
  const limiter = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: prefix,
    ...shape,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: prefix, ...shape }),
  });
  return {
    async take(key: string): Promise<SharedRateDecision> {
      try {
        await limiter.consume(key);
        return { allowed: true, retryAfterS: 0 };
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes)
          return { allowed: false, retryAfterS: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
        // Neither Redis nor the insurance limiter decided: let the call through rather than fail it.
        return { allowed: true, retryAfterS: 0 };
      }
    },
  };
}

/** One decision of a fixed-window limit, in the shape better-auth's rate-limit storage returns. */
export interface WindowDecision {
  readonly allowed: boolean;
  /** Seconds until the window frees up; null when allowed. */
  readonly retryAfter: number | null;
}

/** Rules seen at once at most: better-auth has a handful (sign-in, sign-up, token…); more means misuse. */
const MAX_RULES = 64;

/**
 * The sign-in rate limits (better-auth's per-address rules: `max` requests
 * per `window` seconds, a rule per path) counted in Redis, so every instance
 * draws on one allowance per address instead of one each. Matches
 * better-auth's `rateLimit.customStorage` (`consume`) by shape.
 *
 * rate-limiter-flexible again, one limiter per rule, each with an in-memory
 * insurance limiter: while Redis does not answer, each instance limits on
 * its own, as it did before; a sign-in is never failed for it.
 */
export function createRedisWindowLimits(client: Redis, prefix: string) {
  const limiters = new Map<string, RateLimiterRedis>();
  const limiterFor = (window: number, max: number): RateLimiterRedis => {
    const shape = { points: Math.max(1, Math.floor(max)), duration: Math.max(1, Math.ceil(window)) };
    const name = `${shape.points}/${shape.duration}`;
    const known = limiters.get(name);
    if (known) return known;
    if (limiters.size >= MAX_RULES) throw new RangeError('too many distinct rate-limit rules');
    const keyPrefix = `${prefix}${name}`;
    const limiter = new RateLimiterRedis({
      storeClient: client,
      keyPrefix,
      ...shape,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, ...shape }),
    });
    limiters.set(name, limiter);
    return limiter;
  };
  return {
    async consume(
      key: string,
      rule: { readonly window: number; readonly max: number },
    ): Promise<WindowDecision> {
      try {
        await limiterFor(rule.window, rule.max).consume(key);
        return { allowed: true, retryAfter: null };
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes)
          return { allowed: false, retryAfter: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
        return { allowed: true, retryAfter: null };
      }
    },
  };
}
