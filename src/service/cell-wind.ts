/**
 * The wind of a forecast cell: the use case behind `GET /v1/wind`. The
 * hours ahead of the grid cell holding a point, from the same forecast and
 * cache the segment answers read. All weather, so an outage is its error.
 */
import type { LatLon } from '../core/bearing.ts';
import { FORECAST_GRID_DEG } from '../data/forecast/cache.ts';
import { forecastCell } from '../data/forecast/cell-cache.ts';
import { ForecastError, type WindSeries } from '../data/forecast/types.ts';
import { hoursAhead } from '../data/segments/segment-window.ts';
import { timeZoneAt } from '../data/time-zone/zone-at.ts';
import type { ForecastParts } from './segment-forecast.ts';
import { forecastFailure } from './service-error.ts';

/** One cell's forecast: where it is, its zone, and its hours from now on. */
export interface CellWind {
  readonly center: LatLon;
  readonly sizeDeg: number;
  readonly timeZone: string;
  /** Unix seconds, never later than now. */
  readonly issuedAt: number;
  readonly stale: boolean;
  readonly hours: ReturnType<typeof hoursAhead>;
}

/** One cell's series; a failed read, or none for the cell, throws `forecast_unreachable` or `forecast_unavailable`. */
async function cellSeries(parts: ForecastParts, center: LatLon): Promise<WindSeries> {
  let series: WindSeries | null | undefined;
  try {
    [series] = await parts.forecast.hourly([center]);
  } catch (error) {
    throw forecastFailure(error, parts.forecast.id, parts.now()) ?? error;
  }
  if (series) return series;
  const none = new ForecastError('malformed', 'The weather service has no values for this cell.');
  throw forecastFailure(none, parts.forecast.id, parts.now()) ?? none;
}

/** The hours of the forecast cell holding `point`. */
export async function cellWind(point: LatLon, parts: ForecastParts): Promise<CellWind> {
  const { center } = forecastCell(point, FORECAST_GRID_DEG);
  const series = await cellSeries(parts, center);
  // The hours first, then the issue time: the clock read in the order the answer always read it.
  const hours = hoursAhead(series, parts.now());
  return {
    center,
    sizeDeg: FORECAST_GRID_DEG,
    timeZone: timeZoneAt(center),
    issuedAt: Math.min(series.issuedAt, Math.floor(parts.now() / 1000)),
    stale: series.stale,
    hours,
  };
}
