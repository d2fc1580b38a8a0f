import { normalizeDegrees } from '../angles.ts';
import { initialBearing, isSamePoint, type LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import type { RoutePoint } from './route-input.ts';

/**
 * Climbing is counted with 3 m hysteresis: a rise is added only once the
 * elevation has moved 3 m from the last turning point. GPS and barometric
 * noise of a metre or two on a flat road would otherwise add up to tens of
 * metres of phantom climbing; a real climb loses at most 3 m per ascent.
 */
export const ELEVATION_THRESHOLD_M = 3;

/** Sum of rises with {@link ELEVATION_THRESHOLD_M} hysteresis. */
export function smoothedGainM(elevations: readonly number[]): number {
  let reference = elevations[0];
  let gain = 0;
  for (const elevation of elevations) {
    if (reference === undefined) break;
    if (elevation - reference >= ELEVATION_THRESHOLD_M) {
      gain += elevation - reference;
      reference = elevation;
    } else if (reference - elevation >= ELEVATION_THRESHOLD_M) {
      reference = elevation;
    }
  }
  return gain;
}

/** One straight piece of a route, between two consecutive points. */
export interface RouteLeg {
  /** Distance from the route's start to the leg's start, km (unrounded). */
  readonly fromKm: number;
  /** Great-circle length, metres (unrounded, always > 0). */
  readonly lengthM: number;
  /** Initial great-circle bearing, as `/v1/bearing` reports it. */
  readonly bearingDeg: number;
  /** Rise over length in percent, or null where either end lacks an elevation. */
  readonly gradePct: number | null;
  /** The leg's midpoint (on the short way round, also across the antimeridian). */
  readonly mid: LatLon;
}

export interface RouteGeometry {
  readonly legs: readonly RouteLeg[];
  /** Total length, metres (unrounded). */
  readonly distanceM: number;
  /** Smoothed climbing over the points that carry an elevation, metres (unrounded). */
  readonly climbingM: number;
}

/** Signed longitude step in (-180, 180]: the short way, across the antimeridian when that is shorter. */
export function lonStep(from: number, to: number): number {
  const step = normalizeDegrees(to - from);
  return step > 180 ? step - 360 : step;
}

/** Folds a longitude into [-180, 180). */
function wrapLon(lon: number): number {
  return normalizeDegrees(lon + 180) - 180;
}

/**
 * Splits a route into legs, one per pair of consecutive points, with the
 * project's one distance and bearing formulas (both periodic in longitude,
 * so a 179.9° → -179.9° step is 20 m, not the way round the world). Points
 * at the same place as the one before are skipped. The midpoint is the
 * plain average of the ends, fine for legs of a few kilometres, which is
 * what it is for: placing the leg in a forecast cell.
 */
export function routeLegs(points: readonly RoutePoint[]): RouteGeometry {
  const legs: RouteLeg[] = [];
  let distanceM = 0;
  let previous: RoutePoint | undefined;
  for (const point of points) {
    if (previous !== undefined && !isSamePoint(previous, point)) {
      const lengthM = greatCircleM(previous, point);
      if (lengthM > 0) {
        const gradePct =
          previous.ele !== undefined && point.ele !== undefined
            ? ((point.ele - previous.ele) / lengthM) * 100
            : null;
        legs.push({
          fromKm: distanceM / 1000,
          lengthM,
          bearingDeg: initialBearing(previous, point),
          gradePct,
          mid: {
            lat: (previous.lat + point.lat) / 2,
            lon: wrapLon(previous.lon + lonStep(previous.lon, point.lon) / 2),
          },
        });
        distanceM += lengthM;
      }
    }
    if (previous === undefined || !isSamePoint(previous, point)) previous = point;
  }
  const elevations = points.flatMap((p) => (p.ele === undefined ? [] : [p.ele]));
  return { legs, distanceM, climbingM: smoothedGainM(elevations) };
}
