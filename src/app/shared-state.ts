/**
 * Where state that several instances share lives: in Redis when `REDIS_URL`
 * is set ("Shared state" in docs/operating.md), else in this instance's
 * memory or, for the alert job, in the store every instance shares. Each
 * helper loads its Redis adapter with `import()`, so a function that never
 * meets Redis never compiles ioredis.
 */
import type { Redis } from 'ioredis';
import type { Store } from '../store/database.ts';

/** Every key this application writes to Redis starts so, so it can share a server with others. */
export const REDIS_PREFIX = 'wos:';

/** A forecast cache tier shared through Redis under `name`, or nothing (each instance keeps its own). */
export async function sharedCache(redis: () => Promise<Redis | undefined>, name: 'forecast' | 'ensemble') {
  const client = await redis();
  if (!client) return {};
  const { createRedisKeyValue } = await import('../store/shared-state/key-value.ts');
  return { shared: createRedisKeyValue(client, `${REDIS_PREFIX}${name}:`) };
}

/** One log line per upstream ensemble request: its weight is what the provider bills. */
export function logEnsembleRequest(r: { model: string; locations: number; weight: number }): void {
  console.log(`ensemble: ${r.model} request for ${r.locations} location(s), weight ${r.weight} calls`);
}

/** The alert job's lock and where a run that ran out of time left off: in Redis, else in the store. */
export async function alertJobCoordination(client: Redis | undefined, store: Store) {
  const [{ sharedCursorStore }, { ALERT_JOB_LOCK_TTL_MS: ttl }] = await Promise.all([
    import('../alerts/cursor.ts'),
    import('../alerts/run.ts'),
  ]);
  if (client) {
    const [{ createRedisLock }, { createRedisKeyValue }] = await Promise.all([
      import('../store/shared-state/lock.ts'),
      import('../store/shared-state/key-value.ts'),
    ]);
    return {
      lock: createRedisLock(client, `${REDIS_PREFIX}alert-job:lock`, ttl),
      cursor: sharedCursorStore(createRedisKeyValue(client, `${REDIS_PREFIX}alert-job:`), 'cursor'),
    };
  }
  // Without Redis the store every instance shares holds them, so runs on Vercel still never overlap.
  const { createStoreKeyValue, createStoreLock } = await import('../store/repositories/job-state.ts');
  return {
    lock: createStoreLock(store.db, 'alert-job:lock', ttl),
    cursor: sharedCursorStore(createStoreKeyValue(store.db, 'alert-job:'), 'cursor'),
  };
}
