import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Deletes the key only if it still holds our token, so a run never frees a lock another run took after ours expired. */
const RELEASE_IF_OURS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * A lock one run at a time holds across every instance: `SET key token NX PX
 * ttl`. A single-server lock, not Redlock: one Redis decides, which is what
 * a managed Redis offers, and the time to live frees it if the holder dies.
 * `acquire` resolves to the release function, or null when another run holds
 * the lock; it rejects when Redis does not answer (the caller decides).
 */
export function createRedisLock(client: Redis, key: string, ttlMs: number) {
  return {
    async acquire(): Promise<(() => Promise<void>) | null> {
      const token = randomUUID();
      const taken = await client.set(key, token, 'PX', ttlMs, 'NX');
      if (taken !== 'OK') return null;
      return async () => {
        await client.eval(RELEASE_IF_OURS, 1, key, token).catch(() => undefined);
      };
    },
  };
}
