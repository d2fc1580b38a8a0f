import { toRadians } from './angles.ts';
import { initialBearing, isSamePoint, type LatLon } from './bearing.ts';
import { greatCircleM } from './distance.ts';
import { roundHalfAway } from './round.ts';
import { classifyEffect, SPEED_DECIMALS, type WindComponents } from './wind.ts';

/** One straight piece of a segment's polyline. */
export interface Leg {
  /** Initial great-circle bearing, as `/v1/bearing` reports it. */
  readonly bearingDeg: number;
  /** Share of the segment's length, in (0, 1]; the shares sum to 1. */
  readonly weight: number;
}

/**
 * Splits a polyline into legs weighted by length, so a winding climb is not
 * judged by one bearing. Repeated points are skipped, and so are legs too
 * short to measure unless nothing else is left (then each leg counts the
 * same). Weights are divided out once here, which makes a one-leg segment's
 * weight exactly 1 and its result identical to the REST answer.
 */
export function polylineLegs(points: readonly LatLon[]): readonly Leg[] {
  const raw: { bearingDeg: number; lengthM: number }[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (!a || !b || isSamePoint(a, b)) continue;
    raw.push({ bearingDeg: initialBearing(a, b), lengthM: greatCircleM(a, b) });
  }
  const total = raw.reduce((sum, leg) => sum + leg.lengthM, 0);
  if (total === 0) return raw.map((leg) => ({ bearingDeg: leg.bearingDeg, weight: 1 / raw.length }));
  return raw
    .filter((leg) => leg.lengthM > 0)
    .map((leg) => ({ bearingDeg: leg.bearingDeg, weight: leg.lengthM / total }));
}

/** Unrounded along-track (positive = tailwind) and crosswind means over the legs. */
export interface RawSegmentWind {
  readonly alongKmh: number;
  readonly crossKmh: number;
}

/**
 * Length-weighted mean of the REST formula over the legs: the along-track
 * component keeps its sign (a hairpin into the wind cancels one with it),
 * the crosswind is the mean magnitude (crosswinds from either side both push).
 */
export function rawSegmentWind(legs: readonly Leg[], speedKmh: number, directionDeg: number): RawSegmentWind {
  let alongKmh = 0;
  let crossKmh = 0;
  for (const leg of legs) {
    const angle = toRadians(directionDeg + 180 - leg.bearingDeg);
    alongKmh += leg.weight * speedKmh * Math.cos(angle);
    crossKmh += leg.weight * Math.abs(speedKmh * Math.sin(angle));
  }
  return { alongKmh, crossKmh };
}

/** The effective wind on a segment, rounded and classified as `/v1/tailwind` does. */
export function segmentWind(legs: readonly Leg[], speedKmh: number, directionDeg: number): WindComponents {
  const { alongKmh, crossKmh } = rawSegmentWind(legs, speedKmh, directionDeg);
  const signedKmh = roundHalfAway(alongKmh, SPEED_DECIMALS);
  return {
    signedKmh,
    crosswindKmh: roundHalfAway(crossKmh, SPEED_DECIMALS),
    effect: classifyEffect(speedKmh, signedKmh),
  };
}
