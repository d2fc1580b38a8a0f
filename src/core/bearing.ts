import { normalizeDegrees, toRadians } from './angles.ts';
import { roundHalfAway } from './round.ts';

/** A point in decimal degrees (WGS 84 latitude and longitude). */
export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

/** Bearings are reported to 0.01°, about 1.7 m of sideways error per 10 km. */
export const BEARING_DECIMALS = 2;

/**
 * True when two coordinates name the same place, where no direction exists:
 * equal latitude and longitude, longitudes equal modulo 360 (180 and -180),
 * or both at the same pole whatever their longitude.
 */
export function isSamePoint(a: LatLon, b: LatLon): boolean {
  if (a.lat !== b.lat) return false;
  if (Math.abs(a.lat) === 90) return true;
  return normalizeDegrees(a.lon) === normalizeDegrees(b.lon);
}

/**
 * Initial great-circle bearing from `start` to `end` on a sphere, in [0, 360)
 * rounded to 0.01°. A value that rounds up to 360.00 is reported as 0, the
 * same direction. The caller must reject coincident points first: there the
 * formula returns an arbitrary angle. For antipodal points every direction is
 * a great circle; the formula's answer (due south or north) is returned as is.
 */
export function initialBearing(start: LatLon, end: LatLon): number {
  const phi1 = toRadians(start.lat);
  const phi2 = toRadians(end.lat);
  const deltaLambda = toRadians(end.lon - start.lon);
  const y = Math.sin(deltaLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(deltaLambda);
  const degrees = normalizeDegrees((Math.atan2(y, x) * 180) / Math.PI);
  const rounded = roundHalfAway(degrees, BEARING_DECIMALS);
  return rounded === 360 ? 0 : rounded;
}
