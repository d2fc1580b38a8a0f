/**
 * When an hour is fit to ride, and what a rider should know about it. The
 * figures are defaults for an ordinary road rider; /docs/mcp lists them with
 * their sources. Pure.
 */

/**
 * The one rain rule: an hour with this much rain or snow (mm of water in the hour) is wet, and a wet
 * hour is withheld (roads run wet). There is no second, lower band: until 1.7 a `wet` flag marked hours
 * from 0.1 mm or 40 %, so a window could be "wet" while its figures read "no rain forecast". Now every
 * page, answer and chart that names rain applies this rule and says it in {@link RAIN_RULE}'s words.
 */
export const WET_PRECIPITATION_MM = 0.5;
/** An hour with at least this chance of more than 0.1 mm is wet, and withheld (the same one rule). */
export const WET_PROBABILITY_PCT = 70;
/** The rain rule in words, the same wherever rain is named. */
export const RAIN_RULE = `${WET_PRECIPITATION_MM} mm of rain or more in the hour, or a ${WET_PROBABILITY_PCT}% chance of rain or more`;

/** Whether an hour is wet by the one rain rule. Unknown figures are not wet. */
export function isWet(
  hour: Pick<RideConditions, 'precipitationMm' | 'precipitationProbabilityPct'>,
): boolean {
  return (
    atLeast(hour.precipitationMm, WET_PRECIPITATION_MM) ||
    atLeast(hour.precipitationProbabilityPct, WET_PROBABILITY_PCT)
  );
}
/**
 * Gusts at or above this are refused: Beaufort force 7 ("near gale",
 * 50–61 km/h), when walking against the wind is hard and a gust can push a
 * bike across a lane.
 */
export const GUST_LIMIT_KMH = 50;
/** From Beaufort force 6 ("strong breeze", 39–49 km/h) an hour is marked `gusty`. */
export const GUSTY_KMH = 39;
/** Below this an hour is marked `cold`: most riders want winter kit. */
export const COLD_C = 5;
/** At or below this an hour is marked `freezing`: water on the road can turn to ice. */
export const FREEZING_C = 0;
/** At or above this an hour is marked `hot`: the US NWS heat-index "extreme caution" band starts at 32 °C. */
export const HOT_C = 32;

/** Why an hour is not offered. */
export type Refusal = 'dark' | 'wet' | 'gusty';
/** What a rider should know about an offered hour. */
export type RideFlag = 'dark' | 'wet' | 'gusty' | 'cold' | 'freezing' | 'hot';

/**
 * Each flag's rule in words, as {@link flagsOf} applies it: the one
 * explanation every answer, schema and page gives, so a flag never means
 * two things.
 */
export const FLAG_WORDS: Readonly<Record<RideFlag, string>> = {
  dark: 'part of it between civil dusk and dawn (only with include_darkness)',
  // Never raised on an offered hour since 1.8: a wet hour is withheld (one rain rule); kept so the word means one thing.
  wet: `an hour with ${RAIN_RULE}`,
  gusty: `gusts of ${GUSTY_KMH} km/h or more at 10 m`,
  cold: `below ${COLD_C} °C`,
  freezing: `${FREEZING_C} °C or below (ice)`,
  hot: `${HOT_C} °C or above`,
};

/** The figures the rules read, structurally a `SegmentHour`. */
export interface RideConditions {
  readonly daylight: boolean;
  readonly windGustsKmh: number | null;
  readonly temperatureC: number | null;
  readonly precipitationMm: number | null;
  readonly precipitationProbabilityPct: number | null;
}

const atLeast = (value: number | null, limit: number): boolean => value !== null && value >= limit;

/** Why the hour is refused (empty = rideable). Unknown figures refuse nothing. */
export function refusalsOf(hour: RideConditions, includeDarkness: boolean): readonly Refusal[] {
  const out: Refusal[] = [];
  if (!hour.daylight && !includeDarkness) out.push('dark');
  if (isWet(hour)) out.push('wet');
  if (atLeast(hour.windGustsKmh, GUST_LIMIT_KMH)) out.push('gusty');
  return out;
}

/** The marginal conditions of a rideable hour, in a fixed order. */
export function flagsOf(hour: RideConditions): readonly RideFlag[] {
  const out: RideFlag[] = [];
  if (!hour.daylight) out.push('dark');
  if (isWet(hour)) out.push('wet');
  if (atLeast(hour.windGustsKmh, GUSTY_KMH)) out.push('gusty');
  const t = hour.temperatureC;
  if (t !== null && t < COLD_C) out.push('cold');
  if (t !== null && t <= FREEZING_C) out.push('freezing');
  if (atLeast(t, HOT_C)) out.push('hot');
  return out;
}

/** The weather met over some hours: the extremes a rider plans for, null where no hour had a figure. */
export interface WeatherExtremes {
  readonly maxPrecipitationMm: number | null;
  readonly maxPrecipitationProbabilityPct: number | null;
  readonly minTemperatureC: number | null;
  readonly maxTemperatureC: number | null;
  readonly maxGustsKmh: number | null;
}

/** `pick` (Math.max or Math.min) over the hours' known `figure`, pairwise rather than spread so no length overflows the stack. */
function extreme(
  hours: readonly RideConditions[],
  figure: (hour: RideConditions) => number | null,
  pick: (a: number, b: number) => number,
): number | null {
  let best: number | null = null;
  for (const hour of hours) {
    const value = figure(hour);
    if (value !== null) best = best === null ? value : pick(best, value);
  }
  return best;
}

/** The extremes of a window's or a ride's hours, as every answer reports them. */
export function weatherExtremes(hours: readonly RideConditions[]): WeatherExtremes {
  return {
    maxPrecipitationMm: extreme(hours, (h) => h.precipitationMm, Math.max),
    maxPrecipitationProbabilityPct: extreme(hours, (h) => h.precipitationProbabilityPct, Math.max),
    minTemperatureC: extreme(hours, (h) => h.temperatureC, Math.min),
    maxTemperatureC: extreme(hours, (h) => h.temperatureC, Math.max),
    maxGustsKmh: extreme(hours, (h) => h.windGustsKmh, Math.max),
  };
}
