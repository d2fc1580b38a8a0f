import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGeoJsonLine } from '../../src/core/route/geojson-line.ts';
import { parseGpx } from '../../src/core/route/gpx.ts';
import { routeLegs, type RouteLeg } from '../../src/core/route/route-geometry.ts';
import { simplifyRoute } from '../../src/core/route/route-simplify.ts';
import {
  prepareRoute,
  ROUTE_WIND_PROMISE_KMH,
  ROUTE_WIND_PROMISE_UP_TO_KMH,
} from '../../src/core/route/route-prepare.ts';
import type { RoutePoint } from '../../src/core/route/route-input.ts';
import { routeWind, tailwindPolar, type LegWind } from '../../src/core/route/route-wind.ts';
import { roundHalfAway } from '../../src/core/round.ts';
import { windComponents } from '../../src/core/wind.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/routes/', import.meta.url));
const fixture = (name: string): string => readFileSync(`${FIXTURES}${name}`, 'utf8');
const FIXTURE_ROUTES: Record<string, readonly RoutePoint[]> = {
  switchbacks: parseGpx(fixture('switchbacks.gpx')).points,
  loop: parseGpx(fixture('loop.gpx')).points,
  'out-and-back': parseGeoJsonLine(fixture('out-and-back.geojson')).points,
  antimeridian: parseGpx(fixture('antimeridian.gpx')).points,
  southern: parseGeoJsonLine(fixture('southern.geojson')).points,
};

const wind = fc.record({
  speedKmh: fc.double({ min: 0, max: 80, noNaN: true }),
  directionDeg: fc.double({ min: 0, max: 359.99, noNaN: true }),
});

/** A leg as routeLegs makes it, for hand-built cases. */
const leg = (fromKm: number, lengthM: number, bearingDeg: number): RouteLeg => ({
  fromKm,
  lengthM,
  bearingDeg,
  gradePct: null,
  mid: { lat: 0, lon: 0 },
});

/**
 * A smooth ride as a bike computer records it, 1 to 12 km long: a point
 * every 10–30 m, the heading turning gently (up to 8° per point) with a
 * hairpin every 40 points or so.
 */
