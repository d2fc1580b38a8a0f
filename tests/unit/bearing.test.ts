import fc from 'fast-check';
import geodesic from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { initialBearing, isSamePoint } from '../../src/core/bearing.ts';

/** An independent oracle: GeographicLib's geodesic on a sphere (flattening 0). */
const sphere = new geodesic.Geodesic.Geodesic(6_371_008.8, 0);

const point = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lon: fc.double({ min: -180, max: 180, noNaN: true }),
});

function angularGap(a: number, b: number): number {
  const gap = Math.abs(a - b) % 360;
  return Math.min(gap, 360 - gap);
}

describe('initialBearing', () => {
  it('agrees with GeographicLib on a sphere for thousands of random pairs', () => {
    fc.assert(
      fc.property(point, point, (start, end) => {
        const line = sphere.Inverse(start.lat, start.lon, end.lat, end.lon);
        // Coincident and (near-)antipodal pairs have no single initial bearing.
        fc.pre(!isSamePoint(start, end) && (line.a12 ?? 0) > 1e-6 && (line.a12 ?? 180) < 179.9);
        const ours = initialBearing(start, end);
        expect(ours).toBeGreaterThanOrEqual(0);
        expect(ours).toBeLessThan(360);
        expect(angularGap(ours, line.azi1 ?? Number.NaN)).toBeLessThanOrEqual(0.005 + 1e-6);
      }),
      { numRuns: 5000 },
    );
  });

  it('answers the cardinal directions exactly', () => {
    expect(initialBearing({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBe(0);
    expect(initialBearing({ lat: 0, lon: 0 }, { lat: 0, lon: 1 })).toBe(90);
    expect(initialBearing({ lat: 1, lon: 0 }, { lat: 0, lon: 0 })).toBe(180);
    expect(initialBearing({ lat: 0, lon: 1 }, { lat: 0, lon: 0 })).toBe(270);
  });

  it('reports a bearing that rounds up to 360.00 as 0', () => {
    expect(initialBearing({ lat: 0, lon: 0 }, { lat: 10, lon: -1e-7 })).toBe(0);
  });

  it('crosses the antimeridian the short way', () => {
    expect(initialBearing({ lat: 0, lon: 179.5 }, { lat: 0, lon: -179.5 })).toBe(90);
  });
});

describe('isSamePoint', () => {
  it('knows the forms of one place', () => {
    expect(isSamePoint({ lat: 45, lon: 6 }, { lat: 45, lon: 6 })).toBe(true);
    expect(isSamePoint({ lat: 10, lon: 180 }, { lat: 10, lon: -180 })).toBe(true);
    expect(isSamePoint({ lat: 90, lon: 0 }, { lat: 90, lon: 123 })).toBe(true);
    expect(isSamePoint({ lat: 45, lon: 6 }, { lat: 45, lon: 6.000001 })).toBe(false);
    expect(isSamePoint({ lat: 90, lon: 0 }, { lat: -90, lon: 0 })).toBe(false);
  });
});
