/**
 * Rate limits that instances share through Redis when `REDIS_URL` is set
 * (else each instance keeps its own). Apart from `shared-state.ts` because
 * only the MCP and sign-in parts use them: a module the composition root
 * imports statically must not carry their `import()` into every function.
 */
import type { Redis } from 'ioredis';
import { REDIS_PREFIX } from './shared-state.ts';

/** The sign-in limits in Redis, so instances share one allowance per address; else better-auth's memory. */
export async function sharedSignInLimits(client: Redis | undefined) {
  if (!client) return {};
  const { createRedisWindowLimits } = await import('../store/shared-state/rate-limiter.ts');
  return { rateLimitStorage: createRedisWindowLimits(client, `${REDIS_PREFIX}auth-rate:`) };
}

/** One MCP allowance per connection across instances in Redis; else each endpoint's own bucket. */
export async function sharedMcpLimiter(
  client: Redis | undefined,
  limits: { readonly ratePerMinute: number; readonly rateBurst: number },
  address: 'public' | 'rider',
) {
  if (!client) return {};
  const { createRedisRateLimiter } = await import('../store/shared-state/rate-limiter.ts');
  const { ratePerMinute: perMinute, rateBurst: burst } = limits;
  return {
    limiter: createRedisRateLimiter(client, {
      perMinute,
      burst,
      prefix: `${REDIS_PREFIX}mcp-rate:${address}`,
    }),
  };
}

/**
 * The REST data endpoints' allowance per client address (`/v1/wind`, `/v1/segments`): in Redis when
 * set, so every instance draws on one; else this instance's memory. Loaded with the first data request.
 */
export async function restDataLimiter(
  client: Redis | undefined,
  limits: { readonly perMinute: number; readonly burst: number },
) {
  const { createMemoryRateLimiter, createRedisRateLimiter } =
    await import('../store/shared-state/rate-limiter.ts');
  const options = { ...limits, prefix: `${REDIS_PREFIX}rest-data-rate:` };
  return client ? createRedisRateLimiter(client, options) : createMemoryRateLimiter(options);
}
