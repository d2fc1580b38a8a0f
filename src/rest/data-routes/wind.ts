import { isoTime } from '../../core/time.ts';
import { cellWind } from '../../service/cell-wind.ts';
import type { RestData } from '../data-port.ts';
import type { WindQuery } from '../schemas/data-queries.ts';
import type { WindForecastResult, WindHourResult } from '../schemas/forecast-result.ts';
import { forecastSource } from '../segment-answers.ts';
import { answering } from './answering.ts';

/** `GET /v1/wind`: the use case `cellWind`, in the REST shape. */
export const windAnswer = answering(async (query: WindQuery, data: RestData): Promise<WindForecastResult> => {
  const cell = await cellWind({ lat: query.lat, lon: query.lon }, data);
  return {
    cell: { lat: cell.center.lat, lon: cell.center.lon, size_deg: cell.sizeDeg },
    time_zone: cell.timeZone,
    forecast: forecastSource({
      source: data.forecast.id,
      issued_at: isoTime(cell.issuedAt),
      stale: cell.stale,
    }),
    hours: cell.hours.map((hour): WindHourResult => ({
      time: isoTime(hour.time),
      wind_speed_kmh: hour.speedKmh,
      wind_direction_deg: hour.directionDeg,
      wind_gusts_kmh: hour.gustsKmh,
      temperature_c: hour.temperatureC,
      precipitation_mm: hour.precipitationMm,
      precipitation_probability_pct: hour.precipitationProbabilityPct,
    })),
  };
});
