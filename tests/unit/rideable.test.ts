import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COLD_C,
  flagsOf,
  GUST_LIMIT_KMH,
  GUSTY_KMH,
  refusalsOf,
  WET_PRECIPITATION_MM,
  weatherExtremes,
  WET_PROBABILITY_PCT,
} from '../../src/core/rideable.ts';
import { polylineLegs } from '../../src/core/segment-wind.ts';
import { bestRideableWindow, HOUR_S, segmentTimeline } from '../../src/core/tailwind-window.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';
import type { DaylightSpan } from '../../src/core/daylight.ts';
import { WIND_HEIGHT_FACTOR } from '../../src/core/power-model.ts';

const north = polylineLegs([
  { lat: 45, lon: 6 },
  { lat: 45.05, lon: 6 },
]);
const T0 = Date.UTC(2026, 5, 1) / 1000;
/** Light from 04:00 to 20:00 UTC on the first day only. */
const DAY: DaylightSpan[] = [
  { start: T0 + 4 * HOUR_S, end: T0 + 20 * HOUR_S, startIsDawn: true, endIsDusk: true },
];

interface Hour {
  readonly speed: number;
  readonly gust?: number;
  readonly rain?: number;
  readonly chance?: number;
  readonly temp?: number;
}

/** Hourly samples from T0 with a pure tailwind (wind FROM the south) of the given speeds. */
function samples(hours: readonly Hour[]): WindHour[] {
  return hours.map((h, i) => ({
    time: T0 + i * HOUR_S,
    speedKmh: h.speed,
    directionDeg: 180,
    gustsKmh: h.gust ?? h.speed,
    temperatureC: h.temp ?? 15,
    precipitationMm: h.rain ?? 0,
    precipitationProbabilityPct: h.chance ?? 0,
  }));
}

const search = (hours: readonly Hour[], includeDarkness = false) =>
  bestRideableWindow(segmentTimeline(north, samples(hours), DAY), DAY, { includeDarkness });

/** `n` calm hours, then the given ones: index 0 of `rest` is at T0 + n hours. */
const after = (n: number, rest: readonly Hour[]): Hour[] => [
  ...Array.from({ length: n }, () => ({ speed: 0 })),
  ...rest,
];

describe('which hours are refused', () => {
  it('refuses darkness (unless lights), rain and gusts at their documented limits, and nothing below them', () => {
    const dry = {
      daylight: true,
      windGustsKmh: 10,
      temperatureC: 15,
      precipitationMm: 0,
      precipitationProbabilityPct: 0,
    };
    expect(refusalsOf(dry, false)).toEqual([]);
    expect(refusalsOf({ ...dry, daylight: false }, false)).toEqual(['dark']);
    expect(refusalsOf({ ...dry, daylight: false }, true)).toEqual([]);
    expect(refusalsOf({ ...dry, precipitationMm: WET_PRECIPITATION_MM }, false)).toEqual(['wet']);
    expect(refusalsOf({ ...dry, precipitationMm: WET_PRECIPITATION_MM - 0.1 }, false)).toEqual([]);
    expect(refusalsOf({ ...dry, precipitationProbabilityPct: WET_PROBABILITY_PCT }, false)).toEqual(['wet']);
    expect(refusalsOf({ ...dry, windGustsKmh: GUST_LIMIT_KMH }, false)).toEqual(['gusty']);
    expect(refusalsOf({ ...dry, windGustsKmh: GUST_LIMIT_KMH - 0.1 }, false)).toEqual([]);
    // Unknown figures refuse nothing (and flag nothing).
    const unknown = {
      daylight: true,
      windGustsKmh: null,
      temperatureC: null,
      precipitationMm: null,
      precipitationProbabilityPct: null,
    };
    expect(refusalsOf(unknown, false)).toEqual([]);
    expect(flagsOf(unknown)).toEqual([]);
  });

  it('flags what is marginal but rideable', () => {
    const hour = {
      daylight: true,
      windGustsKmh: GUSTY_KMH,
      temperatureC: -1,
      precipitationMm: 0.2,
      precipitationProbabilityPct: 10,
    };
    // 0.2 mm is under the one rain rule: figures, not a flag.
    expect(flagsOf(hour)).toEqual(['gusty', 'cold', 'freezing']);
    expect(flagsOf({ ...hour, precipitationMm: WET_PRECIPITATION_MM })).toEqual([
      'wet',
      'gusty',
      'cold',
      'freezing',
    ]);
    expect(flagsOf({ ...hour, windGustsKmh: 20, temperatureC: COLD_C, precipitationMm: 0 })).toEqual([]);
    expect(flagsOf({ ...hour, windGustsKmh: 20, temperatureC: 35, precipitationMm: 0 })).toEqual(['hot']);
  });
});

