import { toRadians } from '../../../core/angles.ts';
import type { ScreenPoint } from './route-map.ts';

/** Degrees between the polar chart's spokes: 36 directions, finer than any forecast's direction. */
export const POLAR_STEP_DEG = 10;

/** One spoke of the polar chart: the wind's from-direction and the route's weighted tailwind for it. */
export interface PolarValue {
  readonly directionDeg: number;
  readonly tailwindKmh: number;
}

/**
 * Where a value sits on the chart, centred on (0, 0) with north up: the angle
 * is the direction the wind comes from (clockwise from north, as on the
 * compass), and the radius runs from `−scaleKmh` at the centre through 0 on
 * the middle ring to `+scaleKmh` on the rim. A signed radial axis keeps
 * headwinds visible instead of folding them onto the tailwinds.
 */
export function polarPoint(value: PolarValue, scaleKmh: number, radius: number): ScreenPoint {
  const scale = scaleKmh > 0 ? scaleKmh : 1;
  const clamped = Math.max(-scale, Math.min(scale, value.tailwindKmh));
  const r = (radius * (clamped + scale)) / (2 * scale);
  const angle = toRadians(value.directionDeg);
  return { x: r * Math.sin(angle), y: -r * Math.cos(angle) };
}

/** The radius of the zero ring: half way out, by the definition of {@link polarPoint}. */
export function zeroRingRadius(radius: number): number {
  return radius / 2;
}

/**
 * The km/h on the chart's rim: the largest tailwind or headwind of any
 * direction, up to the next whole km/h, so the shape fills the chart (a
 * winding route's figures are often a fraction of the wind speed). Never
 * under a quarter of the wind speed: an out-and-back, whose figures are all
 * about 0, stays a circle on the zero ring instead of magnifying rounding noise.
 */
export function polarScaleKmh(values: readonly PolarValue[], speedKmh: number): number {
  const largest = Math.max(0, ...values.map((value) => Math.abs(value.tailwindKmh)));
  return Math.max(1, Math.ceil(largest), Math.ceil(speedKmh / 4));
}

/**
 * Where a time cost sits on the loop chart, centred on (0, 0) with north up:
 * the radius grows with the time the wind costs, from `leastLostS` at the
 * centre (0, or the largest gain when some direction gains time) to
 * `mostLostS` on the rim. Cost outwards, unlike the tailwind chart, because
 * a steady wind costs a closed route time from nearly every direction: a
 * signed axis would crowd every spoke into its inner half.
 */
export function timeCostPoint(
  directionDeg: number,
  lostS: number,
  leastLostS: number,
  mostLostS: number,
  radius: number,
): ScreenPoint {
  const span = mostLostS - leastLostS > 0 ? mostLostS - leastLostS : 1;
  const r = (radius * (Math.max(leastLostS, Math.min(mostLostS, lostS)) - leastLostS)) / span;
  const angle = toRadians(directionDeg);
  return { x: r * Math.sin(angle), y: -r * Math.cos(angle) };
}
