import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { polylineLegs } from '../../src/core/segment-wind.ts';
import { HOUR_S, segmentTimeline, type SegmentHour } from '../../src/core/tailwind-window.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';
import { civilDaylight } from '../../src/core/daylight.ts';
import { packTimeline, unpackHour, unpackTimeline } from '../../src/data/segments/packed-timeline.ts';

const legs = polylineLegs([
  { lat: 45, lon: 6 },
  { lat: 45.04, lon: 6.03 },
  { lat: 45.05, lon: 6.08 },
]);
// Due north: a wind from 180° is a tailwind, from 0° a headwind, from 90° a crosswind.
const north = polylineLegs([
  { lat: 45, lon: 6 },
  { lat: 45.05, lon: 6 },
]);
const T0 = 1_795_000_000 - (1_795_000_000 % HOUR_S);

const figure = (min: number, max: number) => fc.double({ min, max, noNaN: true });
const sample = fc.record({
  speedKmh: figure(0, 120),
  directionDeg: figure(0, 360),
  gustsKmh: fc.option(figure(0, 180)),
  temperatureC: fc.option(figure(-40, 50)),
  precipitationMm: fc.option(figure(0, 80)),
  precipitationProbabilityPct: fc.option(fc.integer({ min: 0, max: 100 })),
});

/** Field for field with `Object.is`, so a -0 or a null turned into 0 would show. */
function sameHours(a: readonly SegmentHour[], b: readonly SegmentHour[]): boolean {
  return (
    a.length === b.length &&
    a.every((hour, i) => {
      const other = b[i];
      if (!other) return false;
      const keys = Object.keys(hour) as (keyof SegmentHour)[];
      return (
        keys.length === Object.keys(other).length && keys.every((key) => Object.is(hour[key], other[key]))
      );
    })
  );
}

describe('a packed timeline', () => {
  it('unpacks to hours equal field for field to those packed', () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 72 }), (raw) => {
        const samples: WindHour[] = raw.map((s, i) => ({ ...s, time: T0 + i * HOUR_S }));
        const daylight = civilDaylight({ lat: 45, lon: 6 }, T0, T0 + (raw.length + 1) * HOUR_S);
        const timeline = segmentTimeline(legs, samples, daylight);
        const unpacked = unpackTimeline(packTimeline(timeline));
        expect(sameHours(unpacked, timeline)).toBe(true);
        expect(unpacked).toEqual(timeline);
      }),
    );
  });

  it('keeps every effect, daylight either way, and hands out new frozen hours each time', () => {
    const samples: WindHour[] = [0, 90, 180, 270, 0].map((directionDeg, i) => ({
      time: T0 + i * 6 * HOUR_S,
      speedKmh: i === 4 ? 0 : 20,
      directionDeg,
      gustsKmh: null,
      temperatureC: null,
      precipitationMm: null,
      precipitationProbabilityPct: null,
    }));
    const daylight = civilDaylight({ lat: 45, lon: 6 }, T0, T0 + 30 * HOUR_S);
    const timeline = segmentTimeline(north, samples, daylight);
    expect(new Set(timeline.map((h) => h.effect))).toEqual(
      new Set(['tailwind', 'headwind', 'crosswind', 'calm']),
    );
    expect(new Set(timeline.map((h) => h.daylight))).toEqual(new Set([true, false]));
    const packed = packTimeline(timeline);
    const first = unpackTimeline(packed);
    expect(sameHours(first, timeline)).toBe(true);
    expect(Object.isFrozen(first) && first.every((hour) => Object.isFrozen(hour))).toBe(true);
    expect(unpackTimeline(packed)).not.toBe(first);
    expect(unpackTimeline(packTimeline([]))).toEqual([]);
    expect(
      sameHours(
        timeline.flatMap((_, i) => unpackHour(packed, i) ?? []),
        timeline,
      ),
    ).toBe(true);
    expect(unpackHour(packed, timeline.length)).toBeUndefined();
    expect(unpackHour(packTimeline([]), 0)).toBeUndefined();
  });
});
