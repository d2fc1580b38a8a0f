import { toRadians } from './angles.ts';
import type { LatLon } from './bearing.ts';

/** Mean Earth radius (IUGG), metres; the same sphere the bearing formula assumes. */
export const EARTH_RADIUS_M = 6_371_008.8;

/**
 * Great-circle distance in metres (haversine, stable for short legs). The one
 * distance formula of the project; the radius is a parameter because the
 * segment catalog must measure on the sphere its spatial index filters with.
 */
export function greatCircleM(a: LatLon, b: LatLon, radiusM = EARTH_RADIUS_M): number {
  const dPhi = toRadians(b.lat - a.lat);
  const dLambda = toRadians(b.lon - a.lon);
  const h =
    Math.sin(dPhi / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLambda / 2) ** 2;
  return 2 * radiusM * Math.asin(Math.min(1, Math.sqrt(h)));
}
