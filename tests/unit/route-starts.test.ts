import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POWER_PARAMS } from '../../src/core/power-model.ts';
import { routeLegs } from '../../src/core/route/route-geometry.ts';
import type { RoutePoint } from '../../src/core/route/route-input.ts';
import {
  MAX_ROUTE_SAMPLES,
  powerForFlatSpeed,
  ROUTE_SAMPLE_SPACING_KM,
  routeSamples,
  stillAirSchedule,
} from '../../src/core/route/route-ride.ts';
import { bestStarts, judgeStarts, reportStart, type StartSearch } from '../../src/core/route/route-starts.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { HOUR_S } from '../../src/core/tailwind-window.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';

/** 21 November 2026, 00:00 UTC. */
const DAY = Date.UTC(2026, 10, 21) / 1000;
const PARAMS = DEFAULT_POWER_PARAMS;

/** A straight ride north along a meridian, `km` long, a point every kilometre. */
function northRoute(km: number, lat = 45, lon = 6): RoutePoint[] {
  return Array.from({ length: km + 1 }, (_, i) => ({ lat: lat + i / 111.195, lon }));
}

/** 72 hours of one wind at every sample, with weather from `at` (hour index → overrides). */
function steadyForecast(
  samples: number,
  wind: { speedKmh: number; directionDeg: number },
  at: (hour: number) => Partial<WindHour> = () => ({}),
): WindHour[][] {
  const hours = Array.from({ length: 72 }, (_, h) => ({
    time: DAY + h * HOUR_S,
    speedKmh: wind.speedKmh,
    directionDeg: wind.directionDeg,
    gustsKmh: null,
    temperatureC: 12,
    precipitationMm: 0,
    precipitationProbabilityPct: 0,
    ...at(h),
  }));
  return Array.from({ length: samples }, () => hours);
}

function search(
  points: RoutePoint[],
  forecast: (n: number) => WindHour[][],
  overrides: Partial<StartSearch> = {},
) {
  const { legs } = routeLegs(points);
  const samples = routeSamples(points, legs);
  return {
    legs,
    legSample: samples.legSample,
    samplePoints: samples.points,
    forecast: forecast(samples.points.length),
    powerW: powerForFlatSpeed(25, PARAMS),
    params: PARAMS,
    fromS: DAY,
    untilS: DAY + 48 * HOUR_S,
    includeDarkness: false,
    ...overrides,
  } satisfies StartSearch;
}

describe('routeSamples', () => {
  it('samples every 5 km and the end, each leg in the sample nearest its middle', () => {
    const points = northRoute(23);
    const { legs } = routeLegs(points);
    const samples = routeSamples(points, legs);
    expect(samples.spacingKm).toBe(ROUTE_SAMPLE_SPACING_KM);
    expect(samples.points).toHaveLength(6);
    samples.points.forEach((p, i) => {
      const km = greatCircleM(points[0] ?? p, p) / 1000;
      expect(km).toBeCloseTo(samples.atKm[i] ?? NaN, 3);
    });
    // Leg middles at 0.5, 1.5, 2.5 … km; a middle half-way between two samples goes to the later one.
    expect(samples.legSample.slice(0, 8)).toEqual([0, 0, 1, 1, 1, 1, 1, 2]);
  });

  it('widens the spacing past 60 samples, and keeps a route across the antimeridian there', () => {
    const long = northRoute(600, -40);
    const samples = routeSamples(long, routeLegs(long).legs);
    expect(samples.points.length).toBeLessThanOrEqual(MAX_ROUTE_SAMPLES);
    const east = Array.from({ length: 21 }, (_, i) => ({
      lat: -16.8,
      lon: ((179.95 + i * 0.01 + 540) % 360) - 180,
    }));
    const across = routeSamples(east, routeLegs(east).legs);
    // From 179.95° E to 179.85° W: never back across the globe.
    for (const p of across.points) expect(Math.abs(p.lon)).toBeGreaterThan(179.84);
  });

  it('places every leg in a sample (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (km) => {
        const points = northRoute(km);
        const { legs } = routeLegs(points);
        const samples = routeSamples(points, legs);
        expect(samples.legSample).toHaveLength(legs.length);
        for (const s of samples.legSample) expect(s).toBeLessThan(samples.points.length);
        expect(samples.points.length).toBeLessThanOrEqual(MAX_ROUTE_SAMPLES);
      }),
    );
  });
});

