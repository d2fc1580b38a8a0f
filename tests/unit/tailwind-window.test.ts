import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { polylineLegs } from '../../src/core/segment-wind.ts';
import { bestTailwindWindow, HOUR_S, segmentTimeline } from '../../src/core/tailwind-window.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';

// A segment heading due north: a wind FROM 180° is a pure tailwind.
const north = polylineLegs([
  { lat: 45, lon: 6 },
  { lat: 45.05, lon: 6 },
]);
const T0 = 1_795_000_000 - (1_795_000_000 % HOUR_S);
/** Weather that refuses nothing: these tests are about the run of tailwind hours. */
const DRY = { temperatureC: 15, precipitationMm: 0, precipitationProbabilityPct: 0 };

function hours(speeds: readonly number[], directionDeg = 180): WindHour[] {
  return speeds.map((speedKmh, i) => ({
    time: T0 + i * HOUR_S,
    speedKmh,
    directionDeg,
    gustsKmh: speedKmh * 1.5,
    ...DRY,
  }));
}

describe('best tailwind window', () => {
  it('is the run around the peak where the tailwind stays at least half the peak', () => {
    const window = bestTailwindWindow(segmentTimeline(north, hours([2, 6, 12, 20, 11, 9, 4, 15]), []));
    expect(window).toMatchObject({ start: T0 + HOUR_S * 2, end: T0 + HOUR_S * 5, hours: 3 });
    expect(window?.peak).toMatchObject({ time: T0 + HOUR_S * 3, tailwindKmh: 20, windGustsKmh: 30 });
    expect(window?.meanTailwindKmh).toBe(14.3);
  });

  it('takes the earliest of equal peaks', () => {
    const window = bestTailwindWindow(segmentTimeline(north, hours([10, 0, 10]), []));
    expect(window).toMatchObject({ start: T0, hours: 1 });
  });

  it('is null when no hour is a tailwind of at least 1 km/h', () => {
    expect(bestTailwindWindow(segmentTimeline(north, hours([5, 20], 0), []))).toBeNull();
    expect(bestTailwindWindow(segmentTimeline(north, hours([0.9, 0.5]), []))).toBeNull();
    expect(bestTailwindWindow([])).toBeNull();
  });

  it('stops at a gap in the forecast', () => {
    const samples = hours([10, 10, 10]);
    const gappy = [
      samples[0],
      { ...samples[1], time: T0 + 5 * HOUR_S },
      { ...samples[2], time: T0 + 6 * HOUR_S },
    ] as WindHour[];
    expect(bestTailwindWindow(segmentTimeline(north, gappy, []))).toMatchObject({ start: T0, hours: 1 });
  });

  it('always contains the peak, only tailwind hours at or above half of it, and cannot grow', () => {
    const speeds = fc.array(fc.double({ min: 0, max: 60, noNaN: true }), { minLength: 1, maxLength: 72 });
    const dirs = fc.array(fc.integer({ min: 0, max: 359 }), { minLength: 72, maxLength: 72 });
    fc.assert(
      fc.property(speeds, dirs, (s, d) => {
        const samples = s.map((speedKmh, i) => ({
          time: T0 + i * HOUR_S,
          speedKmh,
          directionDeg: d[i] ?? 0,
          gustsKmh: null,
          ...DRY,
        }));
        const timeline = segmentTimeline(north, samples, []);
        const window = bestTailwindWindow(timeline);
        const max = Math.max(...timeline.map((h) => h.tailwindKmh));
        if (!window) {
          expect(max).toBeLessThan(1);
          return;
        }
        expect(window.peak.tailwindKmh).toBe(max);
        const first = (window.start - T0) / HOUR_S;
        const inside = timeline.slice(first, first + window.hours);
        const floor = Math.max(1, max / 2);
        expect(inside.every((h) => h.tailwindKmh >= floor)).toBe(true);
        expect(inside).toContain(window.peak);
        // The hours just outside the window (if any) fall below the floor.
        expect(timeline[first - 1]?.tailwindKmh ?? -Infinity).toBeLessThan(floor);
        expect(timeline[first + window.hours]?.tailwindKmh ?? -Infinity).toBeLessThan(floor);
      }),
    );
  });
});
