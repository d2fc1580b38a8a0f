import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { type Clock, FORECAST_HOURS, type ForecastSource, hourStart } from './types.ts';
import type { WindSeries } from './types.ts';
import {
  createOpenMeteoClient,
  type FailureWording,
  OPEN_METEO_TIMEOUT_MS,
  type OpenMeteoRequestOptions,
  openMeteoQuery,
  parseLocations,
  toForecastError,
} from './open-meteo-request.ts';
import { type RawHour, validateHours } from './validate.ts';
import { openMeteoForecastUrl } from '../open-meteo-endpoints.ts';

const values = z.array(z.number().nullable()).optional();

/**
 * One location of an Open-Meteo answer. Units are checked, not assumed: a
 * change of unit upstream must fail loudly rather than mislabel every speed.
 * A value array may be missing (its figure is then unknown, or the hours
 * dropped and counted when it is required; see validate.ts). An array of
 * another length than `time` is RAGGED: nothing says which hours its values
 * belong to, so that location's hours are all counted unusable rather than
 * aligned from the start by guess (see `toSeries`).
 */
export const OpenMeteoLocationSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  hourly_units: z.object({
    time: z.literal('unixtime'),
    wind_speed_10m: z.literal('km/h'),
    wind_gusts_10m: z.literal('km/h').optional(),
    temperature_2m: z.literal('°C').optional(),
    precipitation: z.literal('mm').optional(),
    precipitation_probability: z.literal('%').optional(),
  }),
  hourly: z.object({
    time: z.array(z.number().nullable()),
    wind_speed_10m: values,
    wind_direction_10m: values,
    wind_gusts_10m: values,
    temperature_2m: values,
    precipitation: values,
    precipitation_probability: values,
  }),
});

/** The hourly variables asked for, in one request with the wind. */
export const OPEN_METEO_HOURLY = [
  'wind_speed_10m',
  'wind_direction_10m',
  'wind_gusts_10m',
  'temperature_2m',
  'precipitation',
  'precipitation_probability',
] as const;

/** Open-Meteo answers one location with an object and several with an array, in request order. */
export const OpenMeteoForecastSchema = z.union([OpenMeteoLocationSchema, z.array(OpenMeteoLocationSchema)]);

type OpenMeteoLocation = z.infer<typeof OpenMeteoLocationSchema>;

export interface OpenMeteoOptions extends OpenMeteoRequestOptions {
  /** Defaults to the commercial endpoint when `apiKey` is set, else the free one. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly clock?: Clock;
}

const SERVICE = 'The weather service Open-Meteo';

/**
 * What happened, never what to do: a failed forecast is sorted into "cannot reach" or "busy" by
 * `forecast-outage.ts`, whose sentence says what to do; this is the cause it carries.
 */
const WORDING: FailureWording = {
  timeout: (seconds) => `${SERVICE} did not answer within ${seconds} s.`,
  rateLimited: `${SERVICE} is rate-limiting this server.`,
  refused: (status) =>
    `${SERVICE} refused our credentials (HTTP ${status}); the server operator should check OPEN_METEO_API_KEY.`,
  rejected: (reason) => `${SERVICE} rejected the request: ${reason}`,
  failed: (status) => `${SERVICE} failed (HTTP ${status}).`,
  unreachable: (unexpected) =>
    `This server could not connect to the weather service Open-Meteo${unexpected ? ' (unexpected failure)' : ''}.`,
  malformed: `${SERVICE} returned data we could not read.`,
};

/**
 * Hourly 10 m wind, gusts, 2 m temperature and precipitation from
 * Open-Meteo, all points in ONE request (comma lists),
 * so a tool call costs one upstream request however many points it asks.
 * Open-Meteo does not state the model run a forecast comes from, so
 * `issuedAt` is when we fetched it.
 */
export function createOpenMeteoForecast(options: OpenMeteoOptions = {}): ForecastSource {
  const apiKey = options.apiKey?.trim() || undefined;
  const baseUrl = options.baseUrl ?? openMeteoForecastUrl(apiKey);
  const timeoutMs = options.timeoutMs ?? OPEN_METEO_TIMEOUT_MS;
  const clock = options.clock ?? Date.now;
  const client = createOpenMeteoClient(options, 2);

  async function hourly(points: readonly LatLon[]): Promise<readonly (WindSeries | null)[]> {
    if (points.length === 0) return [];
    let text: string;
    try {
      text = await client.get(forecastUrl(baseUrl, points, apiKey)).text();
    } catch (error) {
      throw toForecastError(error, timeoutMs, apiKey, WORDING);
    }
    const locations = parseLocations(text, OpenMeteoForecastSchema, points.length, WORDING);
    const now = clock();
    return locations.map((location, i) =>
      toSeries(points[i] ?? { lat: location.latitude, lon: location.longitude }, location, now),
    );
  }

  return { id: 'open-meteo', hourly };
}

function forecastUrl(baseUrl: string, points: readonly LatLon[], apiKey: string | undefined): string {
  const own = [`hourly=${OPEN_METEO_HOURLY.join(',')}`];
  return `${baseUrl}?${openMeteoQuery(points, own, FORECAST_HOURS, apiKey)}`;
}

/**
 * The hours from the current one to {@link FORECAST_HOURS} ahead, checked by
 * `validateHours`. Open-Meteo gives precipitation and its probability as
 * the sum over the PRECEDING hour, so the hour starting at T takes the value
 * stamped T + 1 h (what falls while the rider is out); the last hour, with
 * nothing after it, keeps its own value as the nearest estimate.
 */
function toSeries(point: LatLon, location: OpenMeteoLocation, nowMs: number): WindSeries | null {
  const h = location.hourly;
  const from = hourStart(nowMs);
  const until = from + FORECAST_HOURS * 3600;
  if (isRagged(h)) {
    const inHorizon = h.time.filter((t) => t === null || (t >= from && t < until)).length;
    const issuedAt = Math.floor(nowMs / 1000);
    return { point, issuedAt, stale: false, hours: [], unusableHours: Math.max(1, inHorizon) };
  }
  const indexByTime = new Map<number, number>();
  h.time.forEach((t, i) => {
    if (t !== null && !indexByTime.has(t)) indexByTime.set(t, i);
  });
  const rows: RawHour[] = [];
  h.time.forEach((t, i) => {
    if (t !== null && (t < from || t >= until)) return;
    const during = t === null ? i : (indexByTime.get(t + 3600) ?? i);
    rows.push({
      time: t,
      speedKmh: h.wind_speed_10m?.[i],
      directionDeg: h.wind_direction_10m?.[i],
      gustsKmh: h.wind_gusts_10m?.[i],
      temperatureC: h.temperature_2m?.[i],
      precipitationMm: h.precipitation?.[during],
      precipitationProbabilityPct: h.precipitation_probability?.[during],
    });
  });
  const { hours, unusable } = validateHours(rows);
  // All impossible is not "no data": the count must reach the answer.
  if (hours.length === 0 && unusable === 0) return null;
  return { point, issuedAt: Math.floor(nowMs / 1000), stale: false, hours, unusableHours: unusable };
}

/**
 * True when a value array present in the answer is not as long as `time`.
 * Open-Meteo always sends equal lengths, so this is a broken answer; every
 * hour of the location is then unusable, never a guessed alignment.
 */
function isRagged(hourly: OpenMeteoLocation['hourly']): boolean {
  const { time, ...series } = hourly;
  return Object.values(series).some((values) => values !== undefined && values.length !== time.length);
}
