import type { Redis } from 'ioredis';

/**
 * Strings under one key prefix in Redis, with a time to live: what the
 * forecast caches' shared tier needs (`SharedCacheTier` in
 * `src/data/forecast/cell-cache.ts`, which this matches by shape).
 */
export interface SharedKeyValue {
  getMany(keys: readonly string[]): Promise<readonly (string | null)[]>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/** `prefix` keeps applications (and parallel test runs) on one Redis apart. */
export function createRedisKeyValue(client: Redis, prefix: string): SharedKeyValue {
  return {
    async getMany(keys) {
      if (keys.length === 0) return [];
      return client.mget(keys.map((key) => prefix + key));
    },
    async set(key, value, ttlMs) {
      await client.set(prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
  };
}
