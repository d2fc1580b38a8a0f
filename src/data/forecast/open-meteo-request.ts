import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import { ForecastError } from './types.ts';

/** The body of Open-Meteo's 400 answers, the same for the forecast, ensemble and geocoding APIs. */
export const OpenMeteoErrorSchema = z.object({ error: z.literal(true), reason: z.string() });

/** How the forecast and the ensemble source send their requests. */
export interface OpenMeteoRequestOptions {
  readonly fetch?: NonNullable<Options['fetch']>;
  /** Per attempt; a timed-out attempt is not retried (the cache serves stale data instead). */
  readonly timeoutMs?: number;
  /** Extra attempts after a 429 or 5xx answer or a network failure. */
  readonly retries?: number;
  /** Cap on the exponential backoff (300 ms, 600 ms, …) between attempts. */
  readonly backoffLimitMs?: number;
  /** Cap on a Retry-After wait, so a rate limit never holds a tool call for minutes. */
  readonly maxRetryAfterMs?: number;
}

/** Per-attempt timeout when the settings give none. */
export const OPEN_METEO_TIMEOUT_MS = 4000;

/**
 * The HTTP client both Open-Meteo sources send through, so both retry the
 * same answers (429 and 5xx, honouring Retry-After on 429 and 503) and only
 * the number of extra attempts differs by source.
 */
export function createOpenMeteoClient(options: OpenMeteoRequestOptions, defaultRetries: number): KyInstance {
  return ky.create({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeout: options.timeoutMs ?? OPEN_METEO_TIMEOUT_MS,
    headers: { accept: 'application/json' },
    retry: {
      limit: options.retries ?? defaultRetries,
      statusCodes: [429, 500, 502, 503, 504],
      afterStatusCodes: [429, 503],
      backoffLimit: options.backoffLimitMs ?? 1000,
      maxRetryAfter: options.maxRetryAfterMs ?? 2000,
    },
  });
}

/**
 * The query string of a batched request: every point in one comma list
 * (coordinates to 4 decimals, about 11 m), the source's own parameters, then
 * what both APIs are always asked for: km/h, `hours` ahead, unix time in GMT,
 * and the key when there is one.
 */
export function openMeteoQuery(
  points: readonly LatLon[],
  own: readonly string[],
  hours: number,
  apiKey: string | undefined,
): string {
  const list = (pick: (p: LatLon) => number) =>
    points.map((p) => String(roundHalfAway(pick(p), 4))).join(',');
  return [
    `latitude=${list((p) => p.lat)}`,
    `longitude=${list((p) => p.lon)}`,
    ...own,
    'wind_speed_unit=kmh',
    `forecast_hours=${hours}`,
    'timeformat=unixtime',
    'timezone=GMT',
    ...(apiKey ? [`apikey=${encodeURIComponent(apiKey)}`] : []),
  ].join('&');
}

/**
 * The locations of an answer, in request order: Open-Meteo answers one
 * location with an object and several with an array. Anything that is not
 * JSON, does not match `schema` or has another number of locations than
 * asked is a `malformed` failure.
 */
export function parseLocations<L>(
  text: string,
  schema: z.ZodType<L | L[]>,
  expected: number,
  wording: FailureWording,
): L[] {
  const unreadable = () => new ForecastError('malformed', wording.malformed);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw unreadable();
  const locations = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  if (locations.length !== expected) throw unreadable();
  return locations;
}

/** What a source says for each way a request can fail; which way it failed is decided here, once. */
export interface FailureWording {
  readonly timeout: (seconds: number) => string;
  readonly rateLimited: string;
  /** 401 and 403; absent: worded by `failed` like any other status. */
  readonly refused?: (status: number) => string;
  /** An answer whose body gives Open-Meteo's reason (key already masked); absent: the body is not read. */
  readonly rejected?: (reason: string) => string;
  readonly failed: (status: number) => string;
  /** `unexpected`: the failure was not a network error ky recognises. */
  readonly unreachable: (unexpected: boolean) => string;
  /** An answer that is not what was asked for (see {@link parseLocations}). */
  readonly malformed: string;
}

/**
 * The one place a failed request becomes a {@link ForecastError}. Messages
 * come from the source's wording and never hold the URL (it may hold the
 * API key); a reason quoted from the body has the key masked and is cut to
 * 200 characters.
 */
export function toForecastError(
  error: unknown,
  timeoutMs: number,
  apiKey: string | undefined,
  wording: FailureWording,
): ForecastError {
  if (isTimeoutError(error)) return new ForecastError('timeout', wording.timeout(timeoutMs / 1000));
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status === 429) return new ForecastError('rate_limited', wording.rateLimited);
    if (wording.refused && (status === 401 || status === 403)) {
      return new ForecastError('upstream_error', wording.refused(status));
    }
    const reason = wording.rejected && OpenMeteoErrorSchema.safeParse(errorBody(error.data)).data?.reason;
    if (wording.rejected && reason) {
      const safe = (apiKey ? reason.replaceAll(apiKey, '***') : reason).slice(0, 200);
      return new ForecastError('upstream_error', wording.rejected(safe));
    }
    return new ForecastError('upstream_error', wording.failed(status));
  }
  return new ForecastError('network', wording.unreachable(!isNetworkError(error)));
}

/** ky parses JSON error bodies only when labelled as JSON; accept unlabelled JSON too. */
export function errorBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
