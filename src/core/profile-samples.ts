import type { LatLon } from './bearing.ts';
import { densify, type RoadSample } from './discovery/road-samples.ts';

/**
 * Closest spacing of a profile's samples: a 3″ DEM cell is about 90 m, so
 * samples closer than this only read the same posts again (a 1 km climb still
 * gets 41 points).
 */
export const PROFILE_MIN_SPACING_M = 25;

/**
 * Points at an even spacing along a line, from its first point to its last,
 * each with its distance from the start: where a profile reads its heights.
 * Distances are the road's own (great-circle legs through `densify`, the
 * climb rule's measure), so the last sample's distance is the line's length.
 * A point between two of the line's points is placed on the straight piece
 * between them, as `densify` places its own.
 */
export function evenSamples(
  points: readonly LatLon[],
  maxSamples: number,
  minSpacingM = PROFILE_MIN_SPACING_M,
): RoadSample[] {
  // An infinite step adds no point: the line's own points, each with its distance from the start.
  const road = densify(points, Number.POSITIVE_INFINITY);
  const first = road[0];
  const totalM = road.at(-1)?.distanceM ?? 0;
  if (first === undefined) return [];
  if (totalM === 0) return [first];
  const count = Math.max(2, Math.min(maxSamples, Math.floor(totalM / minSpacingM) + 1));
  // Both ends are the line's own points; the ones between are placed on it.
  const samples: RoadSample[] = [first];
  let j = 1;
  for (let i = 1; i < count - 1; i++) {
    const distanceM = (totalM * i) / (count - 1);
    while (j < road.length - 1 && (road[j] as RoadSample).distanceM < distanceM) j++;
    const a = road[j - 1] as RoadSample;
    const b = road[j] as RoadSample;
    const span = b.distanceM - a.distanceM;
    const f = span > 0 ? Math.min(1, Math.max(0, (distanceM - a.distanceM) / span)) : 0;
    samples.push({ lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f, distanceM });
  }
  samples.push(road.at(-1) as RoadSample);
  return samples;
}
