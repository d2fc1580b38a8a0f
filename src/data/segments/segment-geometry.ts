/**
 * A segment's geometry: its ends, the point its forecast is read at, its
 * bearing and legs, and distances and lengths as the catalog measures them.
 */
import { initialBearing, type LatLon } from '../../core/bearing.ts';
import { greatCircleM } from '../../core/distance.ts';
import { polylineLegs, type Leg } from '../../core/segment-wind.ts';
import type { Segment } from './types.ts';

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

const legCache = new WeakMap<Segment, readonly Leg[]>();

/** A segment's legs, computed once per segment object and reused by every call. */
export function legsOf(segment: Segment): readonly Leg[] {
  let legs = legCache.get(segment);
  if (!legs) {
    legs = polylineLegs(segment.polyline);
    legCache.set(segment, legs);
  }
  return legs;
}

export function startOf(segment: Segment): LatLon {
  return segment.polyline[0] ?? { lat: 0, lon: 0 };
}

export function endOf(segment: Segment): LatLon {
  return segment.polyline.at(-1) ?? startOf(segment);
}

/**
 * Where the forecast is read for a segment: halfway between its start and
 * end. Segments are a few kilometres long, inside one forecast grid cell or
 * two, so one point stands for the whole road.
 */
export function forecastPointOf(segment: Segment): LatLon {
  const a = startOf(segment);
  const b = endOf(segment);
  return { lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2 };
}

/** Start-to-end bearing, as `/v1/bearing` would give it (0 for a loop). */
export function bearingOf(segment: Segment): number {
  const a = startOf(segment);
  const b = endOf(segment);
  return a.lat === b.lat && a.lon === b.lon ? 0 : initialBearing(a, b);
}

export function toPoint(point: LatLon): { latitude: number; longitude: number } {
  return { latitude: point.lat, longitude: point.lon };
}
