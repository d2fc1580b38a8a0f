import fc from 'fast-check';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { describe, expect, it } from 'vitest';
import { radiusSearch } from '../../src/data/segments/radius-search.ts';
import { generateSegments } from '../support/synthetic-segments.ts';

/** Points where a radius search goes wrong first: both poles, both sides of the antimeridian, the equator. */
const EDGES = [
  [179.9, -17.8],
  [-179.95, -17.8],
  [179.99, 65.5],
  [15.6, 78.2],
  [-40, 89.6],
  [100, -89.2],
  [0, 0],
] as const;

function indexOf(points: readonly (readonly [number, number])[], nodeSize?: number): KDBush {
  const index = new KDBush(points.length, nodeSize);
  for (const [lng, lat] of points) index.add(lng, lat);
  return index.finish();
}

/** Generated segment starts, and the same shapes moved to the edges with a spread of up to ±3°. */
function points(): [number, number][] {
  const list: [number, number][] = [];
  for (const [n, segment] of generateSegments(3000, 5).entries()) {
    const start = segment.polyline[0];
    if (start === undefined) continue;
    list.push([start.lon, start.lat]);
    const [lng, lat] = EDGES[n % EDGES.length] ?? [0, 0];
    const dLng = ((n * 7919) % 6000) / 1000 - 3;
    const dLat = ((n * 104_729) % 6000) / 1000 - 3;
    list.push([((lng + dLng + 540) % 360) - 180, Math.max(-90, Math.min(90, lat + dLat))]);
  }
  return list;
}

const POINTS = points();

/** What the search found, as the ids geokdbush would give (sorted, for a set comparison). */
function collected(index: KDBush, lng: number, lat: number, radiusKm: number): number[] {
  const search = radiusSearch(index);
  const found = search.collect(lng, lat, radiusKm);
  return [...search.slots().subarray(0, found)].map((slot) => index.ids[slot] ?? -1).sort((a, b) => a - b);
}

describe('the radius search over a kd-tree', () => {
  it("finds exactly the points geokdbush's around() finds within a radius, poles and antimeridian included", () => {
    const index = indexOf(POINTS);
    const query = fc.oneof(
      fc.record({
        lng: fc.double({ min: -180, max: 180, noNaN: true }),
        lat: fc.double({ min: -90, max: 90, noNaN: true }),
      }),
      fc
        .record({
          edge: fc.nat({ max: EDGES.length - 1 }),
          dLng: fc.double({ min: -4, max: 4, noNaN: true }),
          dLat: fc.double({ min: -4, max: 4, noNaN: true }),
        })
        .map(({ edge, dLng, dLat }) => {
          const [lng, lat] = EDGES[edge] ?? [0, 0];
          return {
            lng: Math.max(-180, Math.min(180, lng + dLng)),
            lat: Math.max(-90, Math.min(90, lat + dLat)),
          };
        }),
    );
    let nonEmpty = 0;
    fc.assert(
      fc.property(query, fc.oneof(fc.integer({ min: 0, max: 500_000 }), fc.constant(0)), (q, metres) => {
        const km = metres / 1000;
        const expected = around(index, q.lng, q.lat, Infinity, km).sort((a, b) => a - b);
        const actual = collected(index, q.lng, q.lat, km);
        expect(actual).toEqual(expected);
        if (expected.length > 0) nonEmpty += 1;
      }),
      { numRuns: 1000 },
    );
    // The property must have compared real answers, not only empty ones.
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('finds every point of a tiny tree, and points on the same spot, with a small node size', () => {
    const spots: [number, number][] = [
      [6, 45],
      [6, 45],
      [6.001, 45],
      [-179.999, 10],
      [179.999, 10],
    ];
    const index = indexOf(spots, 2);
    expect(collected(index, 6, 45, 0)).toEqual([0, 1]);
    expect(collected(index, 6, 45, 1)).toEqual([0, 1, 2]);
    expect(collected(index, 180, 10, 1)).toEqual([3, 4]);
    expect(collected(index, 6, 45, Math.PI * 6371)).toEqual([0, 1, 2, 3, 4]);
  });

  it('reuses its buffers across queries and grows them past their first size', () => {
    const index = indexOf(POINTS);
    const search = radiusSearch(index);
    // Half the sphere's circumference reaches every point, antipodes included.
    const everything = search.collect(0, 0, Math.PI * 6371);
    expect(everything).toBe(POINTS.length);
    expect(new Set(search.slots().subarray(0, everything)).size).toBe(POINTS.length);
    expect(search.collect(6, 45, 0.001)).toBe(around(index, 6, 45, Infinity, 0.001).length);
  });
});
