import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import { simplifyRoute } from '../../core/route/route-simplify.ts';

/**
 * A segment's road for a map, as [longitude, latitude] pairs (GeoJSON order)
 * of at most `maxPoints` points: simplified with a tolerance that doubles from
 * 5 m until it fits (as `get_segment` does for its 120 points), so every point
 * kept is a point of the road, to 5 decimals (about a metre). Douglas–Peucker
 * keeps both ends, so two points always fit.
 */
export function segmentLine(polyline: readonly LatLon[], maxPoints: number): [number, number][] {
  let kept: readonly LatLon[] = polyline;
  for (let toleranceM = 5; kept.length > Math.max(2, maxPoints); toleranceM *= 2) {
    kept = simplifyRoute(polyline, toleranceM);
  }
  return kept.map((p) => [roundHalfAway(p.lon, 5), roundHalfAway(p.lat, 5)]);
}
