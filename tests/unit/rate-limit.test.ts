import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter } from '../../src/mcp/rate-limit.ts';
import { connectionWindow } from '../../src/store/shared-state/rate-limiter.ts';

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

const allowed = async (limiter: ReturnType<typeof createRateLimiter>, key: string, times = 1) => {
  const outcomes: boolean[] = [];
  for (let i = 0; i < times; i += 1) outcomes.push((await limiter.take(key)).allowed);
  return outcomes;
};

describe('per-connection limit (fixed windows, in memory)', () => {
  it('allows the burst at once, then refuses until the window closes, per key', async () => {
    // 3 calls at once, 60 a minute: a window of 3 calls lasts 3 s.
    const limiter = createRateLimiter({ perMinute: 60, burst: 3 });
    expect(await allowed(limiter, 'a', 3)).toEqual([true, true, true]);
    expect(await limiter.take('a')).toEqual({ allowed: false, retryAfterS: 3 });
    expect(await allowed(limiter, 'b')).toEqual([true]);
    vi.advanceTimersByTime(1000);
    expect(await limiter.take('a')).toEqual({ allowed: false, retryAfterS: 2 });
    vi.advanceTimersByTime(2000);
    expect(await allowed(limiter, 'a', 4)).toEqual([true, true, true, false]);
  });

  it('says how long to wait for the window to close', async () => {
    const limiter = createRateLimiter({ perMinute: 2, burst: 1 });
    await limiter.take('a');
    expect((await limiter.take('a')).retryAfterS).toBe(30);
    vi.advanceTimersByTime(20_000);
    expect((await limiter.take('a')).retryAfterS).toBe(10);
  });

  it('forgets a key when its window closes, so memory holds only the keys of the last window', async () => {
    const limiter = createRateLimiter({ perMinute: 1, burst: 1 });
    for (const key of ['a', 'b', 'c']) await limiter.take(key);
    expect(vi.getTimerCount()).toBe(3);
    vi.advanceTimersByTime(60_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(await allowed(limiter, 'a')).toEqual([true]);
  });
});

describe('the window of a burst and a rate', () => {
  it('is the documented default: 20 calls per 20 s for 20 at once and 60 a minute', () => {
    expect(connectionWindow({ perMinute: 60, burst: 20 })).toEqual({ points: 20, duration: 20 });
  });

  it('holds the burst and keeps the rate within the rounding to whole seconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 10_000 }),
        (burst, perMinute) => {
          const { points, duration } = connectionWindow({ perMinute, burst });
          expect(points).toBe(burst);
          expect(duration).toBeGreaterThanOrEqual(1);
          // The window is the burst at the rate, to the nearest second (a second at least).
          expect(Math.abs(duration - (burst * 60) / perMinute)).toBeLessThanOrEqual(
            duration === 1 ? Infinity : 0.5,
          );
        },
      ),
    );
  });
});
