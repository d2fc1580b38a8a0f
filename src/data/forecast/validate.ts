import type { WindHour } from '../../core/wind-hour.ts';

/**
 * Bounds outside which a forecast figure cannot be real weather. They are
 * generous on purpose: they catch broken data (unit mix-ups, sentinels,
 * overflow), not rare storms. 400 km/h is above the strongest gust ever
 * measured at a surface station (408 km/h, Barrow Island, 1996, per the WMO
 * Archive of Weather and Climate Extremes); −90 °C and +60 °C bracket the
 * coldest (−89.2 °C, Vostok) and hottest (56.7 °C, Death Valley) air
 * temperatures on record; 500 mm is above the wettest hour on record (about
 * 305 mm, Holt, Missouri, 1947).
 */
export const FORECAST_BOUNDS = {
  speedKmh: { min: 0, max: 400 },
  directionDeg: { min: 0, max: 360 },
  temperatureC: { min: -90, max: 60 },
  precipitationMm: { min: 0, max: 500 },
  precipitationProbabilityPct: { min: 0, max: 100 },
} as const;

/** One hour as a source delivers it, before any check: every figure may be missing or absurd. */
export interface RawHour {
  readonly time: number | null | undefined;
  readonly speedKmh: number | null | undefined;
  readonly directionDeg: number | null | undefined;
  readonly gustsKmh: number | null | undefined;
  readonly temperatureC: number | null | undefined;
  readonly precipitationMm: number | null | undefined;
  readonly precipitationProbabilityPct: number | null | undefined;
}

export interface ValidatedHours {
  readonly hours: readonly WindHour[];
  /** Hours dropped because a figure was impossible, missing where required, or out of time order. */
  readonly unusable: number;
}

/** A figure that is there and possible: a finite number within `bounds` (see {@link FORECAST_BOUNDS}). */
export const isPossible = (
  value: number | null | undefined,
  bounds: { readonly min: number; readonly max: number },
): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= bounds.min && value <= bounds.max;

/**
 * A time that may come next in a series: a whole UTC hour (Unix s) later
 * than the one kept before it, so an hour out of order or repeated is dropped.
 */
export const isNextHour = (time: number | null | undefined, after: number): time is number =>
  typeof time === 'number' && Number.isInteger(time) && time % 3600 === 0 && time > after;

/** A figure that may be absent (null) but, when present, must be possible; undefined = not a number. */
function optional(
  value: number | null | undefined,
  bounds: { readonly min: number; readonly max: number },
): number | null | undefined {
  if (value === null || value === undefined) return null;
  return isPossible(value, bounds) ? value : undefined;
}

/**
 * Keeps the hours a rider can be told about and counts the rest. An hour is
 * dropped when its time is not a whole hour or not after the previous kept
 * hour (out of order or repeated); when its speed or direction is missing or
 * outside 0–400 km/h and 0–360°; when its gust is below the mean wind (a gust
 * is the peak of that wind) or above 400 km/h; or when a temperature,
 * precipitation or probability is given but impossible. Missing optional
 * figures (gust, temperature, precipitation) stay null. 360° becomes 0°.
 * Pure; the order of the kept hours is the order given.
 */
export function validateHours(raw: readonly RawHour[]): ValidatedHours {
  const hours: WindHour[] = [];
  let unusable = 0;
  let last = -Infinity;
  for (const hour of raw) {
    const usable = checkHour(hour, last);
    if (usable) {
      hours.push(usable);
      last = usable.time;
    } else unusable += 1;
  }
  return { hours, unusable };
}

function checkHour(hour: RawHour, after: number): WindHour | null {
  const { time, speedKmh, directionDeg } = hour;
  if (!isNextHour(time, after)) return null;
  if (!isPossible(speedKmh, FORECAST_BOUNDS.speedKmh)) return null;
  if (!isPossible(directionDeg, FORECAST_BOUNDS.directionDeg)) return null;
  const gustsKmh = optional(hour.gustsKmh, FORECAST_BOUNDS.speedKmh);
  if (gustsKmh === undefined || (gustsKmh !== null && gustsKmh < speedKmh)) return null;
  const temperatureC = optional(hour.temperatureC, FORECAST_BOUNDS.temperatureC);
  const precipitationMm = optional(hour.precipitationMm, FORECAST_BOUNDS.precipitationMm);
  const precipitationProbabilityPct = optional(
    hour.precipitationProbabilityPct,
    FORECAST_BOUNDS.precipitationProbabilityPct,
  );
  if (
    temperatureC === undefined ||
    precipitationMm === undefined ||
    precipitationProbabilityPct === undefined
  )
    return null;
  return {
    time,
    speedKmh,
    directionDeg: directionDeg === 360 ? 0 : directionDeg,
    gustsKmh,
    temperatureC,
    precipitationMm,
    precipitationProbabilityPct,
  };
}
