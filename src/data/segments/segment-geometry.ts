import { initialBearing, type LatLon } from '../../core/bearing.ts';
import { polylineLegs, type Leg } from '../../core/segment-wind.ts';
import type { Segment } from './types.ts';

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
