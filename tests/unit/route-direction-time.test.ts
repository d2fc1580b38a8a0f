import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POWER_PARAMS } from '../../src/core/power-model.ts';
import {
  directionTimes,
  steadyWindGainS,
  timeCostPolar,
  TIME_POLAR_STEP_DEG,
} from '../../src/core/route/route-direction-time.ts';
import { routeLegs } from '../../src/core/route/route-geometry.ts';
import type { RoutePoint } from '../../src/core/route/route-input.ts';
import { reverseRoute } from '../../src/core/route/route-loop.ts';
import { DEFAULT_ROUTE_SPEED_KMH, powerForFlatSpeed, rideTimeS } from '../../src/core/route/route-ride.ts';
import { legWindEffect } from '../../src/core/route/route-wind.ts';

const PARAMS = DEFAULT_POWER_PARAMS;
const POWER = powerForFlatSpeed(DEFAULT_ROUTE_SPEED_KMH, PARAMS);
const KM_LAT = 111.195;

/** A rectangle `eastKm` wide and `northKm` tall from (lat, lon), ridden anticlockwise (east first), a point every km. */
function rectangle(
  eastKm: number,
  northKm: number,
  lat = 45,
  lon = 6,
  ele?: (i: number) => number,
): RoutePoint[] {
  const kmLon = KM_LAT * Math.cos((lat * Math.PI) / 180);
  const corners = [
    [0, 0],
    [eastKm, 0],
    [eastKm, northKm],
    [0, northKm],
    [0, 0],
  ] as const;
  const points: RoutePoint[] = [];
  for (let c = 1; c < corners.length; c++) {
    const [x0, y0] = corners[c - 1] ?? [0, 0];
    const [x1, y1] = corners[c] ?? [0, 0];
    const steps = Math.round(Math.hypot(x1 - x0, y1 - y0));
    for (let s = c === 1 ? 0 : 1; s <= steps; s++) {
      const t = s / steps;
      points.push({ lat: lat + (y0 + (y1 - y0) * t) / KM_LAT, lon: lon + (x0 + (x1 - x0) * t) / kmLon });
    }
  }
  return ele ? points.map((p, i) => ({ ...p, ele: ele(i) })) : points;
}

const bothWays = (points: RoutePoint[]) => ({
  legs: routeLegs(points).legs,
  reversed: routeLegs(reverseRoute(points)).legs,
});

describe('steadyWindGainS', () => {
  it('is the still-air time minus the time with each leg’s along-track wind', () => {
    const { legs } = bothWays(rectangle(10, 3));
    const wind = { speedKmh: 20, directionDeg: 250 };
    const windy = rideTimeS(
      legs,
      POWER,
      legs.map((leg) => legWindEffect(leg, wind).tailwindKmh),
      PARAMS,
    );
    expect(steadyWindGainS(legs, wind, POWER, PARAMS)).toBeCloseTo(
      rideTimeS(legs, POWER, [], PARAMS) - windy,
      6,
    );
    expect(steadyWindGainS(legs, { speedKmh: 0, directionDeg: 0 }, POWER, PARAMS)).toBeCloseTo(0, 9);
  });

  it('costs a flat loop time from every direction and at every speed (property)', () => {
    const { legs } = bothWays(rectangle(12, 4));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 359 }),
        fc.double({ min: 3, max: 60, noNaN: true }),
        (deg, kmh) => {
          expect(steadyWindGainS(legs, { speedKmh: kmh, directionDeg: deg }, POWER, PARAMS)).toBeLessThan(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('directionTimes', () => {
  it('finds a flat loop the same both ways round: the same roads meet the same wind', () => {
    const { legs, reversed } = bothWays(rectangle(12, 4));
    const times = directionTimes(legs, reversed, { speedKmh: 25, directionDeg: 300 }, POWER, PARAMS);
    expect(times.asGivenGainedS).toBeLessThan(-30);
    // The north side is a few metres shorter (the longitude step is set at the south side): under a second.
    expect(Math.abs(times.reversedGainedS - times.asGivenGainedS)).toBeLessThan(1);
    expect(times.faster).toBe('same');
  });

  it('prefers the way round whose long headwind side is downhill, on a loop with a hill', () => {
    // East 10 km climbing 300 m, north 2 km, west 10 km flat at the top, down a steep 2 km south.
    // Reversed: up the steep side, east along the top, then 10 km down westwards.
    const points = rectangle(10, 2, 45, 6, (i) => (i <= 10 ? i * 30 : i <= 22 ? 300 : 300 - (i - 22) * 150));
    const { legs, reversed } = bothWays(points);
    // Gravity carries the rider through a west wind on the long descent: reversed wins by minutes.
    const west = directionTimes(legs, reversed, { speedKmh: 30, directionDeg: 270 }, POWER, PARAMS);
    expect(west.faster).toBe('reversed');
    expect(west.reversedGainedS).toBeGreaterThan(west.asGivenGainedS + 60);
    // An east wind: as given takes it head-on on the climb, where gravity is most of the effort;
    // reversed on the flat top, where the air is all there is against the rider.
    const east = directionTimes(legs, reversed, { speedKmh: 30, directionDeg: 90 }, POWER, PARAMS);
    expect(east.faster).toBe('as_given');
  });

  it('swaps its answer when the route is given the other way round (property)', () => {
    const points = rectangle(10, 2, 45, 6, (i) => (i <= 10 ? i * 20 : Math.max(0, 200 - (i - 12) * 20)));
    const { legs, reversed } = bothWays(points);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 359 }), fc.integer({ min: 0, max: 50 }), (deg, kmh) => {
        const wind = { speedKmh: kmh, directionDeg: deg };
        const forth = directionTimes(legs, reversed, wind, POWER, PARAMS);
        const back = directionTimes(reversed, legs, wind, POWER, PARAMS);
        expect(back.asGivenGainedS).toBeCloseTo(forth.reversedGainedS, 6);
        expect(back.reversedGainedS).toBeCloseTo(forth.asGivenGainedS, 6);
        const swapped = { as_given: 'reversed', reversed: 'as_given', same: 'same' } as const;
        expect(back.faster).toBe(swapped[forth.faster]);
      }),
      { numRuns: 40 },
    );
  });
});

describe('timeCostPolar', () => {
  it('gives 16 directions, each the steady-wind gain both ways, and is not flat for a long thin loop', () => {
    const { legs, reversed } = bothWays(rectangle(15, 1));
    const polar = timeCostPolar(legs, reversed, 20, POWER, PARAMS);
    expect(polar.map((entry) => entry.directionDeg)).toEqual(
      Array.from({ length: 16 }, (_, i) => i * TIME_POLAR_STEP_DEG),
    );
    for (const entry of polar) {
      const wind = { speedKmh: 20, directionDeg: entry.directionDeg };
      expect(entry.asGivenGainedS).toBeCloseTo(steadyWindGainS(legs, wind, POWER, PARAMS), 9);
      expect(entry.reversedGainedS).toBeCloseTo(steadyWindGainS(reversed, wind, POWER, PARAMS), 9);
    }
    // Along the long sides (from E or W) the loop loses far more than across them (from N or S).
    const at = (deg: number) => polar.find((entry) => entry.directionDeg === deg)?.asGivenGainedS ?? 0;
    expect(at(90)).toBeLessThan(at(0) - 20);
    expect(at(270)).toBeLessThan(at(180) - 20);
  });
});
