import { roundHalfAway } from './round.ts';
import { rawSegmentWind, type Leg } from './segment-wind.ts';
import { SPEED_DECIMALS } from './wind.ts';

/**
 * The chance of a tailwind from an ensemble forecast: several runs of one
 * weather model ("members"), each started from slightly different initial
 * conditions. The chance here is the MEMBER FREQUENCY: the share of members
 * in which the segment gets at least the threshold. Raw ensembles are known
 * to be under-dispersive (they agree with each other more often than the
 * weather agrees with them), so this share is not a calibrated probability;
 * every surface that shows it says so.
 */

/** One ensemble hour: member i's 10 m wind is `speedKmh[i]` from `directionDeg[i]`. */
export interface EnsembleSample {
  /** Unix seconds at the start of the hour. */
  readonly time: number;
  readonly speedKmh: ArrayLike<number>;
  /** Direction the wind blows FROM, degrees. */
  readonly directionDeg: ArrayLike<number>;
}

/** The rider's default: at least 5 km/h of tailwind along the segment (issue #22, the alert default). */
export const DEFAULT_CHANCE_THRESHOLD_KMH = 5;

/** What the members say about one hour or one window on a segment. */
export interface TailwindSpread {
  /** Members with a tailwind of at least the threshold. */
  readonly reaching: number;
  /** Members counted. */
  readonly members: number;
  /** `reaching / members`, unrounded: surfaces round it for show. */
  readonly chance: number;
  /** 10th, 50th and 90th percentile of the signed tailwind (positive = tailwind), km/h to 0.1. */
  readonly p10Kmh: number;
  readonly p50Kmh: number;
  readonly p90Kmh: number;
}

/**
 * Each member's signed tailwind along the segment (the length-weighted mean
 * of the REST formula over its legs, as for the deterministic forecast),
 * rounded to 0.1 km/h like every figure a rider sees, so the threshold is
 * judged on the figure shown. An hour whose two arrays differ in length is
 * malformed and has no members: the caller must not guess an alignment.
 */
export function memberTailwinds(legs: readonly Leg[], sample: EnsembleSample): number[] {
  const n = sample.speedKmh.length;
  if (sample.directionDeg.length !== n) return [];
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const speed = sample.speedKmh[i] ?? NaN;
    const direction = sample.directionDeg[i] ?? NaN;
    out[i] = roundHalfAway(rawSegmentWind(legs, speed, direction).alongKmh, SPEED_DECIMALS);
  }
  return out;
}

/**
 * The q-quantile (0–1) of an ascending list, linear between the closest
 * ranks (Hyndman & Fan type 7, the default of R and NumPy), so p50 of an even
 * count is the mean of the middle two. Hand-written: eight lines, and no
 * statistics library in the dependencies does only this.
 */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const low = sorted[below] ?? NaN;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] ?? low;
  return low + (high - low) * (position - below);
}

/**
 * The chance and spread of a list of member tailwinds; null when there are
 * none (no members, no probability: never a guess).
 */
export function tailwindSpread(tailwinds: readonly number[], thresholdKmh: number): TailwindSpread | null {
  if (tailwinds.length === 0 || tailwinds.some((v) => !Number.isFinite(v))) return null;
  const sorted = [...tailwinds].sort((a, b) => a - b);
  const reaching = sorted.filter((v) => v >= thresholdKmh).length;
  const q = (p: number) => roundHalfAway(quantileSorted(sorted, p), SPEED_DECIMALS);
  return {
    reaching,
    members: sorted.length,
    chance: reaching / sorted.length,
    p10Kmh: q(0.1),
    p50Kmh: q(0.5),
    p90Kmh: q(0.9),
  };
}

/** The chance and spread of one hour on a segment; null when the hour has no (aligned) members. */
export function hourSpread(
  legs: readonly Leg[],
  sample: EnsembleSample,
  thresholdKmh: number,
): TailwindSpread | null {
  return tailwindSpread(memberTailwinds(legs, sample), thresholdKmh);
}

/**
 * The chance and spread over a window of consecutive hours: each member's
 * MEAN tailwind over the window (a member is one coherent run of the model,
 * so its hours belong together), then the share of members whose mean
 * reaches the threshold (or, with `statistic: 'peak'`, each member's
 * strongest hour: the alert rule's measure). Null when an hour of the window is missing from
 * `samples` or the hours disagree on the member count: a window with a hole
 * in its members gets no probability rather than one from fewer hours.
 */
export function windowSpread(
  legs: readonly Leg[],
  samples: readonly EnsembleSample[],
  window: { readonly start: number; readonly end: number },
  thresholdKmh: number,
  statistic: 'mean' | 'peak' = 'mean',
): TailwindSpread | null {
  const hours = samples.filter((s) => s.time >= window.start && s.time < window.end);
  const expected = Math.round((window.end - window.start) / 3600);
  if (expected < 1 || hours.length !== expected) return null;
  const perHour = hours.map((sample) => memberTailwinds(legs, sample));
  const members = perHour[0]?.length ?? 0;
  if (members === 0 || perHour.some((values) => values.length !== members)) return null;
  const perMember = Array.from({ length: members }, (_, i) => {
    if (statistic === 'peak') return Math.max(...perHour.map((values) => values[i] ?? NaN));
    const sum = perHour.reduce((total, values) => total + (values[i] ?? NaN), 0);
    return roundHalfAway(sum / perHour.length, SPEED_DECIMALS);
  });
  return tailwindSpread(perMember, thresholdKmh);
}

/** How a chance is said in words. */
export type ChanceWord = 'likely' | 'about even' | 'unlikely';

/**
 * Words with the bands the IPCC uses for its likelihood language: "likely"
 * from two in three, "unlikely" up to one in three, "about even" between
 * (IPCC's "about as likely as not"). Deliberately no "very likely" or
 * "certain": an uncalibrated member share must never sound surer than it is.
 */
export function chanceWord(chance: number): ChanceWord {
  if (chance >= 2 / 3) return 'likely';
  if (chance <= 1 / 3) return 'unlikely';
  return 'about even';
}
