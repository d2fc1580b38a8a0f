import { toRadians } from '../angles.ts';
import { initialBearing, isSamePoint, type LatLon } from '../bearing.ts';
import { EARTH_RADIUS_M, greatCircleM } from '../distance.ts';

/**
 * Splitting a road into stretches of one overall direction, so that each can
 * be a segment with one bearing and the wind's component along it means
 * something. Used for the flat and rolling roads, where the wind matters
 * most; the climb rule decides the climbs.
 */

/** Options of {@link splitByDirection}; every one has a default. */
export interface SplitByDirectionOptions {
  /** How far any point's bearing from the stretch's start may stray from the start→end bearing, degrees, in (0, 90). */
  readonly maxDeviationDeg?: number;
  /** Stretches shorter than this along the road are dropped, metres. */
  readonly minLengthM?: number;
  /** A stretch is cut when it reaches this length along the road, metres. */
  readonly maxLengthM?: number;
}

/** One stretch: indices into the points, its start→end bearing and its length along the road. */
export interface DirectionStretch {
  readonly startIndex: number;
  readonly endIndex: number;
  /** Initial great-circle bearing from the first point to the last, as `/v1/bearing` reports it. */
  readonly bearingDeg: number;
  /** Length along the points, metres (unrounded). */
  readonly lengthM: number;
}

/**
 * 25°: a wind 25° off a stretch's bearing still gives 90 % of its component
 * along it (cos 25° ≈ 0.91), so one bearing speaks for every part of it.
 */
export const MAX_DEVIATION_DEG = 25;
/** 2 km: shorter stretches are over before the wind makes a difference a rider feels. */
export const MIN_STRETCH_M = 2_000;
/** 15 km: longer, and the forecast wind itself changes along the way (a model cell is a few km). */
export const MAX_STRETCH_M = 15_000;
/**
 * A stretch's straight-line span must be at least this share of its length
 * along the road. The bearing test alone passes a road that doubles back on
 * itself (a hairpin's return leg lies in the same direction from the start);
 * 0.85 is the chord of a 60° arc's ~0.95 with room for a road's wiggles, and
 * far above a switchback's, whose legs cancel out.
 */
export const MIN_STRAIGHTNESS = 0.85;
/**
 * Points closer than this to a stretch's start are not held to the bearing
 * test: the direction to a node a few metres away (a junction, a kerb) is
 * noise, and a bend that small is invisible over kilometres.
 */
export const NEAR_START_M = 50;

/** Signed difference b − a folded into (−180, 180]. */
function turn(a: number, b: number): number {
  const d = (((b - a) % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
}

/** Distance of `point` from the great circle through `start` with bearing `bearingDeg`, metres. */
function crossTrackM(start: LatLon, bearingDeg: number, point: LatLon): number {
  if (isSamePoint(start, point)) return 0;
  const angular = greatCircleM(start, point) / EARTH_RADIUS_M;
  const off = toRadians(initialBearing(start, point) - bearingDeg);
  return Math.abs(Math.asin(Math.sin(angular) * Math.sin(off))) * EARTH_RADIUS_M;
}

/**
 * Splits a road (its points in order) into stretches of one overall
 * direction. Greedy: a stretch grows from its start while
 * - it is no longer than `maxLengthM` (a single leg longer than that is a
 *   stretch of its own),
 * - its straight-line span is at least {@link MIN_STRAIGHTNESS} of its
 *   length, and
 * - every point (beyond {@link NEAR_START_M}) lies within `maxDeviationDeg`
 *   of the start→current bearing, as seen from the start.
 * When the road turns, the stretch is cut at the point farthest from the
 * line from its start to the first point that failed: the corner, not the
 * point where the turn was noticed (which lies after it). When it reaches
 * its length limit it is cut there. The next stretch starts where the last
 * one ended. Stretches shorter than `minLengthM` are dropped, leaving gaps.
 * Bearings and lengths use the project's great-circle formulas, so the
 * antimeridian and the poles' neighbourhood need nothing special. Throws a
 * RangeError for a point that is not a latitude and longitude or an option
 * out of range.
 */
export function splitByDirection(
  points: readonly LatLon[],
  options: SplitByDirectionOptions = {},
): DirectionStretch[] {
  const maxDeviationDeg = options.maxDeviationDeg ?? MAX_DEVIATION_DEG;
  const minLengthM = options.minLengthM ?? MIN_STRETCH_M;
  const maxLengthM = options.maxLengthM ?? MAX_STRETCH_M;
  if (!(maxDeviationDeg > 0 && maxDeviationDeg < 90)) {
    throw new RangeError(
      `maxDeviationDeg must be between 0 and 90 degrees, exclusive (got ${maxDeviationDeg}).`,
    );
  }
  if (!(minLengthM >= 0 && maxLengthM > 0 && Number.isFinite(minLengthM) && Number.isFinite(maxLengthM))) {
    throw new RangeError(
      `minLengthM must be at least 0 and maxLengthM above 0, both finite (got ${minLengthM}, ${maxLengthM}).`,
    );
  }
  points.forEach((p, i) => {
    if (!(Math.abs(p.lat) <= 90 && Number.isFinite(p.lon))) {
      throw new RangeError(`Point ${i} is not a latitude in [-90, 90] and a finite longitude.`);
    }
  });
  const point = (i: number): LatLon => points[i] ?? { lat: Number.NaN, lon: Number.NaN };
  // along[i]: length along the road from the first point to point i.
  const along = [0];
  for (let i = 1; i < points.length; i++)
    along.push((along[i - 1] ?? 0) + greatCircleM(point(i - 1), point(i)));
  const lengthBetween = (s: number, e: number): number => (along[e] ?? 0) - (along[s] ?? 0);

  /** Index where the stretch starting at `s` ends. */
  const stretchEnd = (s: number): number => {
    const start = point(s);
    let reference: number | null = null;
    let lowest = 0;
    let highest = 0;
    for (let j = s + 1; j < points.length; j++) {
      const path = lengthBetween(s, j);
      if (path > maxLengthM) return Math.max(j - 1, s + 1);
      const current = point(j);
      const chord = greatCircleM(start, current);
      let fails = chord < MIN_STRAIGHTNESS * path;
      if (!fails && chord >= NEAR_START_M) {
        const bearing = initialBearing(start, current);
        reference ??= bearing;
        const relative = turn(reference, bearing);
        const low = Math.min(lowest, relative);
        const high = Math.max(highest, relative);
        fails = high - relative > maxDeviationDeg || relative - low > maxDeviationDeg;
        if (!fails) [lowest, highest] = [low, high];
      }
      if (fails) {
        if (j === s + 1) return j;
        // Cut at the corner: the point farthest from the line start → j.
        const bearing = initialBearing(start, current);
        let corner = j - 1;
        let farthest = -1;
        for (let k = s + 1; k < j; k++) {
          const off = crossTrackM(start, bearing, point(k));
          if (off > farthest) [corner, farthest] = [k, off];
        }
        return corner;
      }
    }
    return points.length - 1;
  };

  const stretches: DirectionStretch[] = [];
  let s = 0;
  while (s < points.length - 1) {
    const e = stretchEnd(s);
    const lengthM = lengthBetween(s, e);
    if (lengthM >= minLengthM && lengthM > 0 && !isSamePoint(point(s), point(e))) {
      stretches.push({ startIndex: s, endIndex: e, bearingDeg: initialBearing(point(s), point(e)), lengthM });
    }
    s = e;
  }
  return stretches;
}
