/**
 * The forecast hours segments are judged on, read once for both surfaces:
 * the MCP tools shape it as their `forecast` facts, the REST data endpoints
 * as theirs, and a failure becomes the service's error here alone. The rules live here: the hours from the current one to 72 h
 * ahead, named (`hour-set.ts`) so what is derived from them is remembered; a
 * point with fewer than {@link MIN_USABLE_HOURS} usable hours has none; and
 * when no point has enough the read fails with words that say why, so a
 * broken forecast never becomes a confident "no tailwind".
 */
import type { LatLon } from '../core/bearing.ts';
import type { ForecastHourSet } from '../data/forecast/hour-set.ts';
import {
  ForecastError,
  FORECAST_HOURS,
  MIN_USABLE_HOURS,
  type ForecastSource,
  type WindSeries,
} from '../data/forecast/types.ts';
import { hourSetAhead } from '../data/segments/segment-window.ts';
import { forecastFailure, type ServiceError } from './service-error.ts';

/**
 * The forecast had too few usable hours anywhere asked; the message is written for an assistant or a
 * developer. A `malformed` forecast failure, so every surface sorts it as the source's outage
 * (`forecast-outage.ts`: the service answered, but not usefully).
 */
export class ForecastUnusableError extends ForecastError {
  constructor(message: string) {
    super('malformed', message);
    this.name = 'ForecastUnusableError';
  }
}

export interface JudgedForecast {
  /** The hours judged for each point, in the order given; null = no (usable) data there. */
  readonly sets: readonly (ForecastHourSet | null)[];
  /** Unix seconds: the earliest issue of the series read, never later than now. */
  readonly issuedAt: number;
  /** Some series stood in for a failed request. */
  readonly stale: boolean;
  /** The most hours one point's series dropped as impossible or missing (not a sum: points of one cell share a series). */
  readonly unusable: number;
}

/**
 * Reads `points` in one call to the source (which batches and caches) and
 * judges the hours. Throws the source's `ForecastError`, or
 * {@link ForecastUnusableError}. `now` is read once the forecast has answered.
 */
export async function judgedForecast(
  source: ForecastSource,
  points: readonly LatLon[],
  now: () => number,
): Promise<JudgedForecast> {
  const series = await source.hourly(points);
  const nowMs = now();
  const present = series.filter((s): s is WindSeries => s !== null);
  const unusable = Math.max(0, ...present.map((s) => s.unusableHours));
  const ahead = series.map((s) => s && hourSetAhead(s, nowMs));
  const sets = ahead.map((set) => (set && set.hours.length >= MIN_USABLE_HOURS ? set : null));
  if (present.length > 0 && sets.every((set) => set === null)) {
    const most = Math.max(...ahead.map((set) => set?.hours.length ?? 0));
    throw new ForecastUnusableError(
      `The weather service sent too few usable hours: at most ${most} of ${FORECAST_HOURS} ` +
        `(${unusable} held impossible or missing values), and a window needs at least ${MIN_USABLE_HOURS}.`,
    );
  }
  return {
    sets,
    issuedAt: Math.min(...present.map((s) => s.issuedAt), Math.floor(nowMs / 1000)),
    stale: present.some((s) => s.stale),
    unusable,
  };
}

/** What a use case reads the forecast from: the source and the clock. */
export interface ForecastParts {
  readonly forecast: ForecastSource;
  readonly now: () => number;
}

/** The hours judged, or the outage that kept them away (a `forecast_*` {@link ServiceError}). */
export type ForecastRead =
  | { readonly judged: JudgedForecast; readonly outage?: undefined }
  | { readonly judged?: undefined; readonly outage: ServiceError };

/**
 * The forecast of `points`, judged, or why it could not be read: the one
 * place a forecast failure becomes the family's error. An answer that stands
 * without the wind (the segments, their lines and figures need none) says
 * the outage; one that is all weather throws it. Anything that is not a
 * forecast failure is a bug and is thrown as it is.
 */
export async function readForecast(parts: ForecastParts, points: readonly LatLon[]): Promise<ForecastRead> {
  try {
    return { judged: await judgedForecast(parts.forecast, points, parts.now) };
  } catch (error) {
    const outage = forecastFailure(error, parts.forecast.id, parts.now());
    if (!outage) throw error;
    return { outage };
  }
}

/** The forecast of `points`, judged; an outage is thrown as its {@link ServiceError}. */
export async function forecastOrThrow(
  parts: ForecastParts,
  points: readonly LatLon[],
): Promise<JudgedForecast> {
  const read = await readForecast(parts, points);
  if (read.outage) throw read.outage;
  return read.judged;
}
