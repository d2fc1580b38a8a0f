import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';

/** A point on a road with its distance from the road's first point. */
export interface RoadSample extends LatLon {
  readonly distanceM: number;
}

/**
 * The road's own points plus points placed on its straight pieces, so that no
 * two samples lie more than `stepM` apart: heights are read at each sample,
 * and every sample lies on the mapped road (a climb's line is then the road's
 * line, not a chord across a hairpin).
 */
export function densify(points: readonly LatLon[], stepM: number): RoadSample[] {
  const samples: RoadSample[] = [];
  let distanceM = 0;
  for (let i = 0; i < points.length; i++) {
    const point = points[i] as LatLon;
    if (i === 0) {
      samples.push({ lat: point.lat, lon: point.lon, distanceM: 0 });
      continue;
    }
    const previous = points[i - 1] as LatLon;
    const legM = greatCircleM(previous, point);
    const pieces = Math.ceil(legM / stepM);
    // Straight-line interpolation in degrees: legs are under a kilometre, where the error is centimetres.
    for (let k = 1; k < pieces; k++) {
      const f = k / pieces;
      samples.push({
        lat: previous.lat + (point.lat - previous.lat) * f,
        lon: previous.lon + (point.lon - previous.lon) * f,
        distanceM: distanceM + legM * f,
      });
    }
    distanceM += legM;
    samples.push({ lat: point.lat, lon: point.lon, distanceM });
  }
  return samples;
}

/**
 * Every `spacingM` or so of a road's samples, always keeping the first and
 * last: a coarse profile that tells a road with relief from a flat one at a
 * fraction of the elevation requests.
 */
export function thin(samples: readonly RoadSample[], spacingM: number): RoadSample[] {
  const kept: RoadSample[] = [];
  let nextM = 0;
  for (const sample of samples) {
    if (sample.distanceM >= nextM) {
      kept.push(sample);
      nextM = sample.distanceM + spacingM;
    }
  }
  const last = samples.at(-1);
  if (last !== undefined && kept.at(-1) !== last) kept.push(last);
  return kept;
}
