import { routeLegs, type RouteGeometry } from './route-geometry.ts';
import type { ParsedRoute, RoutePoint } from './route-input.ts';
import { simplifyRoute } from './route-simplify.ts';

/** A read route, ready for the wind: figures of the full track, legs of the simplified one. */
export interface PreparedRoute {
  readonly parsed: ParsedRoute;
  /** Distance and climbing measured on every point read. */
  readonly full: RouteGeometry;
  /** The simplified points (original objects), what the wind is computed on. */
  readonly points: readonly RoutePoint[];
  readonly simplified: RouteGeometry;
}

/**
 * Measures the full track, then simplifies it for the wind: the
 * simplification keeps the length-weighted wind within 0.5 km/h of the full
 * track (tests/unit/route-wind.test.ts) at a fraction of the legs. In core
 * so `get_route_wind` and the browser calculator judge the same legs.
 */
export function prepareRoute(parsed: ParsedRoute): PreparedRoute {
  const points = simplifyRoute(parsed.points);
  return { parsed, full: routeLegs(parsed.points), points, simplified: routeLegs(points) };
}
