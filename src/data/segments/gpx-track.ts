import type { LatLon } from '../../core/bearing.ts';
import { parseGpx as parseRouteGpx } from '../../core/route/gpx.ts';
import { smoothedGainM } from '../../core/route/route-geometry.ts';
import type { RoutePoint } from '../../core/route/route-input.ts';
import { roundHalfAway } from '../../core/round.ts';
import { catalogDistanceM } from './segment-geometry.ts';

/** A GPX point; `ele` is absent when the file gives none. */
export type GpxPoint = RoutePoint;

export interface GpxTrack {
  /** The first `<name>` of the track or route (or of the file's metadata), if any. */
  readonly name?: string;
  readonly points: readonly GpxPoint[];
}

/** One step of the elevation profile: distance from the start and elevation there. */
export interface ProfilePoint {
  readonly distanceM: number;
  readonly elevationM: number;
}

export interface TrackSummary {
  readonly polyline: readonly LatLon[];
  readonly profile: readonly ProfilePoint[];
  /** Whole metres along the points (haversine). */
  readonly distanceM: number;
  /** Whole metres of smoothed climbing; see {@link ELEVATION_THRESHOLD_M}. */
  readonly elevationGainM: number;
  /** Net rise over distance between the first and last points with an elevation, one decimal. */
  readonly averageGradePct: number;
}

export { ELEVATION_THRESHOLD_M, smoothedGainM } from '../../core/route/route-geometry.ts';

/**
 * Reads the points of a GPX file with the route reader of `src/core/route`
 * (one reader for the operator's import, the route tool and the pages), so
 * a catalog import refuses hostile files with the same precise errors.
 * Consecutive duplicate points are dropped and coordinates kept to 5
 * decimals (about 1 m).
 */
export function parseGpx(text: string): GpxTrack {
  const { name, points } = parseRouteGpx(text);
  return name === undefined ? { points } : { name, points };
}

/**
 * Turns GPX points into catalog figures. Elevations are required: without
 * them the grade and climbing a catalog entry must state would be guesses.
 */
export function summarizeTrack(points: readonly GpxPoint[]): TrackSummary {
  const withEle = points.filter((p): p is GpxPoint & { ele: number } => p.ele !== undefined);
  if (withEle.length < 2)
    throw new Error('GPX points carry no <ele> elevations; grade and climbing cannot be computed');
  const profile: ProfilePoint[] = [];
  let along = 0;
  points.forEach((point, i) => {
    const previous = points[i - 1];
    if (previous !== undefined) along += catalogDistanceM(previous, point);
    if (point.ele !== undefined) profile.push({ distanceM: Math.round(along), elevationM: point.ele });
  });
  if (along <= 0) throw new Error('GPX points are all at the same place');
  const first = profile[0];
  const last = profile[profile.length - 1];
  const spanM = (last?.distanceM ?? 0) - (first?.distanceM ?? 0);
  const riseM = (last?.elevationM ?? 0) - (first?.elevationM ?? 0);
  return {
    polyline: points.map(({ lat, lon }) => ({ lat, lon })),
    profile,
    distanceM: Math.round(along),
    elevationGainM: Math.round(smoothedGainM(withEle.map((p) => p.ele))),
    averageGradePct: spanM > 0 ? roundHalfAway((riseM / spanM) * 100, 1) : 0,
  };
}
