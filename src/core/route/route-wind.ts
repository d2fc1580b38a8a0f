import { roundHalfAway } from '../round.ts';
import { rawSegmentWind, type Leg } from '../segment-wind.ts';
import { classifyEffect, SPEED_DECIMALS, type WindEffect } from '../wind.ts';
import type { RouteLeg } from './route-geometry.ts';

/** A wind as the forecast gives it: speed and the direction it blows FROM. */
export interface LegWind {
  /** km/h (10 m meteorological wind). */
  readonly speedKmh: number;
  /** Degrees the wind blows from (0 = north). */
  readonly directionDeg: number;
}

/** The wind on one leg, unrounded; `effect` is classified on the figure rounded to 0.1 km/h, as the API does. */
export interface LegWindEffect {
  /** Along-track component: positive = tailwind, negative = headwind. */
  readonly tailwindKmh: number;
  /** Magnitude of the across-track component. */
  readonly crosswindKmh: number;
  readonly effect: WindEffect;
}

/** A contiguous stretch of headwind legs. */
export interface HeadwindSection {
  readonly fromKm: number;
  readonly toKm: number;
  /** Length-weighted mean headwind over the stretch, km/h, positive. */
  readonly headwindKmh: number;
}

/** The wind over one kilometre of the route (the last bin may be shorter). */
export interface KmWind {
  readonly fromKm: number;
  readonly toKm: number;
  /** Length-weighted mean along-track component (positive = tailwind). */
  readonly tailwindKmh: number;
  /** Length-weighted mean crosswind magnitude. */
  readonly crosswindKmh: number;
}

/** All figures unrounded: callers round with `roundHalfAway(x, SPEED_DECIMALS)` where they show them. */
export interface RouteWind {
  readonly legs: readonly LegWindEffect[];
  /** Length-weighted mean along-track component over the route (positive = tailwind). */
  readonly tailwindKmh: number;
  /** Length-weighted mean crosswind magnitude. */
  readonly crosswindKmh: number;
  /** Share of the route's length (0..1) ridden into a headwind (a leg whose effect is `headwind`). */
  readonly headwindShare: number;
  /** The headwind stretch that costs most, or null when no leg has a headwind. */
  readonly strongestHeadwind: HeadwindSection | null;
  /** One entry per kilometre from the start, for a chart. */
  readonly perKm: readonly KmWind[];
}

/** Route legs as the segment formula's length weights (shares summing to 1). */
export function legWeights(legs: readonly RouteLeg[]): Leg[] {
  const total = legs.reduce((sum, leg) => sum + leg.lengthM, 0);
  return legs.map((leg) => ({ bearingDeg: leg.bearingDeg, weight: total > 0 ? leg.lengthM / total : 0 }));
}

/** The wind on one leg, by the segment formula of `segment-wind.ts` with the leg as its only piece. */
export function legWindEffect(leg: RouteLeg, wind: LegWind): LegWindEffect {
  const { alongKmh, crossKmh } = rawSegmentWind(
    [{ bearingDeg: leg.bearingDeg, weight: 1 }],
    wind.speedKmh,
    wind.directionDeg,
  );
  return {
    tailwindKmh: alongKmh,
    crosswindKmh: crossKmh,
    effect: classifyEffect(wind.speedKmh, roundHalfAway(alongKmh, SPEED_DECIMALS)),
  };
}

/**
 * Ranks headwind stretches by headwind × length, the time they cost, so a
 * long stiff drag outranks a 50 m corner straight into a gust; ties go to
 * the earlier stretch.
 */
function strongestHeadwind(
  legs: readonly RouteLeg[],
  effects: readonly LegWindEffect[],
): HeadwindSection | null {
  interface Run {
    fromKm: number;
    toKm: number;
    cost: number;
    lengthM: number;
  }
  let best: Run | null = null;
  let run: Run | null = null;
  for (let i = 0; i <= legs.length; i++) {
    const leg = legs[i];
    const effect = effects[i];
    if (leg === undefined || effect?.effect !== 'headwind') {
      if (run !== null && (best === null || run.cost > best.cost)) best = run;
      run = null;
      continue;
    }
    const cost = -effect.tailwindKmh * leg.lengthM;
    const toKm = leg.fromKm + leg.lengthM / 1000;
    if (run === null) run = { fromKm: leg.fromKm, toKm, cost, lengthM: leg.lengthM };
    else {
      run.toKm = toKm;
      run.cost += cost;
      run.lengthM += leg.lengthM;
    }
  }
  return best === null
    ? null
    : { fromKm: best.fromKm, toKm: best.toKm, headwindKmh: best.cost / best.lengthM };
}

