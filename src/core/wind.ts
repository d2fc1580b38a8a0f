import { toRadians } from './angles.ts';
import { roundHalfAway } from './round.ts';

/** The formula as the API states it in every result. */
export const TAILWIND_FORMULA =
  'signed = wind_speed_kmh * cos((wind_direction_deg + 180) - segment_bearing_deg)';

/** Speeds are reported to 0.1 km/h. */
export const SPEED_DECIMALS = 1;

/** Along-track components smaller than this (km/h) count as crosswind. */
export const CROSSWIND_THRESHOLD_KMH = 1;

export type WindEffect = 'tailwind' | 'headwind' | 'crosswind' | 'calm';

export interface WindInput {
  /** Wind speed in km/h (10 m meteorological wind). */
  readonly speedKmh: number;
  /** Meteorological direction the wind blows FROM, degrees (0 = north). */
  readonly directionDeg: number;
  /** Direction of travel, degrees (0 = north). */
  readonly bearingDeg: number;
}

export interface WindComponents {
  /** Positive = tailwind, negative = headwind, rounded to 0.1 km/h. */
  readonly signedKmh: number;
  /** Magnitude of the across-track component, rounded to 0.1 km/h. */
  readonly crosswindKmh: number;
  readonly effect: WindEffect;
}

/**
 * Splits a wind into the component along the direction of travel and the one
 * across it. The effect is classified on the rounded figures the caller sees,
 * so a result never says `crosswind` next to a signed 1.0: `calm` when the
 * wind speed itself rounds to 0.0 km/h, `crosswind` when |signed| < 1 km/h.
 */
export function windComponents({ speedKmh, directionDeg, bearingDeg }: WindInput): WindComponents {
  const angle = toRadians(directionDeg + 180 - bearingDeg);
  const signedKmh = roundHalfAway(speedKmh * Math.cos(angle), SPEED_DECIMALS);
  const crosswindKmh = roundHalfAway(Math.abs(speedKmh * Math.sin(angle)), SPEED_DECIMALS);
  return { signedKmh, crosswindKmh, effect: classifyEffect(speedKmh, signedKmh) };
}

/**
 * Names the effect of already-rounded figures. Exported so a segment made of
 * several legs is classified by the same rule as a single bearing.
 */
export function classifyEffect(speedKmh: number, signedKmh: number): WindEffect {
  if (roundHalfAway(speedKmh, SPEED_DECIMALS) === 0) return 'calm';
  if (Math.abs(signedKmh) < CROSSWIND_THRESHOLD_KMH) return 'crosswind';
  return signedKmh > 0 ? 'tailwind' : 'headwind';
}
