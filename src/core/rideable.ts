/**
 * When an hour is fit to ride, and what a rider should know about it. The
 * figures are defaults for an ordinary road rider; /docs/mcp lists them with
 * their sources. Pure.
 */

/** An hour with this much rain or snow (mm of water in the hour) is refused: roads run wet. */
export const WET_PRECIPITATION_MM = 0.5;
/** An hour with at least this chance of more than 0.1 mm is refused. */
export const WET_PROBABILITY_PCT = 70;
/** From here an hour is marked `wet` (damp roads, showers about) without being refused. */
export const DAMP_PRECIPITATION_MM = 0.1;
export const DAMP_PROBABILITY_PCT = 40;
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
  wet: `an hour with ${DAMP_PRECIPITATION_MM} mm of rain or more, or a ${DAMP_PROBABILITY_PCT}% chance of rain or more`,
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
  if (
    atLeast(hour.precipitationMm, WET_PRECIPITATION_MM) ||
    atLeast(hour.precipitationProbabilityPct, WET_PROBABILITY_PCT)
  )
    out.push('wet');
  if (atLeast(hour.windGustsKmh, GUST_LIMIT_KMH)) out.push('gusty');
  return out;
}

/** The marginal conditions of a rideable hour, in a fixed order. */
export function flagsOf(hour: RideConditions): readonly RideFlag[] {
  const out: RideFlag[] = [];
  if (!hour.daylight) out.push('dark');
  if (
    atLeast(hour.precipitationMm, DAMP_PRECIPITATION_MM) ||
    atLeast(hour.precipitationProbabilityPct, DAMP_PROBABILITY_PCT)
  )
    out.push('wet');
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
