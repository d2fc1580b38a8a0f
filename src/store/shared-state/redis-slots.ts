import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Takes a slot when fewer than `limit` live holders are in the sorted set:
 * holders whose time ran out are dropped first, so a crashed instance's slot
 * comes back after `ttlMs`. KEYS[1] the set; ARGV: now (ms), expiry (ms),
 * limit, token. Returns 1 when taken.
 */
const TAKE = `
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('zadd', KEYS[1], ARGV[2], ARGV[4])
  redis.call('pexpire', KEYS[1], ARGV[2] - ARGV[1])
  return 1
end
return 0`;

/**
 * Slots shared by every instance, in Redis: a sorted set of holders scored
 * by when their slot expires, taken by one script so two instances never
 * both take the last one. A waiter asks again every `pollMs` (Redis has no
 * fair queue across clients; a few slots and short queries make polling
 * cheap). Rejects when Redis does not answer, or when `signal` aborts.
 */
export function createRedisSlots(
  client: Redis,
  key: string,
  limit: number,
  options: { ttlMs: number; pollMs?: number; now?: () => number },
) {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 250;
  return {
    async acquire(signal?: AbortSignal): Promise<() => Promise<void>> {
      const token = randomUUID();
      for (;;) {
        signal?.throwIfAborted();
        const at = now();
        const taken = await client.eval(TAKE, 1, key, at, at + options.ttlMs, limit, token);
        if (taken === 1) {
          return async () => {
            await client.zrem(key, token).catch(() => undefined);
          };
        }
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, pollMs);
          signal?.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(signal.reason);
            },
            { once: true },
          );
        });
      }
    },
  };
}