/** Length-weighted 1 km bins; a leg spanning a kilometre mark counts in both bins by the length on each side. */
function perKilometre(legs: readonly RouteLeg[], effects: readonly LegWindEffect[]): KmWind[] {
  const sums: { lengthKm: number; along: number; cross: number }[] = [];
  let endKm = 0;
  legs.forEach((leg, i) => {
    const effect = effects[i];
    if (effect === undefined) return;
    const end = leg.fromKm + leg.lengthM / 1000;
    let start = leg.fromKm;
    while (start < end) {
      const bin = Math.floor(start);
      const stop = Math.min(end, bin + 1);
      const share = stop - start;
      const sum = (sums[bin] ??= { lengthKm: 0, along: 0, cross: 0 });
      sum.lengthKm += share;
      sum.along += share * effect.tailwindKmh;
      sum.cross += share * effect.crosswindKmh;
      start = stop;
    }
    endKm = Math.max(endKm, end);
  });
  return Array.from(sums, (sum, bin) => ({
    fromKm: bin,
    toKm: Math.min(bin + 1, endKm),
    tailwindKmh: sum && sum.lengthKm > 0 ? sum.along / sum.lengthKm : 0,
    crosswindKmh: sum && sum.lengthKm > 0 ? sum.cross / sum.lengthKm : 0,
  }));
}

/**
 * The wind along a route. `wind` is one wind per leg (the forecast where
 * and when the rider is on it) or a single wind for all legs (the
 * calculator's case: the same call). Every figure comes from the segment
 * formula, so a straight one-leg route answers exactly as `/v1/tailwind`.
 */
export function routeWind(legs: readonly RouteLeg[], wind: LegWind | readonly LegWind[]): RouteWind {
  const winds = 'speedKmh' in wind ? null : wind;
  if (winds !== null && winds.length !== legs.length)
    throw new RangeError(`routeWind needs one wind per leg: ${winds.length} winds for ${legs.length} legs`);
  const single = winds === null ? (wind as LegWind) : null;
  const effects = legs.map((leg, i) => legWindEffect(leg, single ?? (winds?.[i] as LegWind)));
  let total = 0;
  let along = 0;
  let cross = 0;
  let headwindM = 0;
  legs.forEach((leg, i) => {
    const effect = effects[i];
    if (effect === undefined) return;
    total += leg.lengthM;
    along += leg.lengthM * effect.tailwindKmh;
    cross += leg.lengthM * effect.crosswindKmh;
    if (effect.effect === 'headwind') headwindM += leg.lengthM;
  });
  return {
    legs: effects,
    tailwindKmh: total > 0 ? along / total : 0,
    crosswindKmh: total > 0 ? cross / total : 0,
    headwindShare: total > 0 ? headwindM / total : 0,
    strongestHeadwind: strongestHeadwind(legs, effects),
    perKm: perKilometre(legs, effects),
  };
}

/** The route's weighted tailwind for a wind from one direction. */
export interface PolarEntry {
  /** Direction the wind blows from, degrees. */
  readonly directionDeg: number;
  /** Length-weighted mean along-track component, km/h (unrounded). */
  readonly tailwindKmh: number;
}

/**
 * Which winds favour this ride: the length-weighted tailwind a wind of
 * `speedKmh` gives for each direction it could blow from, every `stepDeg`
 * degrees from north. An out-and-back answers about 0 for every direction.
 */
export function tailwindPolar(legs: readonly RouteLeg[], speedKmh: number, stepDeg = 10): PolarEntry[] {
  if (!(stepDeg > 0 && stepDeg <= 360)) throw new RangeError(`stepDeg must be in (0, 360], got ${stepDeg}`);
  const weights = legWeights(legs);
  const entries: PolarEntry[] = [];
  for (let i = 0; i * stepDeg < 360; i++) {
    const directionDeg = i * stepDeg;
    entries.push({ directionDeg, tailwindKmh: rawSegmentWind(weights, speedKmh, directionDeg).alongKmh });
  }
  return entries;
}
