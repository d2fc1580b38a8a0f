import { FLAG_WORDS, type RideFlag } from '../../core/rideable.ts';

/**
 * The words every answer uses for the weather, in one place so that no two
 * answers (or two halves of one) say it differently: rain amount and rain
 * chance are named apart, "dry" is said only when both are nil (so never
 * beside "wet"), every wind figure names its height, and a flag is always
 * explained by the rule that raised it ({@link FLAG_WORDS}, also the schema's words).
 */

const FLAG_ORDER = Object.keys(FLAG_WORDS) as RideFlag[];

/** "; watch out: wet, gusty", or nothing; {@link flagLegend} explains them once per answer. */
export function flagsText(flags: readonly RideFlag[]): string {
  return flags.length > 0 ? `; watch out: ${flags.join(', ')}` : '';
}

/** "\nFlags: wet = …; gusty = …" for the flags an answer shows, once, or nothing. */
export function flagLegend(flags: Iterable<RideFlag>): string {
  const shown = new Set(flags);
  const used = FLAG_ORDER.filter((f) => shown.has(f));
  return used.length > 0 ? `\nFlags: ${used.map((f) => `${f} = ${FLAG_WORDS[f]}`).join('; ')}.` : '';
}

/** Rain's words are the core's, shared with the site's route calculator. */
export { rainText } from '../../core/rain-words.ts';

/**
 * "tailwind at 10 m: peak 13.2, mean 13 km/h; at rider height: peak 8.9,
 * mean 8.8 km/h": both heights named, the mean's too.
 */
export function tailwindFigures(
  peak: number,
  mean: number,
  peakRiderHeight: number,
  meanRiderHeight: number,
): string {
  return (
    `tailwind at 10 m: peak ${peak}, mean ${mean} km/h; ` +
    `at rider height: peak ${peakRiderHeight}, mean ${meanRiderHeight} km/h`
  );
}

/** "13.2 km/h at 10 m (8.9 km/h at rider height)": a wind figure always says where it blows. */
export function windFigure(at10m: number, atRiderHeight?: number): string {
  return atRiderHeight === undefined
    ? `${at10m} km/h at 10 m`
    : `${at10m} km/h at 10 m (${atRiderHeight} km/h at rider height)`;
}
