/**
 * The per-connection limit of the MCP endpoints, per key (client IP, or
 * OAuth grant on `/mcp/rider`): `burst` calls in a window of
 * `burst / perMinute` minutes. One algorithm whatever holds the counts
 * (`src/store/shared-state/rate-limiter.ts`): this instance's memory by
 * default, Redis when the composition root passes a shared limiter.
 */
import { createMemoryRateLimiter } from '../store/shared-state/rate-limiter.ts';

export interface RateLimitOptions {
  readonly perMinute: number;
  readonly burst: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** Seconds until one call is allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

/** In memory or shared by every instance, hence a decision or its promise. */
export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}

/** The limit in this instance's memory. */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  return createMemoryRateLimiter({ ...options, prefix: 'mcp-connection' });
}
