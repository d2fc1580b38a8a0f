import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialBearing, isSamePoint, type LatLon } from '../../src/core/bearing.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { polylineLegs, rawSegmentWind, segmentWind } from '../../src/core/segment-wind.ts';
import { windComponents } from '../../src/core/wind.ts';

const speed = fc.double({ min: 0, max: 300, noNaN: true });
const angle = fc.double({ min: 0, max: 360, noNaN: true });
const point = fc.record({
  lat: fc.double({ min: -80, max: 80, noNaN: true }),
  lon: fc.double({ min: -179, max: 179, noNaN: true }),
});

describe('segment wind over a polyline', () => {
  it('gives exactly the REST result for a straight two-point segment', () => {
    fc.assert(
      fc.property(point, point, speed, angle, (start, end, speedKmh, directionDeg) => {
        fc.pre(!isSamePoint(start, end));
        const bearingDeg = initialBearing(start, end);
        expect(segmentWind(polylineLegs([start, end]), speedKmh, directionDeg)).toEqual(
          windComponents({ speedKmh, directionDeg, bearingDeg }),
        );
      }),
    );
  });

  it('weights legs by length: 3 km north then 1 km south is half the wind along', () => {
    const a = { lat: 45, lon: 6 };
    const b = { lat: 45 + 3 / 111.195, lon: 6 };
    const c = { lat: 45 + 2 / 111.195, lon: 6 };
    const legs = polylineLegs([a, b, c]);
    expect(legs.map((l) => l.bearingDeg)).toEqual([0, 180]);
    expect(legs[0]?.weight).toBeCloseTo(0.75, 6);
    // A 20 km/h wind from the south pushes on 3 km and holds back on 1 km: mean +10.
    expect(segmentWind(legs, 20, 180)).toEqual({ signedKmh: 10, crosswindKmh: 0, effect: 'tailwind' });
  });

  it('a loop ridden back to the start cancels a steady wind', () => {
    const square: LatLon[] = [
      { lat: 0, lon: 0 },
      { lat: 0.01, lon: 0 },
      { lat: 0.01, lon: 0.01 },
      { lat: 0, lon: 0.01 },
      { lat: 0, lon: 0 },
    ];
    const wind = segmentWind(polylineLegs(square), 30, 225);
    expect(Math.abs(wind.signedKmh)).toBeLessThanOrEqual(0.1);
    expect(wind.effect).toBe('crosswind');
    expect(wind.crosswindKmh).toBeCloseTo(30 * Math.SQRT1_2, 1);
  });

  it('skips repeated points and keeps weights summing to one', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 12 }), (points) => {
        const legs = polylineLegs([...points, points.at(-1) as LatLon]);
        fc.pre(legs.length > 0);
        expect(legs.reduce((s, l) => s + l.weight, 0)).toBeCloseTo(1, 9);
        expect(legs.every((l) => l.weight > 0)).toBe(true);
      }),
    );
  });

  it('never reports more along-track wind than the wind itself', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 8 }), speed, angle, (points, speedKmh, dir) => {
        const legs = polylineLegs(points);
        fc.pre(legs.length > 0);
        const { alongKmh, crossKmh } = rawSegmentWind(legs, speedKmh, dir);
        expect(Math.abs(alongKmh)).toBeLessThanOrEqual(speedKmh + 1e-9);
        expect(crossKmh).toBeLessThanOrEqual(speedKmh + 1e-9);
      }),
    );
  });

  it('measures a degree of latitude as about 111.2 km', () => {
    expect(greatCircleM({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195, -1);
    expect(greatCircleM({ lat: 45, lon: 6 }, { lat: 45, lon: 6 })).toBe(0);
  });
});
