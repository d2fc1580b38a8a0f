import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POWER_PARAMS } from '../../src/core/power-model.ts';
import { routeLegs } from '../../src/core/route/route-geometry.ts';
import type { RoutePoint } from '../../src/core/route/route-input.ts';
import {
  pairDirections,
  reverseRoute,
  reversedLegSamples,
  routeShape,
} from '../../src/core/route/route-loop.ts';
import { powerForFlatSpeed, rideTimeS, routeSamples } from '../../src/core/route/route-ride.ts';
import {
  bestStarts,
  fastestFirst,
  judgeStarts,
  type StartJudgement,
} from '../../src/core/route/route-starts.ts';
import { rawSegmentWind } from '../../src/core/segment-wind.ts';
import { HOUR_S } from '../../src/core/tailwind-window.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';

const PARAMS = DEFAULT_POWER_PARAMS;
const POWER = powerForFlatSpeed(25, PARAMS);
/** 21 November 2026, 00:00 UTC. */
const DAY = Date.UTC(2026, 10, 21) / 1000;

/** A circle of `km` circumference round (lat, lon), a point every ~250 m, ridden clockwise from the north. */
function circle(km: number, lat = 45, lon = 6, ele?: (share: number) => number): RoutePoint[] {
  const radiusKm = km / (2 * Math.PI);
  const n = Math.max(12, Math.round(km * 4));
  return Array.from({ length: n + 1 }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return {
      lat: lat + (radiusKm * Math.cos(a)) / 111.195,
      lon: lon + (radiusKm * Math.sin(a)) / (111.195 * Math.cos((lat * Math.PI) / 180)),
      ...(ele && { ele: ele(i / n) }),
    };
  });
}

/** Out east for `km`, then back the same road. */
function outAndBack(km: number, lat = -34, lon = 18.4): RoutePoint[] {
  const out = Array.from({ length: km + 1 }, (_, i) => ({
    lat,
    lon: lon + i / (111.195 * Math.cos((lat * Math.PI) / 180)),
  }));
  return [...out, ...out.slice(0, -1).reverse()];
}

const north = (km: number): RoutePoint[] =>
  Array.from({ length: km + 1 }, (_, i) => ({ lat: 45 + i / 111.195, lon: 6 }));

describe('routeShape', () => {
  it('tells a loop, an out-and-back and a point-to-point ride apart', () => {
    expect(routeShape(circle(30)).shape).toBe('loop');
    expect(routeShape(outAndBack(20)).shape).toBe('out_and_back');
    expect(routeShape(north(30)).shape).toBe('point_to_point');
    // A 3 km climb whose top is 900 m from its foot is not a loop: the gap is over a fifth of it.
    const hairpins = [
      { lat: 45, lon: 6 },
      { lat: 45.009, lon: 6.005 },
      { lat: 45.0005, lon: 6.012 },
      { lat: 45.008, lon: 6.001 },
    ];
    expect(routeShape(hairpins).shape).toBe('point_to_point');
  });

  it('keeps a loop across the antimeridian a loop', () => {
    const fiji = circle(40, -16.8, 179.98).map((p) => ({ ...p, lon: ((p.lon + 540) % 360) - 180 }));
    expect(fiji.some((p) => p.lon < 0) && fiji.some((p) => p.lon > 0)).toBe(true);
    expect(routeShape(fiji).shape).toBe('loop');
  });
});

describe('reverseRoute', () => {
  it('is its own inverse, keeps the length and turns every climb into a descent (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            lat: fc.double({ min: -60, max: 60, noNaN: true }),
            lon: fc.double({ min: -180, max: 179.99, noNaN: true }),
            ele: fc.double({ min: 0, max: 3000, noNaN: true }),
          }),
          { minLength: 2, maxLength: 30 },
        ),
        (raw) => {
          const points = raw.map((p, i) => ({ ...p, lat: p.lat + i * 1e-3 }));
          expect(reverseRoute(reverseRoute(points))).toEqual(points);
          const there = routeLegs(points);
          const back = routeLegs(reverseRoute(points));
          expect(back.distanceM).toBeCloseTo(there.distanceM, 3);
          expect(back.legs.map((l) => -(l.gradePct ?? 0))).toEqual(
            there.legs
              .map((l) => l.gradePct ?? 0)
              .reverse()
              .map((g) => expect.closeTo(g, 6)),
          );
        },
      ),
    );
  });
});

