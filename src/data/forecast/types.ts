import type { LatLon } from '../../core/bearing.ts';

/** Which forecast an answer is built on; `demo` is synthetic and always says so. */
export type ForecastSourceId = 'open-meteo' | 'demo';

/**
 * One forecast hour: the 10 m wind and 2 m temperature at the start of the
 * hour (UTC), and the precipitation expected DURING the hour that starts
 * then (what a rider setting out at `time` gets). Every figure has passed
 * `validateHours` (validate.ts): no impossible value reaches a caller.
 */
export interface WindHour {
  /** Unix seconds, on the hour. */
  readonly time: number;
  readonly speedKmh: number;
  /** Direction the wind blows FROM, degrees. */
  readonly directionDeg: number;
  /** Null when the provider has no gust value for the hour. */
  readonly gustsKmh: number | null;
  /** Air temperature at 2 m, °C; null when the provider has none. */
  readonly temperatureC: number | null;
  /** Rain, showers and snow (water equivalent) during the hour, mm; null when unknown. */
  readonly precipitationMm: number | null;
  /** Chance of more than 0.1 mm during the hour, percent; null when unknown. */
  readonly precipitationProbabilityPct: number | null;
}

/** Up to 72 hours for one location, starting at the current hour. */
export interface WindSeries {
  readonly point: LatLon;
  /** Unix seconds when this data was obtained from the source (or generated). */
  readonly issuedAt: number;
  /** True when served from cache past its freshness because the source failed. */
  readonly stale: boolean;
  readonly hours: readonly WindHour[];
  /** Hours in the horizon the source sent with impossible or missing values, dropped from `hours`. */
  readonly unusableHours: number;
}

/**
 * A forecast provider. `hourly` answers many points at once, in the order
 * asked; an entry is null when the provider had no usable values there.
 * It throws `ForecastError` when no answer can be given at all.
 */
export interface ForecastSource {
  readonly id: ForecastSourceId;
  hourly(points: readonly LatLon[]): Promise<readonly (WindSeries | null)[]>;
}

export type ForecastFailure = 'timeout' | 'rate_limited' | 'upstream_error' | 'malformed' | 'network';

/** The one error a forecast source throws; its message is written for an assistant. */
export class ForecastError extends Error {
  readonly failure: ForecastFailure;

  constructor(failure: ForecastFailure, message: string) {
    super(message);
    this.name = 'ForecastError';
    this.failure = failure;
  }
}

/** The forecast horizon the tools work over: the next 3 days. */
export const FORECAST_HOURS = 72;

/**
 * Fewer usable hours than this in a series and it is not judged at all: a
 * best window over a third of the horizon would mislead more than help.
 */
export const MIN_USABLE_HOURS = 24;

/**
 * Milliseconds since the Unix epoch, like `Date.now`. Injected so tests can
 * move through forecast hours without sleeping.
 */
export type Clock = () => number;

export { hourStart } from '../../core/time.ts';
