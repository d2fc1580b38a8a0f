/**
 * One rate-limit algorithm whatever holds the counts: the same timeline of
 * calls, run against the in-memory limiter and the Redis one, is allowed and
 * refused call for call alike, for the MCP per-connection limit and for the
 * sign-in limits. Real time (Redis keeps its own clock), with 1-second
 * windows and every call at least 150 ms from a window's edge.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemoryRateLimiter,
  createMemoryWindowLimits,
  createRedisRateLimiter,
  createRedisWindowLimits,
} from '../../../src/store/shared-state/rate-limiter.ts';
import { redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis rate-limit backing tests skipped: ${unavailable}`);

/** Milliseconds from the first call, and the key called. */
type Timeline = readonly (readonly [number, string])[];

/**
 * 3 calls a second (burst 3 at 180 a minute): a burst, a refusal inside the
 * window, a second key untouched by the first, a fresh window opened by the
 * first call after the old one closed, and its own refusals.
 */
const TIMELINE: Timeline = [
  [0, 'a'],
  [0, 'a'],
  [0, 'a'],
  [0, 'a'],
  [0, 'b'],
  [400, 'a'],
  [400, 'b'],
  [1300, 'a'],
  [1300, 'a'],
  [1300, 'a'],
  [1450, 'a'],
  [1600, 'b'],
  [2500, 'a'],
];
/** What the algorithm answers, written out: a window opens at a key's first call and holds 3 calls for 1 s. */
const EXPECTED = [true, true, true, false, true, false, true, true, true, true, false, true, true];

const sleepUntil = (start: number, at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, start + at - Date.now())));

async function run(take: (key: string) => Promise<{ allowed: boolean }>): Promise<boolean[]> {
  const start = Date.now();
  const outcomes: boolean[] = [];
  for (const [at, key] of TIMELINE) {
    await sleepUntil(start, at);
    outcomes.push((await take(key)).allowed);
  }
  return outcomes;
}

describe('the in-memory limits', () => {
  it('answer the timeline as the algorithm says', async () => {
    const limiter = createMemoryRateLimiter({ perMinute: 180, burst: 3, prefix: 'memory:' });
    expect(await run((key) => limiter.take(key))).toEqual(EXPECTED);
  });
});

describe.skipIf(unavailable !== null)('the in-memory and the Redis limits', () => {
  const prefix = testPrefix('rate-backings');
  const { open, closeAll } = testClients(prefix);
  afterAll(async () => {
    await closeAll();
  });

  it('allow and refuse the same calls of the MCP per-connection limit', async () => {
    const options = { perMinute: 180, burst: 3 };
    const memory = createMemoryRateLimiter({ ...options, prefix: `${prefix}memory:` });
    const redis = createRedisRateLimiter(open(), { ...options, prefix: `${prefix}mcp:` });
    const [inMemory, inRedis] = await Promise.all([
      run((key) => memory.take(key)),
      run((key) => redis.take(key)),
    ]);
    expect(inRedis).toEqual(inMemory);
    expect(inMemory).toEqual(EXPECTED);
  });

  it('allow and refuse the same calls of a sign-in rule, and say the same wait', async () => {
    const rule = { window: 1, max: 3 };
    const memory = createMemoryWindowLimits(`${prefix}auth-memory:`);
    const redis = createRedisWindowLimits(open(), `${prefix}auth:`);
    const [inMemory, inRedis] = await Promise.all([
      run((key) => memory.consume(key, rule)),
      run((key) => redis.consume(key, rule)),
    ]);
    expect(inRedis).toEqual(inMemory);
    expect(inMemory).toEqual(EXPECTED);
    const waits = await Promise.all(
      [memory, redis].map(async (limits) => {
        for (let i = 0; i < 3; i += 1) await limits.consume('c', { window: 60, max: 3 });
        return (await limits.consume('c', { window: 60, max: 3 })).retryAfter;
      }),
    );
    expect(waits).toEqual([60, 60]);
  });
});
