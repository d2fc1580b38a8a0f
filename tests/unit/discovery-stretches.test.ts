import fc from 'fast-check';
import geodesic from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { initialBearing, type LatLon } from '../../src/core/bearing.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { MAX_STRETCH_M, MIN_STRETCH_M, splitByDirection } from '../../src/core/discovery/stretches.ts';

/** Roads are drawn with GraphicLib's geodesic on the project's sphere, independent of the code under test. */
const sphere = new geodesic.Geodesic.Geodesic(6_371_008.8, 0);

/** A leg of road: the direction it sets out in, degrees, and its length, metres. */
type Leg = readonly [bearingDeg: number, lengthM: number];

/** A road from `start` along great-circle legs, with a node every `spacingM` and at each corner. */
function road(start: LatLon, legs: readonly Leg[], spacingM: number): LatLon[] {
  const points: LatLon[] = [start];
  let from = start;
  for (const [bearing, length] of legs) {
    const steps = Math.max(1, Math.ceil(length / spacingM));
    let end = from;
    for (let k = 1; k <= steps; k++) {
      const r = sphere.Direct(from.lat, from.lon, bearing, (length * k) / steps);
      end = { lat: r.lat2 ?? Number.NaN, lon: r.lon2 ?? Number.NaN };
      points.push(end);
    }
    from = end;
  }
  return points;
}

function gap(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
}

