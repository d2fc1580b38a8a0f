import ky, { isHTTPError, isNetworkError, isTimeoutError, type Options } from 'ky';
import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import { type Clock, FORECAST_HOURS, ForecastError, type ForecastSource, hourStart } from './types.ts';
import type { WindSeries } from './types.ts';
import { type RawHour, validateHours } from './validate.ts';

/** The free endpoint; without an API key the service is free for non-commercial use only. */
export const OPEN_METEO_FREE_URL = 'https://api.open-meteo.com/v1/forecast';
/** The commercial endpoint, used whenever an API key is configured. */
export const OPEN_METEO_COMMERCIAL_URL = 'https://customer-api.open-meteo.com/v1/forecast';

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

/** The body of Open-Meteo's 400 answers, the same for the forecast and the geocoding API. */
export const OpenMeteoErrorSchema = z.object({ error: z.literal(true), reason: z.string() });

type OpenMeteoLocation = z.infer<typeof OpenMeteoLocationSchema>;

export interface OpenMeteoOptions {
  readonly fetch?: NonNullable<Options['fetch']>;
  /** Defaults to the commercial endpoint when `apiKey` is set, else the free one. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Per attempt; a timed-out attempt is not retried (the cache serves stale data instead). */
  readonly timeoutMs?: number;
  /** Extra attempts after a 429 or 5xx answer or a network failure. */
  readonly retries?: number;
  /** Cap on the exponential backoff (300 ms, 600 ms, …) between attempts. */
  readonly backoffLimitMs?: number;
  /** Cap on a Retry-After wait, so a rate limit never holds a tool call for minutes. */
  readonly maxRetryAfterMs?: number;
  readonly clock?: Clock;
}

const SERVICE = 'The weather service Open-Meteo';

/**
 * Hourly 10 m wind, gusts, 2 m temperature and precipitation from
 * Open-Meteo, all points in ONE request (comma lists),
 * so a tool call costs one upstream request however many points it asks.
 * Open-Meteo does not state the model run a forecast comes from, so
 * `issuedAt` is when we fetched it.
 */
export function createOpenMeteoForecast(options: OpenMeteoOptions = {}): ForecastSource {
  const apiKey = options.apiKey?.trim() || undefined;
  const baseUrl = options.baseUrl ?? (apiKey ? OPEN_METEO_COMMERCIAL_URL : OPEN_METEO_FREE_URL);
  const timeoutMs = options.timeoutMs ?? 4000;
  const clock = options.clock ?? Date.now;
  const client = ky.create({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeout: timeoutMs,
    headers: { accept: 'application/json' },
    retry: {
      limit: options.retries ?? 2,
      statusCodes: [429, 500, 502, 503, 504],
      afterStatusCodes: [429, 503],
      backoffLimit: options.backoffLimitMs ?? 1000,
      maxRetryAfter: options.maxRetryAfterMs ?? 2000,
    },
  });

  async function hourly(points: readonly LatLon[]): Promise<readonly (WindSeries | null)[]> {
    if (points.length === 0) return [];
    let text: string;
    try {
      text = await client.get(forecastUrl(baseUrl, points, apiKey)).text();
    } catch (error) {
      throw toForecastError(error, timeoutMs, apiKey);
    }
    const locations = parseBody(text, points.length);
    const now = clock();
    return locations.map((location, i) =>
      toSeries(points[i] ?? { lat: location.latitude, lon: location.longitude }, location, now),
    );
  }

  return { id: 'open-meteo', hourly };
}

function forecastUrl(baseUrl: string, points: readonly LatLon[], apiKey: string | undefined): string {
  const list = (pick: (p: LatLon) => number) =>
    points.map((p) => String(roundHalfAway(pick(p), 4))).join(',');
  const query = [
    `latitude=${list((p) => p.lat)}`,
    `longitude=${list((p) => p.lon)}`,
    `hourly=${OPEN_METEO_HOURLY.join(',')}`,
    'wind_speed_unit=kmh',
    `forecast_hours=${FORECAST_HOURS}`,
    'timeformat=unixtime',
    'timezone=GMT',
    ...(apiKey ? [`apikey=${encodeURIComponent(apiKey)}`] : []),
  ];
  return `${baseUrl}?${query.join('&')}`;
}

function parseBody(text: string, expected: number): OpenMeteoLocation[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable();
  }
  const parsed = OpenMeteoForecastSchema.safeParse(json);
  if (!parsed.success) throw unreadable();
  const locations = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  if (locations.length !== expected) throw unreadable();
  return locations;
}

function unreadable(): ForecastError {
  return new ForecastError('malformed', `${SERVICE} returned data we could not read; try again later.`);
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

/** Messages name the service and what to do, never the URL (it may hold the API key). */
function toForecastError(error: unknown, timeoutMs: number, apiKey: string | undefined): ForecastError {
  if (isTimeoutError(error)) {
    const seconds = timeoutMs / 1000;
    return new ForecastError(
      'timeout',
      `${SERVICE} did not answer within ${seconds} s; try again in a minute.`,
    );
  }
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status === 429) {
      return new ForecastError('rate_limited', `${SERVICE} is rate-limiting us; try again in a few minutes.`);
    }
    if (status === 401 || status === 403) {
      const hint = 'the server operator should check OPEN_METEO_API_KEY';
      return new ForecastError(
        'upstream_error',
        `${SERVICE} refused our credentials (HTTP ${status}); ${hint}.`,
      );
    }
    const reason = OpenMeteoErrorSchema.safeParse(errorBody(error.data)).data?.reason;
    if (reason) {
      const safe = (apiKey ? reason.replaceAll(apiKey, '***') : reason).slice(0, 200);
      return new ForecastError('upstream_error', `${SERVICE} rejected the request: ${safe}`);
    }
    return new ForecastError(
      'upstream_error',
      `${SERVICE} failed (HTTP ${status}); try again in a few minutes.`,
    );
  }
  const cause = isNetworkError(error) ? '' : ' (unexpected failure)';
  return new ForecastError(
    'network',
    `We could not reach the weather service Open-Meteo${cause}; try again in a minute.`,
  );
}

/** ky parses JSON error bodies only when labelled as JSON; accept unlabelled JSON too. */
function errorBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
