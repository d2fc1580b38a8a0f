import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/mcp/rate-limit.ts';

describe('per-connection token bucket', () => {
  it('allows the burst at once, then refills at the rate, per key', () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 60, burst: 3, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterS: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 1000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    now += 60_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
  });

  it('says how long to wait for the next token', () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 2, burst: 1, now: () => now });
    limiter.take('a');
    expect(limiter.take('a').retryAfterS).toBe(30);
    now += 20_000;
    expect(limiter.take('a').retryAfterS).toBe(10);
  });

  it('forgets the least recently seen keys past its bound, which only ever lets a call through', () => {
    const limiter = createRateLimiter({ perMinute: 1, burst: 1, maxKeys: 2, now: () => 0 });
    limiter.take('a');
    limiter.take('b');
    limiter.take('c');
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('c').allowed).toBe(false);
  });
});
