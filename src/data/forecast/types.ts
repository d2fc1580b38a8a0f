import type { LatLon } from '../../core/bearing.ts';
import type { WindHour } from '../../core/wind-hour.ts';
import type { HourSetId } from './hour-set.ts';

/** Which forecast an answer is built on; `demo` is synthetic and always says so. */
export type ForecastSourceId = 'open-meteo' | 'demo';

/** Up to 72 hours for one location, starting at the current hour. */
export interface WindSeries {
  readonly point: LatLon;
  /** Unix seconds when this data was obtained from the source (or generated). */
  readonly issuedAt: number;
  /** True when served from cache past its freshness because the source failed. */
  readonly stale: boolean;
  readonly hours: readonly WindHour[];
  /**
   * The name of `hours` (`hour-set.ts`), given by the forecast cache; absent
   * for hours no cache named, from which nothing derived is remembered.
   */
  readonly hourSet?: HourSetId;
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
