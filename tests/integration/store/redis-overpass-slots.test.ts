/**
 * Overpass query slots shared by every instance through Redis: three instances (three clients)
 * asking for slots at once never hold more than the limit together; a freed slot goes to a waiter,
 * a holder that died frees its slot after its time to live, and a waiter gives up when told.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { bothSlots, memorySlots } from '../../../src/data/discovery/query-slots.ts';
import { createRedisSlots } from '../../../src/store/shared-state/redis-slots.ts';
import { redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis Overpass-slot tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('Overpass slots across instances in Redis', () => {
  const prefix = testPrefix('overpass-slots');
  const { open, closeAll } = testClients(prefix);
  afterAll(closeAll);

  it('never lets more than the limit be held across instances, and hands a freed slot on', async () => {
    const key = `${prefix}slots-a`;
    const instances = [open(), open(), open()].map((client) =>
      bothSlots(memorySlots(2), createRedisSlots(client, key, 2, { ttlMs: 30_000, pollMs: 20 })),
    );
    let held = 0;
    let most = 0;
    const work = Array.from({ length: 12 }, async (_, k) => {
      const free = await (instances[k % 3] as (typeof instances)[number]).acquire();
      held++;
      most = Math.max(most, held);
      await new Promise((resolve) => setTimeout(resolve, 30));
      held--;
      await free();
    });
    await Promise.all(work);
    expect(most).toBe(2);
    expect(held).toBe(0);
  });

  it('frees the slot of a holder that died after its time to live, and lets a waiter give up', async () => {
    const key = `${prefix}slots-b`;
    const dead = createRedisSlots(open(), key, 1, { ttlMs: 300, pollMs: 20 });
    await dead.acquire(); // never freed: the instance "died"
    const waiter = createRedisSlots(open(), key, 1, { ttlMs: 300, pollMs: 20 });
    await expect(waiter.acquire(AbortSignal.timeout(100))).rejects.toThrow();
    const started = Date.now();
    const free = await waiter.acquire(AbortSignal.timeout(5_000));
    expect(Date.now() - started).toBeLessThan(5_000);
    await free();
  });
});