describe('time gained', () => {
  it('a uniform wind on an out-and-back costs time: the headwind costs more than the tailwind gives (property)', () => {
    const { legs } = routeLegs(outAndBack(15));
    fc.assert(
      fc.property(
        fc.double({ min: 3, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 359.9, noNaN: true }),
        fc.integer({ min: 60, max: 400 }),
        (speedKmh, directionDeg, powerW) => {
          const tailwinds = legs.map(
            (leg) =>
              rawSegmentWind([{ bearingDeg: leg.bearingDeg, weight: 1 }], speedKmh, directionDeg).alongKmh,
          );
          const still = rideTimeS(
            legs,
            powerW,
            legs.map(() => 0),
            PARAMS,
          );
          const windy = rideTimeS(legs, powerW, tailwinds, PARAMS);
          // A wind straight across the road has no along-track part: it neither costs nor gives.
          if (Math.max(...tailwinds.map(Math.abs)) < 0.1) expect(windy).toBeCloseTo(still, 0);
          else expect(windy).toBeGreaterThan(still);
        },
      ),
    );
  });

  it('ranks starts by time gained, strongest first, the earlier start on a tie (property)', () => {
    const judgement = fc.record({
      startS: fc.integer({ min: 0, max: 71 }).map((h) => DAY + h * HOUR_S),
      timeGainedS: fc.double({ min: -900, max: 900, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(judgement, { selector: (j) => j.startS, maxLength: 40 }), (raw) => {
        const judged: StartJudgement[] = raw.map((j) => ({
          ...j,
          stillAirS: 5400.4,
          tailwindKmh: 0,
          refusals: [],
          flags: [],
          winds: [],
          maxGustsKmh: null,
          maxPrecipitationMm: null,
          maxPrecipitationProbabilityPct: null,
          minTemperatureC: null,
          maxTemperatureC: null,
        }));
        const { chosen } = bestStarts(judged, 5);
        const shown = chosen.map((c) => Math.round(c.timeGainedS));
        expect(shown).toEqual([...shown].sort((a, b) => b - a));
        for (let i = 1; i < chosen.length; i++) {
          const [a, b] = [chosen[i - 1], chosen[i]];
          if (a && b && Math.round(a.timeGainedS) === Math.round(b.timeGainedS))
            expect(a.startS).toBeLessThan(b.startS);
        }
        // Nothing left out gains more than the last chosen, unless it is within 2 h of a chosen start.
        const last = chosen.at(-1);
        if (chosen.length > 0 && chosen.length < 5 && last)
          for (const j of judged)
            if (!chosen.includes(j) && fastestFirst(j, last) < 0)
              expect(chosen.some((c) => Math.abs(c.startS - j.startS) < 2 * HOUR_S)).toBe(true);
      }),
    );
  });
});

/** 72 hours of one wind everywhere. */
function steady(samples: number, speedKmh: number, directionDeg: number): WindHour[][] {
  const hours = Array.from({ length: 72 }, (_, h) => ({
    time: DAY + h * HOUR_S,
    speedKmh,
    directionDeg,
    gustsKmh: null,
    temperatureC: 12,
    precipitationMm: 0,
    precipitationProbabilityPct: 0,
  }));
  return Array.from({ length: samples }, () => hours);
}

describe('both directions of a loop', () => {
  it('keeps, per start, the faster way round, judged in the same forecast samples', () => {
    // A 40 km loop climbing steadily for its first quarter (heading east, then south) and descending
    // the rest; a stiff wind from the east costs most on the slow climb when ridden as given.
    const points = circle(40, 45, 6, (s) => (s < 0.25 ? 800 * (s / 0.25) : 800 * (1 - (s - 0.25) / 0.75)));
    const { legs } = routeLegs(points);
    const samples = routeSamples(points, legs);
    const base = {
      samplePoints: samples.points,
      forecast: steady(samples.points.length, 30, 90),
      powerW: POWER,
      params: PARAMS,
      fromS: DAY + 9 * HOUR_S,
      untilS: DAY + 11 * HOUR_S,
      includeDarkness: true,
    };
    const asGiven = judgeStarts({ ...base, legs, legSample: samples.legSample }).judged;
    const backLegs = routeLegs(reverseRoute(points)).legs;
    const distanceKm = routeLegs(points).distanceM / 1000;
    const backSamples = reversedLegSamples(
      backLegs,
      distanceKm,
      samples.spacingKm,
      samples.points.length - 1,
    );
    const reversed = judgeStarts({ ...base, legs: backLegs, legSample: backSamples }).judged;
    const paired = pairDirections(asGiven, reversed);
    expect(paired.length).toBe(asGiven.length);
    for (const p of paired) {
      const a = asGiven.find((j) => j.startS === p.startS);
      const b = reversed.find((j) => j.startS === p.startS);
      if (a === undefined || b === undefined) throw new Error('a start judged one way only');
      const rideA = a.stillAirS - a.timeGainedS;
      const rideB = b.stillAirS - b.timeGainedS;
      expect(p.reversed).toBe(Math.round(rideB) < Math.round(rideA));
      expect(p.other?.startS).toBe(p.startS);
      // Both ways lose time in a steady wind round a loop.
      expect(a.timeGainedS).toBeLessThan(0);
      expect(b.timeGainedS).toBeLessThan(0);
    }
    // The samples of the reversed ride are the forward ones counted from the other end.
    expect(backSamples[0]).toBe(samples.points.length - 1);
    expect(backSamples.at(-1)).toBe(0);
  });
});