const smoothTrack = fc
  .record({
    lat: fc.double({ min: -60, max: 60, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
    heading: fc.double({ min: 0, max: 360, noNaN: true }),
    steps: fc.array(
      fc.record({
        metres: fc.double({ min: 10, max: 30, noNaN: true }),
        turn: fc.double({ min: -8, max: 8, noNaN: true }),
        hairpin: fc.integer({ min: 0, max: 39 }).map((n) => n === 0),
      }),
      { minLength: 100, maxLength: 400 },
    ),
  })
  .map(({ lat, lon, heading, steps }) => {
    const points: RoutePoint[] = [{ lat, lon }];
    let h = heading;
    let here = { lat, lon };
    for (const step of steps) {
      h += step.hairpin ? 150 : step.turn;
      const rad = (h * Math.PI) / 180;
      const dLat = (step.metres * Math.cos(rad)) / 111_195;
      const dLon = (step.metres * Math.sin(rad)) / (111_195 * Math.cos((here.lat * Math.PI) / 180));
      here = { lat: here.lat + dLat, lon: ((here.lon + dLon + 540) % 360) - 180 };
      points.push(here);
    }
    return points;
  });

describe('routeLegs', () => {
  it('measures a route across the antimeridian in metres, with midpoints on the short side', () => {
    const { legs, distanceM } = routeLegs([
      { lat: -16.8, lon: 179.9999 },
      { lat: -16.8, lon: -179.9999 },
    ]);
    expect(distanceM).toBeGreaterThan(20);
    expect(distanceM).toBeLessThan(22);
    expect(legs[0]?.bearingDeg).toBeCloseTo(90, 1);
    expect(Math.abs(legs[0]?.mid.lon ?? 0)).toBeGreaterThan(179.999);
  });

  it('gives grades only where both ends have an elevation, and smoothed climbing', () => {
    const { legs, climbingM } = routeLegs([
      { lat: 0, lon: 0, ele: 100 },
      { lat: 0.001, lon: 0, ele: 105 },
      { lat: 0.002, lon: 0 },
      { lat: 0.003, lon: 0, ele: 111 },
      { lat: 0.004, lon: 0, ele: 112 },
    ]);
    expect(legs.map((l) => (l.gradePct === null ? null : Math.round(l.gradePct * 10) / 10))).toEqual([
      4.5,
      null,
      null,
      0.9,
    ]);
    expect(climbingM).toBe(11);
    expect(legs.map((l) => Math.round(l.fromKm * 1000))).toEqual([0, 111, 222, 334]);
  });

  it.each(Object.keys(FIXTURE_ROUTES))('sums its legs to the route length (%s)', (name) => {
    const { legs, distanceM } = routeLegs(FIXTURE_ROUTES[name] ?? []);
    const last = legs.at(-1);
    expect(last === undefined ? 0 : last.fromKm * 1000 + last.lengthM).toBeCloseTo(distanceM, 3);
    expect(legs.every((l) => l.lengthM > 0 && l.lengthM < 100)).toBe(true);
  });
});

describe('routeWind', () => {
  it('answers a straight route exactly as the single-bearing formula (property)', () => {
    fc.assert(
      fc.property(
        wind,
        fc.integer({ min: 2, max: 30 }),
        fc.boolean(),
        ({ speedKmh, directionDeg }, n, north) => {
          // Along a meridian every leg has the same bearing, however many points.
          const points = Array.from({ length: n }, (_, i) => ({ lat: north ? i / 100 : -i / 100, lon: 7 }));
          const { legs } = routeLegs(points);
          const bearingDeg = north ? 0 : 180;
          const expected = windComponents({ speedKmh, directionDeg, bearingDeg });
          const result = routeWind(legs, { speedKmh, directionDeg });
          expect(roundHalfAway(result.tailwindKmh, 1)).toBe(expected.signedKmh);
          expect(roundHalfAway(result.crosswindKmh, 1)).toBe(expected.crosswindKmh);
          expect(result.headwindShare).toBe(expected.effect === 'headwind' ? 1 : 0);
        },
      ),
    );
  });

  it('gives the same answer for one wind as for that wind on every leg', () => {
    const { legs } = routeLegs(FIXTURE_ROUTES['switchbacks'] ?? []);
    const one: LegWind = { speedKmh: 23, directionDeg: 200 };
    expect(routeWind(legs, one)).toEqual(
      routeWind(
        legs,
        legs.map(() => one),
      ),
    );
    expect(() => routeWind(legs, [one])).toThrow(/one wind per leg/);
  });

  it('bins the wind per kilometre, length-weighted, and finds the costliest headwind stretch', () => {
    // 1.5 km north, then 2 km south, in a north wind: tailwind first, then headwind.
    const legs = [leg(0, 1500, 0), leg(1.5, 2000, 180)];
    const result = routeWind(legs, { speedKmh: 20, directionDeg: 0 });
    expect(result.tailwindKmh).toBeCloseTo((1.5 * -20 + 2 * 20) / 3.5, 9);
    expect(result.headwindShare).toBeCloseTo(1.5 / 3.5, 9);
    expect(result.perKm.map((k) => [k.fromKm, k.toKm, Math.round(k.tailwindKmh)])).toEqual([
      [0, 1, -20],
      [1, 2, 0],
      [2, 3, 20],
      [3, 3.5, 20],
    ]);
    expect(result.strongestHeadwind).toEqual({ fromKm: 0, toKm: 1.5, headwindKmh: 20 });
  });

  it('ranks headwind stretches by what they cost, not by a short gust', () => {
    const legs = [leg(0, 50, 0), leg(0.05, 1000, 200), leg(1.05, 3000, 45)];
    // A wind from 20°: the 50 m north leg takes it almost head on, the 3 km north-east leg at 25°,
    // with a tailwind leg between them.
    const result = routeWind(legs, { speedKmh: 30, directionDeg: 20 });
    expect(result.strongestHeadwind?.fromKm).toBeCloseTo(1.05, 9);
    expect(result.strongestHeadwind?.headwindKmh).toBeCloseTo(30 * Math.cos((25 * Math.PI) / 180), 6);
    expect(routeWind(legs, { speedKmh: 0, directionDeg: 0 }).strongestHeadwind).toBeNull();
  });

  it('keeps the per-km chart consistent with the whole-route figure (property)', () => {
    fc.assert(
      fc.property(smoothTrack, wind, (points, w) => {
        const { legs, distanceM } = routeLegs(points);
        const result = routeWind(legs, w);
        const weighted = result.perKm.reduce((sum, k) => sum + (k.toKm - k.fromKm) * k.tailwindKmh, 0);
        expect(weighted / (distanceM / 1000)).toBeCloseTo(result.tailwindKmh, 6);
        expect(result.perKm).toHaveLength(Math.ceil(distanceM / 1000));
      }),
    );
  });
});

describe('tailwindPolar', () => {
  it('is about zero in every direction for an out-and-back (property)', () => {
    fc.assert(
      fc.property(smoothTrack, fc.double({ min: 1, max: 60, noNaN: true }), (out, speedKmh) => {
        const { legs } = routeLegs([...out, ...out.slice(0, -1).reverse()]);
        for (const entry of tailwindPolar(legs, speedKmh))
          expect(Math.abs(entry.tailwindKmh)).toBeLessThan(0.05);
      }),
    );
    const { legs } = routeLegs(FIXTURE_ROUTES['out-and-back'] ?? []);
    const polar = tailwindPolar(legs, 30, 15);
    expect(polar).toHaveLength(24);
    expect(Math.max(...polar.map((p) => Math.abs(p.tailwindKmh)))).toBeLessThan(0.05);
  });

  it('matches routeWind for each direction and favours the wind from behind a straight route', () => {
    const { legs } = routeLegs(FIXTURE_ROUTES['southern'] ?? []);
    for (const entry of tailwindPolar(legs, 25, 30))
      expect(entry.tailwindKmh).toBeCloseTo(
        routeWind(legs, { speedKmh: 25, directionDeg: entry.directionDeg }).tailwindKmh,
        9,
      );
    const north = tailwindPolar(
      routeLegs([
        { lat: 0, lon: 0 },
        { lat: 1, lon: 0 },
      ]).legs,
      10,
    );
    const best = north.reduce((a, b) => (b.tailwindKmh > a.tailwindKmh ? b : a));
    expect(best).toEqual({ directionDeg: 180, tailwindKmh: 10 });
    expect(() => tailwindPolar([], 10, 0)).toThrow(RangeError);
  });
});

describe('simplifyRoute', () => {
  it.each(Object.keys(FIXTURE_ROUTES))('keeps the wind within 0.5 km/h of the full track (%s)', (name) => {
    const points = FIXTURE_ROUTES[name] ?? [];
    const simplified = simplifyRoute(points);
    expect(simplified.length).toBeLessThan(points.length);
    expect(simplified[0]).toBe(points[0]);
    expect(simplified.at(-1)).toBe(points.at(-1));
    const full = routeLegs(points).legs;
    const fewer = routeLegs(simplified).legs;
    for (let directionDeg = 0; directionDeg < 360; directionDeg += 15) {
      const w = { speedKmh: 60, directionDeg };
      expect(Math.abs(routeWind(full, w).tailwindKmh - routeWind(fewer, w).tailwindKmh)).toBeLessThan(0.5);
    }
  });

  it('keeps the weighted wind within 0.5 km/h of the full track on any smooth ride, for winds up to 120 km/h (property)', () => {
    const storm = fc.record({
      speedKmh: fc.double({ min: 0, max: ROUTE_WIND_PROMISE_UP_TO_KMH, noNaN: true }),
      directionDeg: fc.double({ min: 0, max: 359.99, noNaN: true }),
    });
    fc.assert(
      fc.property(smoothTrack, storm, (points, w) => {
        const prepared = prepareRoute({ points, elevationCoverage: 0, duplicatesDropped: 0 });
        const full = routeWind(prepared.full.legs, w).tailwindKmh;
        const simplified = routeWind(prepared.simplified.legs, w).tailwindKmh;
        expect(Math.abs(full - simplified)).toBeLessThanOrEqual(ROUTE_WIND_PROMISE_KMH);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the wind of the ride an npm test run found 0.57 km/h off at 80 km/h with the 10 m tolerance alone', () => {
    // fast-check's failing case (seed −1152751394, run 47): 119 points, 2.2 km near 60° S, zigzags that
    // the 10 m tolerance cut by 1.3 % of the length. Replayed from its seed, not copied out.
    const [points, w] = fc.sample(fc.tuple(smoothTrack, wind), { numRuns: 47, seed: -1152751394 })[46] ?? [
      [],
      { speedKmh: 0, directionDeg: 0 },
    ];
    const fullWind = routeWind(routeLegs(points).legs, w).tailwindKmh;
    const tenMetres = routeWind(routeLegs(simplifyRoute(points)).legs, w).tailwindKmh;
    expect(Math.abs(fullWind - tenMetres)).toBeGreaterThan(ROUTE_WIND_PROMISE_KMH);
    const prepared = prepareRoute({ points, elevationCoverage: 0, duplicatesDropped: 0 });
    expect(Math.abs(fullWind - routeWind(prepared.simplified.legs, w).tailwindKmh)).toBeLessThanOrEqual(
      ROUTE_WIND_PROMISE_KMH,
    );
    expect(prepared.points.length).toBeLessThan(points.length);
  });

  it('keeps a route across the antimeridian in one piece', () => {
    const points = FIXTURE_ROUTES['antimeridian'] ?? [];
    const simplified = simplifyRoute(points, 5);
    expect(routeLegs(simplified).distanceM).toBeGreaterThan(routeLegs(points).distanceM * 0.98);
    expect(routeLegs(simplified).distanceM).toBeLessThanOrEqual(routeLegs(points).distanceM);
  });
});
