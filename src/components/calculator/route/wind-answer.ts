import type { LatLon } from '../../../core/bearing.ts';
import type { WindHour } from '../../../core/wind-hour.ts';
import { ShownError } from './shown-error.ts';

/**
 * `GET /v1/wind?lat=&lon=` as the page reads it: one forecast cell's next
 * hours. Checked by hand rather than with the API's zod schema: the page
 * ships no zod (about 60 KB), and it needs only these fields, each checked
 * for its type so a changed or broken answer becomes one clear sentence,
 * never a chart of NaN.
 */
export interface WindAnswer {
  readonly cell: LatLon;
  /** IANA zone of the cell: where starts are written in local time. */
  readonly timeZone: string;
  readonly forecast: {
    readonly source: 'open-meteo' | 'demo';
    readonly demo: boolean;
    /** Unix seconds. */
    readonly issuedAt: number;
    readonly stale: boolean;
    readonly attribution: string;
  };
  /** Hours in time order, in the core's units (unix seconds). */
  readonly hours: readonly WindHour[];
}

/** The answer did not have the shape the page reads: a {@link ShownError} naming the first odd field. */
const oddAnswer = (what: string) => new ShownError(what);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function numberAt(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw oddAnswer(`the forecast's "${key}" is not a number`);
  return value;
}

function nullableNumberAt(record: Record<string, unknown>, key: string): number | null {
  const value = record[key];
  return value === null || value === undefined ? null : numberAt(record, key);
}

function timeAt(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw oddAnswer(`the forecast's "${key}" is not a time`);
  return Math.floor(ms / 1000);
}

/** Reads one parsed JSON answer of `/v1/wind`; throws a `ShownError` naming the first odd field. */
export function readWindAnswer(json: unknown): WindAnswer {
  if (
    !isRecord(json) ||
    !isRecord(json['cell']) ||
    !isRecord(json['forecast']) ||
    !Array.isArray(json['hours'])
  )
    throw oddAnswer('the forecast answer is missing its cell, forecast or hours');
  const { cell, forecast } = json as { cell: Record<string, unknown>; forecast: Record<string, unknown> };
  const timeZone = json['time_zone'];
  const source = forecast['source'];
  if (typeof timeZone !== 'string' || timeZone === '') throw oddAnswer('the forecast names no time zone');
  if (source !== 'open-meteo' && source !== 'demo')
    throw oddAnswer(`the forecast source "${String(source)}" is unknown`);
  const hours = (json['hours'] as unknown[]).map((hour): WindHour => {
    if (!isRecord(hour)) throw oddAnswer('a forecast hour is not an object');
    return {
      time: timeAt(hour, 'time'),
      speedKmh: numberAt(hour, 'wind_speed_kmh'),
      directionDeg: numberAt(hour, 'wind_direction_deg'),
      gustsKmh: nullableNumberAt(hour, 'wind_gusts_kmh'),
      temperatureC: nullableNumberAt(hour, 'temperature_c'),
      precipitationMm: nullableNumberAt(hour, 'precipitation_mm'),
      precipitationProbabilityPct: nullableNumberAt(hour, 'precipitation_probability_pct'),
    };
  });
  return {
    cell: { lat: numberAt(cell, 'lat'), lon: numberAt(cell, 'lon') },
    timeZone,
    forecast: {
      source,
      demo: forecast['demo'] === true,
      issuedAt: timeAt(forecast, 'issued_at'),
      stale: forecast['stale'] === true,
      attribution: typeof forecast['attribution'] === 'string' ? forecast['attribution'] : '',
    },
    hours: hours.sort((a, b) => a.time - b.time),
  };
}
