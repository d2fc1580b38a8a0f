/**
 * The record estimate on a line whose grade changes along the way (a rider's
 * own segment from a file with elevations), where one average grade would
 * misjudge it: at constant power a rider loses more time on the steep ramps
 * than the easy stretches give back, so both the power backed out of the
 * record and the time in the wind come out different.
 *
 * Same model as `power-model.ts` (its `speedForPower`), applied per stretch:
 * the line is cut into at most {@link MAX_STRETCHES} stretches of about equal
 * length, each with its net grade and its length-weighted along-track wind,
 * then the power is the one whose still-air ride takes exactly the record.
 * The cut bounds the work (each stretch solves for a speed inside a solve for
 * the power) whatever the number of points.
 */
import {
  DEFAULT_POWER_PARAMS,
  speedForPower,
  type PowerModelParams,
  type RecordGain,
} from './power-model.ts';
import { roundHalfAway } from './round.ts';
import { rawSegmentWind } from './segment-wind.ts';

/** Enough to follow the ramps of a climb; few enough that an estimate takes milliseconds. */
export const MAX_STRETCHES = 64;

/**
 * Steeper than this is a glitch of the elevation data on a short stretch,
 * not a road: grades are clamped to it.
 */
export const MAX_STRETCH_GRADE_PCT = 30;

/** One leg of the line: its length, bearing and grade (null where an end has no elevation). */
export interface GradedLeg {
  readonly lengthM: number;
  readonly bearingDeg: number;
  readonly gradePct: number | null;
}

interface Stretch {
  readonly lengthM: number;
  readonly gradeFraction: number;
  /** Along-track 10 m tailwind, km/h. */
  readonly tailwindKmh: number;
}

/** Legs grouped into stretches of about equal length; a leg without a grade takes `fallbackGradePct`. */
function stretches(
  legs: readonly GradedLeg[],
  fallbackGradePct: number,
  wind: { speedKmh: number; directionDeg: number } | null,
): Stretch[] {
  const total = legs.reduce((sum, leg) => sum + leg.lengthM, 0);
  if (!(total > 0)) throw new RangeError('legs must have a positive total length');
  const target = total / MAX_STRETCHES;
  const out: Stretch[] = [];
  let length = 0;
  let rise = 0;
  let along = 0;
  const flush = () => {
    if (length <= 0) return;
    const grade = Math.max(-MAX_STRETCH_GRADE_PCT, Math.min(MAX_STRETCH_GRADE_PCT, (rise / length) * 100));
    out.push({ lengthM: length, gradeFraction: grade / 100, tailwindKmh: along / length });
    length = 0;
    rise = 0;
    along = 0;
  };
  for (const leg of legs) {
    if (!(leg.lengthM > 0)) continue;
    const grade = leg.gradePct ?? fallbackGradePct;
    const tailwind = wind
      ? rawSegmentWind([{ bearingDeg: leg.bearingDeg, weight: 1 }], wind.speedKmh, wind.directionDeg).alongKmh
      : 0;
    length += leg.lengthM;
    rise += (grade / 100) * leg.lengthM;
    along += tailwind * leg.lengthM;
    if (length >= target) flush();
  }
  flush();
  return out;
}

/** Seconds to ride the stretches at constant power, each at its own speed. */
function rideTime(parts: readonly Stretch[], powerW: number, p: PowerModelParams): number {
  return parts.reduce((seconds, part) => {
    const headwindMs = (-part.tailwindKmh / 3.6) * p.windHeightFactor;
    return seconds + part.lengthM / speedForPower(powerW, headwindMs, part.gradeFraction, p);
  }, 0);
}

/**
 * The pedal power whose still-air ride over the stretches takes exactly the
 * record. Time only falls as power rises, so bisection finds it; a record no
 * faster than freewheeling has none (RangeError, as `powerFromRecord`).
 */
function powerForRecord(parts: readonly Stretch[], recordS: number, p: PowerModelParams): number {
  if (!(recordS > 0)) throw new RangeError(`recordS must be > 0, got ${recordS}`);
  const freewheelS = rideTime(parts, 0, p);
  if (!(freewheelS > recordS)) {
    throw new RangeError(
      `a record of ${recordS} s is no faster than freewheeling: no pedal power can be backed out`,
    );
  }
  let lo = 0;
  let hi = 100;
  while (rideTime(parts, hi, p) > recordS) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 100 && hi - lo > 1e-6; i++) {
    const mid = (lo + hi) / 2;
    if (rideTime(parts, mid, p) > recordS) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface GradedRecordInput {
  readonly legs: readonly GradedLeg[];
  readonly recordS: number;
  /** For legs without a grade. */
  readonly averageGradePct: number;
  readonly windSpeedKmh: number;
  readonly windDirectionDeg: number;
  readonly params?: Partial<PowerModelParams>;
}

/** The record re-ridden at its own power in the wind, grade by grade; rounded like `recordGain`. */
export function gradedRecordGain(input: GradedRecordInput): RecordGain {
  const p = { ...DEFAULT_POWER_PARAMS, ...input.params };
  const still = stretches(input.legs, input.averageGradePct, null);
  const powerW = powerForRecord(still, input.recordS, p);
  const windy = stretches(input.legs, input.averageGradePct, {
    speedKmh: input.windSpeedKmh,
    directionDeg: input.windDirectionDeg,
  });
  const estimatedS = roundHalfAway(rideTime(windy, powerW, p), 1);
  return {
    estimatedS,
    recordS: input.recordS,
    gainS: roundHalfAway(input.recordS - estimatedS, 1),
    powerW: Math.round(powerW),
  };
}
