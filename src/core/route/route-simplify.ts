import simplify from 'simplify-js';
import { toRadians } from '../angles.ts';
import type { LatLon } from '../bearing.ts';
import { EARTH_RADIUS_M } from '../distance.ts';
import { roundHalfAway } from '../round.ts';
import { lonStep } from './route-geometry.ts';
import type { RoutePoint } from './route-input.ts';

/**
 * Default simplification tolerance, metres: 10 m keeps every hairpin of a
 * mountain road (whose legs are 50–200 m) and drops the GPS jitter of a
 * recorded track, typically cutting its points five- to twentyfold.
 */
export const ROUTE_SIMPLIFY_TOLERANCE_M = 10;

/**
 * Drops points that lie within `toleranceM` of the line through their
 * neighbours (Douglas–Peucker), keeping the first and last point and the
 * original point objects (so elevations stay where they were measured).
 *
 * The algorithm is the `simplify-js` library (by the author of Leaflet; tiny,
 * no dependencies, the one turf and many map libraries use) rather than our
 * own. It works on plane coordinates, so points are projected to metres
 * first with a sinusoidal projection centred on the route's first point:
 * distances are true along the central meridian and within a few percent
 * for the ≤ 1,000 km routes read here, plenty for a tolerance of metres.
 * Longitudes are unwrapped along the way, so a route across the
 * antimeridian stays one piece.
 */
export function simplifyRoute<P extends RoutePoint>(
  points: readonly P[],
  toleranceM = ROUTE_SIMPLIFY_TOLERANCE_M,
): P[] {
  const first = points[0];
  if (first === undefined || points.length < 3) return [...points];
  let lon = first.lon;
  let previousLon = first.lon;
  const planar = points.map((point) => {
    lon += lonStep(previousLon, point.lon);
    previousLon = point.lon;
    return {
      x: toRadians(lon - first.lon) * Math.cos(toRadians(point.lat)) * EARTH_RADIUS_M,
      y: toRadians(point.lat) * EARTH_RADIUS_M,
    };
  });
  const kept = new Set(simplify(planar, toleranceM, true));
  return points.filter((_, index) => kept.has(planar[index] ?? { x: NaN, y: NaN }));
}

/**
 * A road for a map (a segment's `line` in the REST answers), as [longitude,
 * latitude] pairs (GeoJSON order) of at most `maxPoints` points: simplified
 * with a tolerance that doubles from 5 m until it fits (as `get_segment` does
 * for its 120 points), so every point kept is a point of the road, to 5
 * decimals (about a metre). Douglas–Peucker keeps both ends, so two points
 * always fit.
 */
export function mapLine(polyline: readonly LatLon[], maxPoints: number): [number, number][] {
  let kept: readonly LatLon[] = polyline;
  for (let toleranceM = 5; kept.length > Math.max(2, maxPoints); toleranceM *= 2) {
    kept = simplifyRoute(polyline, toleranceM);
  }
  return kept.map((p) => [roundHalfAway(p.lon, 5), roundHalfAway(p.lat, 5)]);
}
