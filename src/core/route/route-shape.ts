import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';

/**
 * A route is closed (a loop or an out-and-back) when its ends are at most
 * 1 km apart and at most a fifth of its length: a rider finishing within a
 * kilometre of the start rides home through the same wind, while a 3 km
 * "loop" whose ends are 1 km apart is a point-to-point climb.
 */
export const CLOSED_ROUTE_GAP_M = 1000;
export const CLOSED_ROUTE_GAP_SHARE = 0.2;

/**
 * An out-and-back retraces itself: the point at each share of the way out is
 * within this of the point at the same share of the way back (median over
 * the checks), or 2 % of the length on a long ride where GPS and lane
 * offsets add up.
 */
export const RETRACE_TOLERANCE_M = 300;

export type RouteShape = 'loop' | 'out_and_back' | 'point_to_point';

/** The route ridden the other way round: same points, reverse order (elevations travel with their points). */
export function reverseRoute<P extends LatLon>(points: readonly P[]): P[] {
  return [...points].reverse();
}

/** The point `km` along the route (linear between points; plenty for a shape check). */
function pointAtKm(points: readonly LatLon[], cumulativeKm: readonly number[], km: number): LatLon {
  let i = 1;
  while (i < points.length - 1 && (cumulativeKm[i] ?? 0) < km) i++;
  const a = points[i - 1] ?? points[0] ?? { lat: 0, lon: 0 };
  const b = points[i] ?? a;
  const from = cumulativeKm[i - 1] ?? 0;
  const span = (cumulativeKm[i] ?? from) - from;
  const t = span > 0 ? Math.min(1, Math.max(0, (km - from) / span)) : 0;
  const step = ((((b.lon - a.lon) % 360) + 540) % 360) - 180;
  return { lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + step * t };
}

/**
 * Whether the route comes back to where it started ({@link CLOSED_ROUTE_GAP_M})
 * and, if so, whether it retraces its way out ({@link RETRACE_TOLERANCE_M}):
 * an out-and-back, where riding it reversed is the same road, or a loop,
 * where the direction round can matter.
 */
export function routeShape(points: readonly LatLon[]): { shape: RouteShape; endsApartM: number } {
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined || points.length < 3)
    return { shape: 'point_to_point', endsApartM: 0 };
  const cumulativeKm = [0];
  for (let i = 1; i < points.length; i++)
    cumulativeKm.push(
      (cumulativeKm[i - 1] ?? 0) + greatCircleM(points[i - 1] as LatLon, points[i] as LatLon) / 1000,
    );
  const lengthKm = cumulativeKm.at(-1) ?? 0;
  const endsApartM = greatCircleM(first, last);
  if (lengthKm <= 0 || endsApartM > Math.min(CLOSED_ROUTE_GAP_M, CLOSED_ROUTE_GAP_SHARE * lengthKm * 1000))
    return { shape: 'point_to_point', endsApartM };
  const gaps: number[] = [];
  for (let k = 1; k <= 9; k++) {
    const share = k / 20;
    gaps.push(
      greatCircleM(
        pointAtKm(points, cumulativeKm, share * lengthKm),
        pointAtKm(points, cumulativeKm, (1 - share) * lengthKm),
      ),
    );
  }
  gaps.sort((a, b) => a - b);
  const tolerance = Math.max(RETRACE_TOLERANCE_M, 0.02 * lengthKm * 1000);
  return { shape: (gaps[4] ?? Infinity) <= tolerance ? 'out_and_back' : 'loop', endsApartM };
}