describe('judgeStarts and bestStarts', () => {
  it('refuses starts whose ride runs into darkness, and offers them with lights', () => {
    // 60 km at 25 km/h takes about 2 h 25 min; at 45° N on 21 November civil dusk is near 17:00 UTC.
    const s = search(northRoute(60), (n) => steadyForecast(n, { speedKmh: 20, directionDeg: 180 }));
    const { judged } = judgeStarts(s);
    const byHour = new Map(judged.map((j) => [(j.startS - DAY) / HOUR_S, j]));
    expect(byHour.get(10)?.refusals).toEqual([]);
    expect(byHour.get(15)?.refusals).toEqual(['dark']);
    expect(byHour.get(2)?.refusals).toEqual(['dark']);
    const lights = judgeStarts({ ...s, includeDarkness: true }).judged;
    expect(lights.find((j) => j.startS === DAY + 15 * HOUR_S)?.flags).toContain('dark');
    expect(lights.every((j) => j.refusals.length === 0)).toBe(true);
  });

  it('picks the strongest tailwind, at least 2 h apart, and says why when nothing is rideable', () => {
    // Wind from the south (a tailwind going north) strengthening to hour 12, then easing.
    const s = search(northRoute(30), (n) =>
      steadyForecast(n, { speedKmh: 0, directionDeg: 180 }, (h) => ({
        speedKmh: Math.max(0, 30 - 3 * Math.abs(h - 12)),
      })),
    );
    const { chosen, status } = bestStarts(judgeStarts(s).judged);
    expect(status).toBe('found');
    expect(chosen.length).toBe(3);
    // The 72-minute ride from 12:00 spends most of its time in the peak hour.
    expect((chosen[0]?.startS ?? 0) - DAY).toBe(12 * HOUR_S);
    for (const a of chosen)
      for (const b of chosen)
        if (a !== b) expect(Math.abs(a.startS - b.startS)).toBeGreaterThanOrEqual(2 * HOUR_S);
    const wet = search(northRoute(30), (n) =>
      steadyForecast(n, { speedKmh: 10, directionDeg: 0 }, () => ({ precipitationMm: 2 })),
    );
    expect(bestStarts(judgeStarts(wet).judged)).toEqual({ chosen: [], status: 'wet' });
    const late = search(northRoute(30), (n) => steadyForecast(n, { speedKmh: 10, directionDeg: 0 }), {
      fromS: DAY + 71 * HOUR_S,
      untilS: DAY + 72 * HOUR_S,
    });
    expect(bestStarts(judgeStarts(late).judged)).toEqual({ chosen: [], status: 'beyond_forecast' });
  });

  it('uses the forecast hour the rider is in at each place', () => {
    // Tailwind until 11:00, headwind after: a 10:00 start rides its second hour into the headwind.
    const points = northRoute(50);
    const s = search(points, (n) =>
      steadyForecast(n, { speedKmh: 20, directionDeg: 180 }, (h) => (h >= 11 ? { directionDeg: 0 } : {})),
    );
    const at10 = judgeStarts(s).judged.find((j) => j.startS === DAY + 10 * HOUR_S);
    const schedule = stillAirSchedule(s.legs, s.powerW, PARAMS);
    const inFirstHour = schedule.midS.filter((t) => t < HOUR_S).length / s.legs.length;
    expect(at10?.tailwindKmh).toBeCloseTo(20 * inFirstHour - 20 * (1 - inFirstHour), 6);
  });

  it('gains time in a tailwind and loses it in a headwind against still air', () => {
    for (const [directionDeg, sign] of [
      [180, 1],
      [0, -1],
    ] as const) {
      const s = search(northRoute(40), (n) => steadyForecast(n, { speedKmh: 25, directionDeg }));
      const start = judgeStarts(s).judged.find((j) => j.startS === DAY + 10 * HOUR_S);
      if (start === undefined) throw new Error('no 10:00 start');
      const report = reportStart(start, s.legs, s.powerW, PARAMS);
      expect(Math.sign(report.stillAirS - report.windyS)).toBe(sign);
      // 25 km/h on the flat in still air: 40 km in 96 min.
      expect(report.stillAirS / 60).toBeCloseTo(96, 0);
    }
  });
});
