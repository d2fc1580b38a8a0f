/**
 * The heap limits `npm start` gives the server's thread: a fixed young
 * generation, and an old generation at its cap or at the host's own limit,
 * whichever is smaller, so a small host never gets a larger heap than V8
 * would give it.
 */
import fc from 'fast-check';
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { OLD_GENERATION_MB, serverHeapLimits, YOUNG_GENERATION_MB } from '../../src/server/heap-limits.ts';

describe('serverHeapLimits', () => {
  it('never gives the old generation more than the host allows or than its cap', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1_000_000, noNaN: true }), (hostLimitMb) => {
        const { maxYoungGenerationSizeMb, maxOldGenerationSizeMb = 0 } = serverHeapLimits(hostLimitMb);
        expect(maxYoungGenerationSizeMb).toBe(YOUNG_GENERATION_MB);
        expect(maxOldGenerationSizeMb).toBeLessThanOrEqual(Math.min(hostLimitMb, OLD_GENERATION_MB));
        expect(maxOldGenerationSizeMb).toBe(Math.min(OLD_GENERATION_MB, Math.floor(hostLimitMb)));
        expect(Number.isInteger(maxOldGenerationSizeMb)).toBe(true);
      }),
    );
  });

  it('reads the host limit from this thread by default', () => {
    const host = getHeapStatistics().heap_size_limit / 1_048_576;
    expect(serverHeapLimits()).toEqual(serverHeapLimits(host));
  });
});