describe('the best rideable window', () => {
  it('skips a stronger tailwind at night and takes the best daylight run, with its dawn and dusk', () => {
    // 02:00 is dark with 40 km/h; 10:00–12:00 light with 20–24 km/h.
    const { window, status } = search(
      after(2, [{ speed: 40 }, ...after(7, [{ speed: 20 }, { speed: 24 }, { speed: 20 }])]),
    );
    expect(status).toBe('found');
    expect(window).toMatchObject({ start: T0 + 10 * HOUR_S, end: T0 + 13 * HOUR_S, hours: 3 });
    expect(window?.daylight).toEqual(DAY[0]);
    expect(window?.peak.tailwindKmhRiderHeight).toBe(Math.round(24 * WIND_HEIGHT_FACTOR * 10) / 10);
  });

  it('offers the night hour to a rider with lights, flagged dark, outside any daylight', () => {
    const { window } = search(after(2, [{ speed: 35 }, ...after(7, [{ speed: 20 }])]), true);
    expect(window).toMatchObject({ start: T0 + 2 * HOUR_S, hours: 1, daylight: null });
    expect(window?.flags).toEqual(['dark']);
  });

  it('ends a run at a wet or gusty hour and carries the worst weather and the flags of the hours it keeps', () => {
    const { window } = search(
      after(10, [
        { speed: 20, rain: 0.2, temp: 3 },
        { speed: 24, gust: 40, temp: 4 },
        { speed: 22, rain: 2 },
        { speed: 30, gust: 60 },
      ]),
    );
    expect(window).toMatchObject({ start: T0 + 10 * HOUR_S, end: T0 + 12 * HOUR_S, hours: 2 });
    expect(window).toMatchObject({
      maxPrecipitationMm: 0.2,
      minTemperatureC: 3,
      maxTemperatureC: 4,
      maxGustsKmh: 40,
    });
    expect(window?.flags).toEqual(['gusty', 'cold']);
  });

  it.each([
    ['no_tailwind', after(10, [{ speed: 0 }])],
    ['dark', after(1, [{ speed: 30 }, ...after(20, [{ speed: 30 }])])],
    [
      'wet',
      after(10, [
        { speed: 30, rain: 1 },
        { speed: 30, chance: 90 },
      ]),
    ],
    ['gusty', after(10, [{ speed: 30, gust: 70 }])],
    [
      'wet_or_gusty',
      after(10, [
        { speed: 30, gust: 70 },
        { speed: 30, rain: 3 },
      ]),
    ],
  ] as const)('says %s when no hour qualifies', (status, hours) => {
    expect(search(hours)).toEqual({ window: null, status });
  });

  it('never holds a refused hour, whatever the weather (property)', () => {
    const hour = fc.record({
      speed: fc.double({ min: 0, max: 60, noNaN: true }),
      gust: fc.double({ min: 0, max: 90, noNaN: true }),
      rain: fc.double({ min: 0, max: 3, noNaN: true }),
      chance: fc.integer({ min: 0, max: 100 }),
      temp: fc.double({ min: -10, max: 40, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(hour, { minLength: 1, maxLength: 48 }), fc.boolean(), (hours, lights) => {
        const timeline = segmentTimeline(
          north,
          samples(hours.map((h) => ({ ...h, gust: Math.max(h.gust, h.speed) }))),
          DAY,
        );
        const { window, status } = bestRideableWindow(timeline, DAY, { includeDarkness: lights });
        if (!window) {
          expect(status).not.toBe('found');
          return;
        }
        const inside = timeline.filter((h) => h.time >= window.start && h.time < window.end);
        expect(inside).toHaveLength(window.hours);
        for (const h of inside) expect(refusalsOf(h, lights)).toEqual([]);
      }),
    );
  });
});

describe('weatherExtremes', () => {
  const figure = fc.option(fc.double({ min: -60, max: 300, noNaN: true }), { nil: null });
  const hour = fc.record({
    daylight: fc.boolean(),
    windGustsKmh: figure,
    temperatureC: figure,
    precipitationMm: figure,
    precipitationProbabilityPct: figure,
  });
  const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
  const most = (values: (number | null)[], pick: (a: number, b: number) => number) =>
    known(values).length === 0 ? null : known(values).reduce((a, b) => pick(a, b));

  it('gives the largest and smallest known figure of the hours, null where none is known', () => {
    fc.assert(
      fc.property(fc.array(hour, { maxLength: 30 }), (hours) => {
        expect(weatherExtremes(hours)).toEqual({
          maxPrecipitationMm: most(
            hours.map((h) => h.precipitationMm),
            Math.max,
          ),
          maxPrecipitationProbabilityPct: most(
            hours.map((h) => h.precipitationProbabilityPct),
            Math.max,
          ),
          minTemperatureC: most(
            hours.map((h) => h.temperatureC),
            Math.min,
          ),
          maxTemperatureC: most(
            hours.map((h) => h.temperatureC),
            Math.max,
          ),
          maxGustsKmh: most(
            hours.map((h) => h.windGustsKmh),
            Math.max,
          ),
        });
      }),
    );
  });

  it('reads a long ride without overflowing the stack', () => {
    const hours = Array.from({ length: 300_000 }, (_, i) => ({
      daylight: true,
      windGustsKmh: i % 97,
      temperatureC: 10 + (i % 13),
      precipitationMm: null,
      precipitationProbabilityPct: i % 50,
    }));
    expect(weatherExtremes(hours)).toMatchObject({
      maxGustsKmh: 96,
      minTemperatureC: 10,
      maxTemperatureC: 22,
    });
  });
});
