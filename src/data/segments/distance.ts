import { distance } from 'geokdbush';
import type { LatLon } from '../../core/bearing.ts';

/**
 * Great-circle distance in metres on geokdbush's sphere (radius 6371 km). The
 * catalog reports distances with the very formula its spatial index filters
 * with, so a segment listed within a radius never shows a distance beyond it.
 */
export function greatCircleM(a: LatLon, b: LatLon): number {
  return distance(a.lon, a.lat, b.lon, b.lat) * 1000;
}

/** Length of a polyline along its points, in metres; hairpins simplified away are not counted. */
export function polylineLengthM(polyline: readonly LatLon[]): number {
  let total = 0;
  for (let i = 1; i < polyline.length; i++) {
    const previous = polyline[i - 1];
    const current = polyline[i];
    if (previous !== undefined && current !== undefined) total += greatCircleM(previous, current);
  }
  return total;
}
