/**
 * A rider's own segment from what they give (a GPX file, a GeoJSON line or a
 * list of points) to what is stored: read with the route readers of
 * `./route/`, simplified, and measured. Pure, so the settings page runs the
 * very same code for its preview that the server runs before storing, and the
 * two cannot disagree.
 */
import { initialBearing, isSamePoint } from './bearing.ts';
import { parseGeoJsonLine } from './route/geojson-line.ts';
import { parseGpx } from './route/gpx.ts';
import { RouteInputError } from './route/route-error.ts';
import { routeLegs } from './route/route-geometry.ts';
import { routeShape } from './route/route-loop.ts';
import { simplifyForWind } from './route/route-prepare.ts';
import { parsePointList, type ParsedRoute, type RoutePoint } from './route/route-input.ts';

export type OwnSegmentSource = 'gpx' | 'geojson' | 'points';

/** Longest name kept for an own segment, in characters. */
export const OWN_SEGMENT_NAME_MAX = 100;

/**
 * Most points an own segment keeps after simplification. Every watched
 * segment is read whole on each get_my_tailwind_windows call and alert run;
 * 5,000 points (about 100 KB of JSON) covers a 10 m-tolerance line of a few
 * hundred winding kilometres. A line still longer than that is refused, not
 * simplified harder, so the wind answer keeps the 10 m guarantee.
 */
export const OWN_SEGMENT_MAX_POINTS = 5_000;

export interface PreparedSegment {
  /** From the input (GPX `<name>`, GeoJSON `properties.name`) when the rider gave none. */
  readonly name: string | undefined;
  readonly source: OwnSegmentSource;
  /** Simplified for the wind (`simplifyForWind`: 10 m, finer on tight zigzags); what is stored and ridden by the wind maths. */
  readonly points: readonly RoutePoint[];
  /** Points read from the input, after consecutive duplicates were dropped. */
  readonly pointsRead: number;
  /** Length of the full line, metres (rounded to 0.1 m). */
  readonly distanceM: number;
  /** Climbing with 3 m hysteresis over the points with an elevation, metres (0.1 m). */
  readonly gainM: number;
  /** Net grade, end minus start elevation over the length, percent (0.01); 0 without both elevations. */
  readonly gradePct: number;
  /** Start-to-end initial bearing, degrees (0.01); a loop or out-and-back is refused, never stored. */
  readonly bearingDeg: number;
  /** Share of the length with elevation at both ends of a leg, 0 to 1. */
  readonly elevationCoverage: number;
}

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

function readInput(source: OwnSegmentSource, value: unknown): ParsedRoute {
  if (source === 'gpx') {
    if (typeof value !== 'string')
      throw new RouteInputError('not_gpx', 'The GPX must be the text of the file');
    return parseGpx(value);
  }
  if (source === 'geojson') return parseGeoJsonLine(value);
  return parsePointList(value);
}

/**
 * Why a loop or an out-and-back is no segment, in one sentence: the start of
 * the upload's refusal, and the reason get_route_wind gives when its
 * `save_as` is not kept (that tool has judged the route already, so it says
 * what to do instead in its own words).
 */
export function closedRouteReason(shape: 'loop' | 'out_and_back', endsApartM: number): string {
  return (
    `This line ends ${Math.round(endsApartM)} m from where it starts: ` +
    `${shape === 'loop' ? 'a loop' : 'an out-and-back'} has no one direction, so its tailwind ` +
    'comes to about 0 in any wind and an alert on it could never fire.'
  );
}

/**
 * Reads, simplifies and measures; throws {@link RouteInputError} naming the
 * problem. A loop or an out-and-back is refused (`closed_route`): judged as
 * a segment its length-weighted tailwind is about 0 in every wind, so its
 * bearing means nothing and a tailwind alert on it could never fire; the
 * route tools judge it by the time the wind costs instead.
 */
export function prepareOwnSegment(source: OwnSegmentSource, value: unknown): PreparedSegment {
  return prepareParsedSegment(source, readInput(source, value));
}

/** Simplifies and measures a route already read (the tools read theirs with the route tool's reader). */
export function prepareParsedSegment(source: OwnSegmentSource, route: ParsedRoute): PreparedSegment {
  const full = routeLegs(route.points);
  const { points, toleranceM } = simplifyForWind(route.points, full);
  if (points.length > OWN_SEGMENT_MAX_POINTS) {
    throw new RouteInputError(
      'too_many_points',
      `${toleranceM > 0 ? `Even simplified to ${toleranceM} m` : 'Kept whole (its zigzags too tight to simplify)'}, this line keeps ${points.length.toLocaleString('en')} points; ` +
        `an own segment holds at most ${OWN_SEGMENT_MAX_POINTS.toLocaleString('en')}. Split it into shorter segments.`,
    );
  }
  const closed = routeShape(route.points);
  if (closed.shape !== 'point_to_point') {
    throw new RouteInputError(
      'closed_route',
      `${closedRouteReason(closed.shape, closed.endsApartM)} Judge it as a route instead, by ` +
        'the time the wind costs or gives both ways round: get_route_wind in your assistant, or the route ' +
        'calculator on the home page. A climb or a one-way stretch of it can be a segment.',
    );
  }
  const first = route.points[0];
  const last = route.points.at(-1);
  const grade =
    first?.ele !== undefined && last?.ele !== undefined && full.distanceM > 0
      ? ((last.ele - first.ele) / full.distanceM) * 100
      : 0;
  const bearing = first && last && !isSamePoint(first, last) ? initialBearing(first, last) : 0;
  return {
    name: route.name?.trim().slice(0, OWN_SEGMENT_NAME_MAX) || undefined,
    source,
    points,
    pointsRead: route.points.length,
    distanceM: round(full.distanceM, 1),
    gainM: round(full.climbingM, 1),
    gradePct: round(grade, 2),
    bearingDeg: round(bearing, 2),
    elevationCoverage: round(route.elevationCoverage, 3),
  };
}

/**
 * Why an upload over the allowance is refused, the same words on the page
 * and in the tool answer: the allowance, what is used, and how to unlock more.
 */
export function allowanceRefusal(
  used: number,
  allowance: number,
  proAccess: boolean,
  proAllowance: number,
): string {
  const head = `You already keep ${used} of the ${allowance} own segments your ${proAccess ? 'Pro access' : 'Free plan'} allows.`;
  return proAccess
    ? `${head} Remove one first.`
    : `${head} Remove one first, or move to Pro for up to ${proAllowance}.`;
}

/** Why an upload is refused when the watchlist (which every own segment joins) is full. */
export function watchlistFullRefusal(max: number): string {
  return `Your watchlist is full (${max} segments), and every own segment is watched. Unwatch a segment first.`;
}
