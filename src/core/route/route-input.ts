import { isSamePoint, type LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import { roundHalfAway } from '../round.ts';
import { RouteInputError } from './route-error.ts';
import { MAX_ROUTE_LENGTH_M, MAX_ROUTE_POINTS, ROUTE_COORDINATE_DECIMALS } from './route-limits.ts';

/** A point of a route; `ele` (metres) is absent where the input gives none. */
export interface RoutePoint extends LatLon {
  readonly ele?: number;
}

/** A route as every reader returns it: points in riding order, checked and cleaned. */
export interface ParsedRoute {
  /** The route's name when the input carries one (GPX `<name>`, GeoJSON `properties.name`). */
  readonly name?: string;
  /** At least 2 points, no two consecutive ones at the same place, coordinates to 5 decimals. */
  readonly points: readonly RoutePoint[];
  /**
   * Share of the route's length (0..1) whose legs have an elevation at both
   * ends, i.e. where a grade can be given. 1 for a complete track, 0 when
   * the input has no elevations at all.
   */
  readonly elevationCoverage: number;
  /** Consecutive points at the same place that were dropped (a paused GPS logs many). */
  readonly duplicatesDropped: number;
}

type Axis = 'lat' | 'lon';

/**
 * Checks one latitude or longitude and keeps it to 5 decimals. `label`
 * names the point for the message ("GPX trkpt 2 (line 14)", "point 3").
 * Longitudes are taken in [-180, 180]; a route crossing the antimeridian
 * jumps from 180 to -180 and every distance and bearing formula of the
 * project is periodic in longitude, so that step measures metres, not the
 * way round the world.
 */
export function routeCoordinate(
  raw: unknown,
  axis: Axis,
  label: string,
  location: { line?: number; point: number },
  noun: 'attribute' | 'value' = 'value',
): number {
  const limit = axis === 'lat' ? 90 : 180;
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  const where = location.line === undefined ? '' : ` on line ${location.line}`;
  if (raw === undefined || raw === null)
    throw new RouteInputError('bad_coordinate', `${label} has no ${axis} ${noun}${where}`, location);
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    const shown =
      typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(JSON.stringify(raw)).slice(0, 40);
    throw new RouteInputError(
      'bad_coordinate',
      `${label} has an invalid ${axis} ${shown}${where}: it must be a number from -${limit} to ${limit}`,
      location,
    );
  }
  return roundHalfAway(value, ROUTE_COORDINATE_DECIMALS);
}

/** Throws `too_many_points` before any point is read, so a huge input costs nothing. */
export function checkPointCount(count: number, what: string): void {
  if (count > MAX_ROUTE_POINTS)
    throw new RouteInputError(
      'too_many_points',
      `${what} has ${count.toLocaleString('en')} points; at most ${MAX_ROUTE_POINTS.toLocaleString('en')} are read. Simplify the track or split the ride.`,
    );
}

/**
 * The common end of every reader: drops consecutive duplicates, refuses
 * routes without a direction or length, and measures elevation coverage.
 * `what` names the input in messages ("GPX file", "GeoJSON line", "point list").
 */
export function finishRoute(raw: readonly RoutePoint[], what: string, name?: string): ParsedRoute {
  checkPointCount(raw.length, what);
  if (raw.length === 0) throw new RouteInputError('no_points', `${what} has no points`);
  if (raw.length === 1)
    throw new RouteInputError(
      'one_point',
      `${what} has 1 point; a route needs at least 2 to have a direction of travel`,
    );
  const points: RoutePoint[] = [];
  let lengthM = 0;
  let elevatedM = 0;
  for (const point of raw) {
    const previous = points.at(-1);
    if (previous !== undefined && isSamePoint(previous, point)) {
      // A duplicate may carry the elevation its twin lacked.
      if (previous.ele === undefined && point.ele !== undefined)
        points[points.length - 1] = { ...previous, ele: point.ele };
      continue;
    }
    if (previous !== undefined) {
      const legM = greatCircleM(previous, point);
      lengthM += legM;
      if (previous.ele !== undefined && point.ele !== undefined) elevatedM += legM;
    }
    points.push(point);
  }
  if (points.length < 2)
    throw new RouteInputError(
      'zero_length',
      `${what} has ${raw.length} points, all at the same place; a route needs length`,
    );
  if (lengthM > MAX_ROUTE_LENGTH_M)
    throw new RouteInputError(
      'too_long',
      `${what} is ${Math.round(lengthM / 1000).toLocaleString('en')} km long; routes of up to ${(MAX_ROUTE_LENGTH_M / 1000).toLocaleString('en')} km are read`,
    );
  return {
    ...(name === undefined || name === '' ? {} : { name }),
    points,
    elevationCoverage: lengthM > 0 ? Math.min(1, elevatedM / lengthM) : 0,
    duplicatesDropped: raw.length - points.length,
  };
}

/** An elevation kept only when it is a finite number; anything else counts as missing. */
export function routeElevation(raw: unknown): number | undefined {
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Reads a list of `{ lat, lon, ele? }` objects (the tool's `points`
 * argument, a page's map clicks). Values are checked here too, not only by
 * the caller's schema, so every entry point gives the same messages.
 */
export function parsePointList(points: unknown): ParsedRoute {
  if (!Array.isArray(points))
    throw new RouteInputError('no_points', 'The points must be a list of { lat, lon } objects');
  checkPointCount(points.length, 'The point list');
  const read = points.map((entry: unknown, index): RoutePoint => {
    const label = `Point ${index + 1}`;
    const location = { point: index + 1 };
    if (typeof entry !== 'object' || entry === null)
      throw new RouteInputError('bad_coordinate', `${label} is not a { lat, lon } object`, location);
    const { lat, lon, ele } = entry as Record<string, unknown>;
    const point = {
      lat: routeCoordinate(lat, 'lat', label, location),
      lon: routeCoordinate(lon, 'lon', label, location),
    };
    const elevation = routeElevation(ele);
    return elevation === undefined ? point : { ...point, ele: elevation };
  });
  return finishRoute(read, 'The point list');
}
