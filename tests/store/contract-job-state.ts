import { describe, expect, it } from 'vitest';
import { createStoreKeyValue, createStoreLock } from '../../src/store/repositories/job-state.ts';
import type { CurrentStore } from './contract-helpers.ts';

const TTL_MS = 60_000;

/** A clock the test moves, in unix seconds like the store's. */
function testClock(start = 1_790_000_000) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => void (now += seconds) };
}

export function describeJobState(current: CurrentStore): void {
  describe('job state (the alert job without Redis)', () => {
    it('lets one of many racing runs take the lock, and the next only once it is released', async () => {
      const { db } = current();
      const clock = testClock();
      const lock = () => createStoreLock(db, 'race:lock', TTL_MS, clock.now);
      const releases = await Promise.all(Array.from({ length: 6 }, () => lock().acquire()));
      const winners = releases.filter((release) => release !== null);
      expect(winners).toHaveLength(1);
      expect(await lock().acquire()).toBeNull();
      await winners[0]?.();
      const next = await lock().acquire();
      expect(next).not.toBeNull();
      await next?.();
    });

    it('frees a lock whose holder died once it expires, and a late release cannot free the new holder', async () => {
      const { db } = current();
      const clock = testClock();
      const lock = createStoreLock(db, 'crash:lock', TTL_MS, clock.now);
      const crashed = await lock.acquire();
      expect(crashed).not.toBeNull();
      clock.advance(TTL_MS / 1000 - 1);
      expect(await lock.acquire()).toBeNull();
      clock.advance(1);
      const taken = await lock.acquire();
      expect(taken).not.toBeNull();
      await crashed?.();
      expect(await lock.acquire()).toBeNull();
      await taken?.();
      expect(await lock.acquire()).not.toBeNull();
    });

    it('keeps values under their prefix until they expire', async () => {
      const { db } = current();
      const clock = testClock();
      const kv = createStoreKeyValue(db, 'job-a:', clock.now);
      const other = createStoreKeyValue(db, 'job-b:', clock.now);
      expect(await kv.getMany([])).toEqual([]);
      await kv.set('cursor', '{"riderId":"r1","segmentId":"s1"}', 10_000);
      await kv.set('cursor', '{"riderId":"r2","segmentId":"s2"}', 10_000);
      await kv.set('other', 'x', 20_000);
      expect(await kv.getMany(['cursor', 'missing', 'other'])).toEqual([
        '{"riderId":"r2","segmentId":"s2"}',
        null,
        'x',
      ]);
      expect(await other.getMany(['cursor'])).toEqual([null]);
      clock.advance(10);
      expect(await kv.getMany(['cursor', 'other'])).toEqual([null, 'x']);
    });
  });
}
