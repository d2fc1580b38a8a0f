import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chanceWord,
  hourSpread,
  memberTailwinds,
  quantileSorted,
  tailwindSpread,
  windowSpread,
  type EnsembleSample,
} from '../../src/core/ensemble-chance.ts';
import { polylineLegs } from '../../src/core/segment-wind.ts';

const speed = fc.integer({ min: 0, max: 800 }).map((tenths) => tenths / 10);
const direction = fc.integer({ min: 0, max: 359 });
const member = fc.record({ speed, direction });
const members = fc.array(member, { minLength: 1, maxLength: 60 });

const north = polylineLegs([
  { lat: 45, lon: 6 },
  { lat: 45.02, lon: 6 },
]);
const toRad = (deg: number) => (deg * Math.PI) / 180;

/** The tailwind of a due-north segment, written out from the formula, not from the code under test. */
const alongNorth = (speedKmh: number, fromDeg: number) =>
  Math.round(speedKmh * Math.cos(toRad(fromDeg + 180)) * 10) / 10;

const sampleOf = (list: readonly { speed: number; direction: number }[], time = 0): EnsembleSample => ({
  time,
  speedKmh: list.map((m) => m.speed),
  directionDeg: list.map((m) => m.direction),
});

describe('chance of a tailwind from ensemble members', () => {
  it('equals the member frequency counted independently from the members', () => {
    fc.assert(
      fc.property(members, fc.integer({ min: -20, max: 40 }), (list, threshold) => {
        const spread = hourSpread(north, sampleOf(list), threshold);
        const reaching = list.filter((m) => alongNorth(m.speed, m.direction) >= threshold).length;
        expect(spread?.members).toBe(list.length);
        expect(spread?.reaching).toBe(reaching);
        expect(spread?.chance).toBe(reaching / list.length);
      }),
    );
  });

  it('orders its percentiles and keeps them inside the members', () => {
    fc.assert(
      fc.property(members, (list) => {
        const spread = hourSpread(north, sampleOf(list), 5);
        const values = list.map((m) => alongNorth(m.speed, m.direction));
        expect(spread).not.toBeNull();
        if (!spread) return;
        expect(spread.p10Kmh).toBeLessThanOrEqual(spread.p50Kmh);
        expect(spread.p50Kmh).toBeLessThanOrEqual(spread.p90Kmh);
        expect(spread.p10Kmh).toBeGreaterThanOrEqual(Math.min(...values) - 0.05);
        expect(spread.p90Kmh).toBeLessThanOrEqual(Math.max(...values) + 0.05);
      }),
    );
  });

  it('counts a member exactly at the threshold as reaching it', () => {
    // 10 km/h from due south on a northward segment is exactly +10.
    const spread = hourSpread(
      north,
      sampleOf([
        { speed: 10, direction: 180 },
        { speed: 10, direction: 0 },
      ]),
      10,
    );
    expect(spread).toEqual({ reaching: 1, members: 2, chance: 0.5, p10Kmh: -8, p50Kmh: 0, p90Kmh: 8 });
  });

  it('gives no probability for an hour with no members or misaligned arrays, never a guess', () => {
    expect(hourSpread(north, { time: 0, speedKmh: [], directionDeg: [] }, 5)).toBeNull();
    expect(hourSpread(north, { time: 0, speedKmh: [10, 12], directionDeg: [180] }, 5)).toBeNull();
    expect(memberTailwinds(north, { time: 0, speedKmh: [10], directionDeg: [180, 0] })).toEqual([]);
    expect(tailwindSpread([1, NaN, 3], 2)).toBeNull();
  });

  it('judges a window on each member’s mean over its hours', () => {
    // Member A: +20 then 0 (mean 10); member B: 0 then +20 (mean 10); member C: -10 both hours.
    const h0 = { time: 0, speedKmh: [20, 0, 10], directionDeg: [180, 180, 0] };
    const h1 = { time: 3600, speedKmh: [0, 20, 10], directionDeg: [180, 180, 0] };
    const spread = windowSpread(north, [h0, h1], { start: 0, end: 7200 }, 10);
    expect(spread?.reaching).toBe(2);
    expect(spread?.p50Kmh).toBe(10);
    // Per hour, only one member of three reaches 10 in each hour: the window is not the hours' average.
    expect(hourSpread(north, h0, 10)?.reaching).toBe(1);
  });

  it('gives a window no probability when an hour or a member is missing', () => {
    const h0 = { time: 0, speedKmh: [20, 0], directionDeg: [180, 180] };
    const h2 = { time: 7200, speedKmh: [20, 0], directionDeg: [180, 180] };
    expect(windowSpread(north, [h0, h2], { start: 0, end: 10800 }, 5)).toBeNull();
    const short = { time: 3600, speedKmh: [20], directionDeg: [180] };
    expect(windowSpread(north, [h0, short], { start: 0, end: 7200 }, 5)).toBeNull();
  });

  it('interpolates quantiles between the closest ranks', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([0, 10], 0.1)).toBeCloseTo(1, 10);
    expect(quantileSorted([7], 0.9)).toBe(7);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });

  it('says the chance in words with bands that never overstate it', () => {
    expect(chanceWord(0.78)).toBe('likely');
    expect(chanceWord(34 / 51)).toBe('likely');
    expect(chanceWord(33 / 51)).toBe('about even');
    expect(chanceWord(0.5)).toBe('about even');
    expect(chanceWord(18 / 51)).toBe('about even');
    expect(chanceWord(17 / 51)).toBe('unlikely');
    expect(chanceWord(0)).toBe('unlikely');
  });
});