/** Start points everywhere a road can be, weighted towards the awkward places: the antimeridian and the south. */
const start = fc.oneof(
  fc.record({
    lat: fc.double({ min: -70, max: 70, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
  }),
  fc.record({
    lat: fc.double({ min: -60, max: 60, noNaN: true }),
    lon: fc.double({ min: 179.8, max: 180, noNaN: true }),
  }),
  fc.record({
    lat: fc.double({ min: -55, max: -30, noNaN: true }),
    lon: fc.double({ min: -180, max: -179.8, noNaN: true }),
  }),
);
const bearing = fc.double({ min: 0, max: 359.99, noNaN: true });
const spacing = fc.integer({ min: 20, max: 200 });

describe('splitByDirection on constructed roads', () => {
  it('gives a straight road as one stretch, its bearing the road’s', () => {
    fc.assert(
      fc.property(
        start,
        bearing,
        fc.integer({ min: 2500, max: 14_000 }),
        spacing,
        (from, b, length, spacingM) => {
          const points = road(from, [[b, length]], spacingM);
          const stretches = splitByDirection(points);
          expect(stretches).toHaveLength(1);
          expect(stretches[0]?.startIndex).toBe(0);
          expect(stretches[0]?.endIndex).toBe(points.length - 1);
          expect(gap(stretches[0]?.bearingDeg ?? NaN, b)).toBeLessThan(0.05);
          expect(Math.abs((stretches[0]?.lengthM ?? 0) - length)).toBeLessThan(1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('cuts a long straight road into stretches of at most 15 km that follow on', () => {
    fc.assert(
      fc.property(start, bearing, fc.integer({ min: 20_000, max: 60_000 }), (from, b, length) => {
        const points = road(from, [[b, length]], 100);
        const stretches = splitByDirection(points);
        expect(stretches.length).toBeGreaterThanOrEqual(Math.floor(length / MAX_STRETCH_M));
        stretches.forEach((stretch, i) => {
          expect(stretch.lengthM).toBeLessThanOrEqual(MAX_STRETCH_M);
          if (i > 0) expect(stretch.startIndex).toBe(stretches[i - 1]?.endIndex);
        });
        const covered = stretches.reduce((sum, s) => sum + s.lengthM, 0);
        // Only a last remnant under the minimum may be left out.
        expect(covered).toBeGreaterThan(length - MIN_STRETCH_M);
      }),
      { numRuns: 50 },
    );
  });

  it('splits an L-shaped road at its corner into two stretches about 90° apart', () => {
    fc.assert(
      fc.property(
        start,
        bearing,
        fc.constantFrom(90, -90),
        fc.integer({ min: 3000, max: 7000 }),
        fc.integer({ min: 3000, max: 7000 }),
        spacing,
        (from, b, turn, first, second, spacingM) => {
          const points = road(
            from,
            [
              [b, first],
              [(b + turn + 360) % 360, second],
            ],
            spacingM,
          );
          const corner = Math.max(1, Math.ceil(first / spacingM));
          const stretches = splitByDirection(points);
          expect(stretches).toHaveLength(2);
          const [a, c] = stretches as [(typeof stretches)[0], (typeof stretches)[0]];
          expect(a.endIndex).toBe(corner);
          expect(c.startIndex).toBe(corner);
          expect(Math.abs(gap(a.bearingDeg, c.bearingDeg) - 90)).toBeLessThan(5);
          expect(gap(a.bearingDeg, b)).toBeLessThan(0.05);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('does not give a zig-zag switchback climb as one straight stretch', () => {
    fc.assert(
      fc.property(
        start,
        bearing,
        fc.integer({ min: 150, max: 600 }),
        fc.integer({ min: 8, max: 30 }),
        fc.integer({ min: 20, max: 60 }),
        (from, b, legM, hairpins, spacingM) => {
          // Legs back and forth across the slope, each turning 160° at a hairpin: the road gains ground uphill slowly.
          const legs: Leg[] = Array.from({ length: hairpins }, (_, k) => [
            (b + (k % 2 === 0 ? 80 : -80) + 360) % 360,
            legM,
          ]);
          const points = road(from, legs, spacingM);
          expect(splitByDirection(points)).toEqual([]);
          // With no minimum length, every stretch stays within one leg or so: none crosses a hairpin and runs on.
          for (const stretch of splitByDirection(points, { minLengthM: 0 })) {
            expect(stretch.lengthM).toBeLessThanOrEqual(1.3 * legM);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps a road that wanders gently about one direction as one stretch', () => {
    fc.assert(
      fc.property(start, bearing, fc.integer({ min: 5, max: 15 }), (from, b, wiggle) => {
        const legs: Leg[] = Array.from({ length: 10 }, (_, k) => [
          (b + (k % 2 === 0 ? wiggle : -wiggle) + 360) % 360,
          800,
        ]);
        const points = road(from, legs, 100);
        const stretches = splitByDirection(points);
        expect(stretches).toHaveLength(1);
        expect(gap(stretches[0]?.bearingDeg ?? NaN, b)).toBeLessThan(wiggle);
      }),
      { numRuns: 100 },
    );
  });
});

describe('splitByDirection invariants', () => {
  it('gives stretches in order, each of one direction within the deviation and within the length limits', () => {
    fc.assert(
      fc.property(
        start,
        fc.array(fc.tuple(bearing, fc.integer({ min: 100, max: 6000 })), { minLength: 1, maxLength: 15 }),
        spacing,
        fc.double({ min: 10, max: 45, noNaN: true }),
        (from, legs, spacingM, maxDeviationDeg) => {
          const points = road(from, legs, spacingM);
          const stretches = splitByDirection(points, { maxDeviationDeg });
          let previousEnd = 0;
          for (const stretch of stretches) {
            expect(stretch.startIndex).toBeGreaterThanOrEqual(previousEnd);
            expect(stretch.endIndex).toBeGreaterThan(stretch.startIndex);
            expect(stretch.endIndex).toBeLessThan(points.length);
            previousEnd = stretch.endIndex;
            expect(stretch.lengthM).toBeGreaterThanOrEqual(MIN_STRETCH_M);
            expect(stretch.lengthM).toBeLessThanOrEqual(MAX_STRETCH_M);
            const first = points[stretch.startIndex] as LatLon;
            const last = points[stretch.endIndex] as LatLon;
            expect(stretch.bearingDeg).toBe(initialBearing(first, last));
            let worst = 0;
            let path = 0;
            for (let k = stretch.startIndex + 1; k <= stretch.endIndex; k++) {
              const p = points[k] as LatLon;
              path += greatCircleM(points[k - 1] as LatLon, p);
              if (greatCircleM(first, p) >= 50)
                worst = Math.max(worst, gap(initialBearing(first, p), stretch.bearingDeg));
            }
            expect(stretch.lengthM).toBeCloseTo(path, 6);
            expect(worst).toBeLessThanOrEqual(maxDeviationDeg + 0.01);
            expect(greatCircleM(first, last)).toBeGreaterThanOrEqual(0.85 * stretch.lengthM);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('splitByDirection bad input', () => {
  it('says what is wrong with an option or a point', () => {
    const points = road({ lat: 45, lon: 6 }, [[30, 3000]], 100);
    expect(() => splitByDirection(points, { maxDeviationDeg: 0 })).toThrow(/maxDeviationDeg/);
    expect(() => splitByDirection(points, { maxDeviationDeg: 90 })).toThrow(/maxDeviationDeg/);
    expect(() => splitByDirection(points, { maxLengthM: 0 })).toThrow(/maxLengthM/);
    expect(() => splitByDirection([{ lat: 91, lon: 0 }, ...points])).toThrow(/Point 0/);
  });

  it('gives nothing for no road, one point or a point repeated', () => {
    expect(splitByDirection([])).toEqual([]);
    expect(splitByDirection([{ lat: -33.9, lon: 18.4 }])).toEqual([]);
    expect(
      splitByDirection(
        [
          { lat: -33.9, lon: 18.4 },
          { lat: -33.9, lon: 18.4 },
        ],
        { minLengthM: 0 },
      ),
    ).toEqual([]);
  });
});
