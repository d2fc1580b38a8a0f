import { routeLegs, type RouteGeometry } from './route-geometry.ts';
import type { ParsedRoute, RoutePoint } from './route-input.ts';
import { ROUTE_SIMPLIFY_TOLERANCE_M, simplifyRoute } from './route-simplify.ts';

/** A read route, ready for the wind: figures of the full track, legs of the simplified one. */
export interface PreparedRoute {
  readonly parsed: ParsedRoute;
  /** Distance and climbing measured on every point read. */
  readonly full: RouteGeometry;
  /** The simplified points (original objects), what the wind is computed on. */
  readonly points: readonly RoutePoint[];
  readonly simplified: RouteGeometry;
}

/** How far the simplified route's weighted tailwind may stray from the full track's, km/h. */
export const ROUTE_WIND_PROMISE_KMH = 0.5;
/** The strongest wind that promise is kept for, km/h: a storm no one rides in. */
export const ROUTE_WIND_PROMISE_UP_TO_KMH = 120;
/** Below this tolerance, metres, the route is taken as read. */
const FINEST_TOLERANCE_M = 1;

/**
 * Measures the full track, then simplifies it for the wind, keeping the length-weighted tailwind
 * within `ROUTE_WIND_PROMISE_KMH` of the full track's for any wind up to
 * `ROUTE_WIND_PROMISE_UP_TO_KMH` (tests/unit/route-wind.test.ts). In core so `get_route_wind` and the
 * browser calculator judge the same legs.
 *
 * Why the bound holds: a simplified leg has the same ends as the legs it replaces, so its along-wind
 * sum is theirs for a wind that is the same over them; what changes is the length it is divided by.
 * The weighted tailwind, at most the wind's speed, is off by that speed times the share of length
 * the simplification cut. Tight zigzags (hairpins every 200 m on a 2 km climb) lose more than 1 %,
 * 0.57 km/h in an 80 km/h wind at the 10 m tolerance: the tolerance is halved until the cut share
 * keeps the promise.
 */
export function prepareRoute(parsed: ParsedRoute): PreparedRoute {
  const full = routeLegs(parsed.points);
  const { points, simplified } = simplifyForWind(parsed.points, full);
  return { parsed, full, points, simplified };
}

/**
 * The points the wind is judged on (given the full track's legs, which the caller has measured
 * already), with their legs and the tolerance that kept the promise (0 when
 * the route is taken as read); also what an own segment keeps (`src/core/own-segment.ts`).
 */
export function simplifyForWind<P extends RoutePoint>(
  points: readonly P[],
  full: RouteGeometry,
): { readonly points: readonly P[]; readonly simplified: RouteGeometry; readonly toleranceM: number } {
  const allowedCut = ROUTE_WIND_PROMISE_KMH / ROUTE_WIND_PROMISE_UP_TO_KMH;
  for (let toleranceM = ROUTE_SIMPLIFY_TOLERANCE_M; toleranceM >= FINEST_TOLERANCE_M; toleranceM /= 2) {
    const kept = simplifyRoute(points, toleranceM);
    const simplified = routeLegs(kept);
    const cut = full.distanceM > 0 ? (full.distanceM - simplified.distanceM) / full.distanceM : 0;
    if (cut <= allowedCut) return { points: kept, simplified, toleranceM };
  }
  return { points, simplified: full, toleranceM: 0 };
}
