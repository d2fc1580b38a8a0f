import type { LatLon } from '../../core/bearing.ts';
import { greatCircleM } from '../../core/distance.ts';

/**
 * The sphere geokdbush's `around` filters on (its internal radius, 6371 km).
 * Catalog distances are measured on it too, so a segment listed within a
 * radius never shows a distance beyond it.
 */
export const CATALOG_EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres on the catalog's sphere. */
export function catalogDistanceM(a: LatLon, b: LatLon): number {
  return greatCircleM(a, b, CATALOG_EARTH_RADIUS_M);
}

/** Length of a polyline along its points, in metres; hairpins simplified away are not counted. */
export function polylineLengthM(polyline: readonly LatLon[]): number {
  let total = 0;
  for (let i = 1; i < polyline.length; i++) {
    const previous = polyline[i - 1];
    const current = polyline[i];
    if (previous !== undefined && current !== undefined) total += catalogDistanceM(previous, current);
  }
  return total;
}
