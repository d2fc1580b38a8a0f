import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/**
 * Every rate limit of the service, in one algorithm whatever holds the
 * counts: rate-limiter-flexible's fixed windows, in this instance's memory
 * or in Redis (when `REDIS_URL` is set, so every instance draws on one
 * allowance). A window opens at a key's first call and holds `points` calls
 * for `duration` seconds; a call past them is refused until it closes. The
 * memory and Redis limiters of the library keep these same semantics, so a
 * client meets the same limit on any deployment (tests/integration/store/rate-limit-backings
 * runs one timeline against both).
 *
 * The library rather than a hand-written bucket: one atomic Redis call per
 * decision, maintained, and the same API in memory, which it also uses as
 * the insurance limiter while Redis does not answer (each instance then
 * limits on its own; a call is never failed for it). Memory stays bounded:
 * a key's record is dropped when its window closes.
 */
interface WindowShape {
  /** Calls a window holds. */
  readonly points: number;
  /** Seconds a window lasts. */
  readonly duration: number;
}

/** What a limit answers. */
export interface SharedRateDecision {
  readonly allowed: boolean;
  /** Seconds until a call is allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

export interface SharedRateLimitOptions {
  readonly perMinute: number;
  readonly burst: number;
  /** Keeps this limiter's keys apart from other limiters (and parallel test runs) on the same Redis. */
  readonly prefix: string;
}

/**
 * The MCP per-connection limit as a window: `burst` calls at once, and
 * `perMinute` on average, so a window of `burst` calls lasts
 * `burst / perMinute` minutes (whole seconds, at least one). At a window's
 * edge a client may get two bursts back to back: the accepted cost of one
 * atomic counter per key.
 */
export function connectionWindow(options: {
  readonly perMinute: number;
  readonly burst: number;
}): WindowShape {
  const points = Math.max(1, Math.floor(options.burst));
  return { points, duration: Math.max(1, Math.round((points * 60) / options.perMinute)) };
}

function limiterOf(shape: WindowShape, keyPrefix: string, client?: Redis): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, ...shape });
  if (!client) return memory;
  return new RateLimiterRedis({ storeClient: client, keyPrefix, ...shape, insuranceLimiter: memory });
}

async function decide(limiter: RateLimiterAbstract, key: string): Promise<SharedRateDecision> {
  try {
    await limiter.consume(key);
    return { allowed: true, retryAfterS: 0 };
  } catch (outcome) {
    if (outcome instanceof RateLimiterRes)
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
    // Neither Redis nor the insurance limiter decided: let the call through rather than fail it.
    return { allowed: true, retryAfterS: 0 };
  }
}

function connectionLimiter(options: SharedRateLimitOptions, client?: Redis) {
  const limiter = limiterOf(connectionWindow(options), options.prefix, client);
  return { take: (key: string): Promise<SharedRateDecision> => decide(limiter, key) };
}

/** The MCP per-connection limit in this instance's memory (no `REDIS_URL`). */
export function createMemoryRateLimiter(options: SharedRateLimitOptions) {
  return connectionLimiter(options);
}

/** The MCP per-connection limit counted in Redis: one allowance per client IP or OAuth grant across instances. */
export function createRedisRateLimiter(client: Redis, options: SharedRateLimitOptions) {
  return connectionLimiter(options, client);
}

/** One decision of a window limit, in the shape better-auth's rate-limit storage returns. */
export interface WindowDecision {
  readonly allowed: boolean;
  /** Seconds until the window frees up; null when allowed. */
  readonly retryAfter: number | null;
}

/** Rules seen at once at most: better-auth has a handful (sign-in, sign-up, token…); more means misuse. */
const MAX_RULES = 64;

/**
 * The sign-in rate limits (better-auth's per-address rules: `max` requests
 * per `window` seconds, a rule per path) as windows of this module, one
 * limiter per rule. Matches better-auth's `rateLimit.customStorage`
 * (`consume`) by shape, and replaces its own memory counter too, whose
 * window restarts only after a quiet `window`, so the sign-in limit is the
 * same with or without Redis.
 */
function windowLimits(prefix: string, client?: Redis) {
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (window: number, max: number): RateLimiterAbstract => {
    const shape = { points: Math.max(1, Math.floor(max)), duration: Math.max(1, Math.ceil(window)) };
    const name = `${shape.points}/${shape.duration}`;
    const known = limiters.get(name);
    if (known) return known;
    if (limiters.size >= MAX_RULES) throw new RangeError('too many distinct rate-limit rules');
    const limiter = limiterOf(shape, `${prefix}${name}`, client);
    limiters.set(name, limiter);
    return limiter;
  };
  return {
    async consume(
      key: string,
      rule: { readonly window: number; readonly max: number },
    ): Promise<WindowDecision> {
      const decision = await decide(limiterFor(rule.window, rule.max), key);
      return { allowed: decision.allowed, retryAfter: decision.allowed ? null : decision.retryAfterS };
    },
  };
}

/** The sign-in limits in this instance's memory. */
export function createMemoryWindowLimits(prefix: string) {
  return windowLimits(prefix);
}

/** The sign-in limits counted in Redis, so every instance draws on one allowance per address. */
export function createRedisWindowLimits(client: Redis, prefix: string) {
  return windowLimits(prefix, client);
}
