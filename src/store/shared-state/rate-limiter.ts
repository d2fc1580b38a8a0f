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
