import ky, { isHTTPError, isTimeoutError, type Options } from 'ky';
import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import { roundHalfAway } from '../../core/round.ts';
import {
  ENSEMBLE_MODELS,
  ensembleRequestWeight,
  type EnsembleModelId,
  type EnsembleRequest,
  type EnsembleSeries,
  type EnsembleSource,
} from './ensemble-types.ts';
import { FORECAST_BOUNDS } from './validate.ts';
import { type Clock, ForecastError, hourStart } from './types.ts';

/** The free endpoint (non-commercial use only). */
export const OPEN_METEO_ENSEMBLE_FREE_URL = 'https://ensemble-api.open-meteo.com';
/** The commercial endpoint, used whenever an API key is configured. */
export const OPEN_METEO_ENSEMBLE_COMMERCIAL_URL = 'https://customer-ensemble-api.open-meteo.com';

/** Only the wind: each variable is paid for once per member. */
export const ENSEMBLE_HOURLY = ['wind_speed_10m', 'wind_direction_10m'] as const;

/**
 * Hours asked per location: the 72-hour horizon plus 12, so an entry cached
 * for its model run (a new one every 6 hours, published some hours later)
 * still covers the horizon from any hour it is served in.
 */
export const ENSEMBLE_FETCH_HOURS = 84;

/** How long the current model run, once learned, is trusted before asking again. */
const RUN_TTL_MS = 10 * 60 * 1000;

const UnitsSchema = z.object({ time: z.literal('unixtime') }).catchall(z.string());

/**
 * One location of an ensemble answer. Member series are read by NAME:
 * `wind_speed_10m` is the control run, `wind_speed_10m_member01` … the
 * perturbed members (Open-Meteo's naming for a single model). Every speed
 * unit must be km/h: a unit change upstream fails loudly.
 */
const LocationSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  hourly_units: UnitsSchema,
  hourly: z.object({ time: z.array(z.number().nullable()) }).catchall(z.array(z.number().nullable())),
});
const AnswerSchema = z.union([LocationSchema, z.array(LocationSchema)]);
type Location = z.infer<typeof LocationSchema>;

/** The part of Open-Meteo's model metadata we read: when the newest run started. */
const MetaSchema = z.object({ last_run_initialisation_time: z.number().int().positive() });

export interface OpenMeteoEnsembleOptions {
  readonly fetch?: NonNullable<Options['fetch']>;
  /** Defaults to the commercial host when `apiKey` is set, else the free one. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly model?: EnsembleModelId;
  readonly timeoutMs?: number;
  readonly retries?: number;
  readonly backoffLimitMs?: number;
  readonly maxRetryAfterMs?: number;
  readonly clock?: Clock;
  /** Told of every ensemble request sent, with its weight: the app logs and counts it. */
  readonly onRequest?: (request: EnsembleRequest) => void;
}

const SERVICE = 'The ensemble weather service Open-Meteo';

/** `wind_speed_10m`, `wind_speed_10m_member01`, …: member 0 is the control run. */
export const memberKey = (variable: string, member: number): string =>
  member === 0 ? variable : `${variable}_member${String(member).padStart(2, '0')}`;

/**
 * The real ensemble source: all points in ONE request per call (comma
 * lists), the model's members read by name and validated hour by hour. The
 * model run comes from Open-Meteo's metadata for the model, asked at most
 * every 10 minutes (the metadata is advisory: a server behind the balancer
 * may still serve the run before; the cache keys by it all the same).
 */
export function createOpenMeteoEnsemble(options: OpenMeteoEnsembleOptions = {}): EnsembleSource {
  const apiKey = options.apiKey?.trim() || undefined;
  const baseUrl =
    options.baseUrl ?? (apiKey ? OPEN_METEO_ENSEMBLE_COMMERCIAL_URL : OPEN_METEO_ENSEMBLE_FREE_URL);
  const model = options.model ?? 'ecmwf_ifs025';
  const { members, metaDomain } = ENSEMBLE_MODELS[model];
  const timeoutMs = options.timeoutMs ?? 4000;
  const clock = options.clock ?? Date.now;
  const client = ky.create({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeout: timeoutMs,
    headers: { accept: 'application/json' },
    retry: {
      limit: options.retries ?? 1,
      statusCodes: [429, 500, 502, 503, 504],
      afterStatusCodes: [429, 503],
      backoffLimit: options.backoffLimitMs ?? 1000,
      maxRetryAfter: options.maxRetryAfterMs ?? 2000,
    },
  });
  let run: { readonly at: number | null; readonly askedAt: number } | null = null;

  async function currentRun(): Promise<number | null> {
    const now = clock();
    if (run && now - run.askedAt < RUN_TTL_MS) return run.at;
    let at: number | null = null;
    try {
      const meta = MetaSchema.safeParse(
        await client.get(`${baseUrl}/data/${metaDomain}/static/meta.json`).json(),
      );
      at = meta.success ? meta.data.last_run_initialisation_time : null;
    } catch {
      // Unknown run: answers say so (run_at null) and the cache keys by the hour instead.
    }
    run = { at, askedAt: now };
    return at;
  }

  async function hourly(points: readonly LatLon[]): Promise<readonly (EnsembleSeries | null)[]> {
    if (points.length === 0) return [];
    const runAt = await currentRun();
    let text: string;
    try {
      options.onRequest?.({
        model,
        locations: points.length,
        weight: ensembleRequestWeight(points.length, ENSEMBLE_HOURLY.length, members, ENSEMBLE_FETCH_HOURS),
      });
      text = await client.get(ensembleUrl(baseUrl, model, points, apiKey)).text();
    } catch (error) {
      throw toEnsembleError(error, timeoutMs);
    }
    const locations = parseBody(text, points.length);
    const now = clock();
    return locations.map((location, i) =>
      toSeries(points[i] ?? { lat: location.latitude, lon: location.longitude }, location, {
        model,
        members,
        runAt,
        nowMs: now,
      }),
    );
  }

  return { id: 'open-meteo', model, members, currentRun, hourly };
}

function ensembleUrl(
  baseUrl: string,
  model: string,
  points: readonly LatLon[],
  apiKey: string | undefined,
): string {
  const list = (pick: (p: LatLon) => number) =>
    points.map((p) => String(roundHalfAway(pick(p), 4))).join(',');
  const query = [
    `latitude=${list((p) => p.lat)}`,
    `longitude=${list((p) => p.lon)}`,
    `models=${model}`,
    `hourly=${ENSEMBLE_HOURLY.join(',')}`,
    'wind_speed_unit=kmh',
    `forecast_hours=${ENSEMBLE_FETCH_HOURS}`,
    'timeformat=unixtime',
    'timezone=GMT',
    ...(apiKey ? [`apikey=${encodeURIComponent(apiKey)}`] : []),
  ];
  return `${baseUrl}/v1/ensemble?${query.join('&')}`;
}

function parseBody(text: string, expected: number): Location[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable();
  }
  const parsed = AnswerSchema.safeParse(json);
  if (!parsed.success) throw unreadable();
  const locations = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  if (locations.length !== expected) throw unreadable();
  const speedUnits = locations.flatMap((l) =>
    Object.entries(l.hourly_units).filter(([name]) => name.startsWith('wind_speed_10m')),
  );
  if (speedUnits.some(([, unit]) => unit !== 'km/h')) throw unreadable();
  return locations;
}

function unreadable(): ForecastError {
  return new ForecastError('malformed', `${SERVICE} returned data we could not read.`);
}

const within = (value: number | null | undefined, bounds: { min: number; max: number }): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= bounds.min && value <= bounds.max;

interface SeriesContext {
  readonly model: string;
  readonly members: number;
  readonly runAt: number | null;
  readonly nowMs: number;
}

/**
 * The hours from the current one on, each kept only when EVERY member has a
 * possible speed (0–400 km/h) and direction (0–360°): an hour short of a
 * member, or with an absurd figure in one, has no probability and is
 * counted. A member series of another length than `time` is ragged: the
 * location's hours are all counted unusable, never aligned by guess.
 */
function toSeries(point: LatLon, location: Location, context: SeriesContext): EnsembleSeries | null {
  const h = location.hourly;
  const from = hourStart(context.nowMs);
  const speeds: (readonly (number | null)[] | undefined)[] = [];
  const directions: (readonly (number | null)[] | undefined)[] = [];
  for (let m = 0; m < context.members; m++) {
    speeds.push(h[memberKey('wind_speed_10m', m)]);
    directions.push(h[memberKey('wind_direction_10m', m)]);
  }
  const series = { point, model: context.model, members: context.members, runAt: context.runAt };
  const fetchedAt = Math.floor(context.nowMs / 1000);
  const inHorizon = h.time.filter((t) => t === null || t >= from).length;
  const ragged = [...speeds, ...directions].some((v) => v !== undefined && v.length !== h.time.length);
  if (ragged) return { ...series, fetchedAt, stale: false, hours: [], unusableHours: Math.max(1, inHorizon) };

  const hours: EnsembleSample[] = [];
  let unusable = 0;
  let last = -Infinity;
  h.time.forEach((time, i) => {
    if (time !== null && time < from) return;
    if (time === null || !Number.isInteger(time) || time % 3600 !== 0 || time <= last) {
      unusable += 1;
      return;
    }
    const speedKmh = new Array<number>(context.members);
    const directionDeg = new Array<number>(context.members);
    for (let m = 0; m < context.members; m++) {
      const speed = speeds[m]?.[i];
      const direction = directions[m]?.[i];
      if (!within(speed, FORECAST_BOUNDS.speedKmh) || !within(direction, FORECAST_BOUNDS.directionDeg)) {
        unusable += 1;
        return;
      }
      speedKmh[m] = speed;
      directionDeg[m] = direction === 360 ? 0 : direction;
    }
    hours.push({ time, speedKmh, directionDeg });
    last = time;
  });
  if (hours.length === 0 && unusable === 0) return null;
  return { ...series, fetchedAt, stale: false, hours, unusableHours: unusable };
}

/** Messages name the service and what happens, never the URL (it may hold the API key). */
function toEnsembleError(error: unknown, timeoutMs: number): ForecastError {
  if (isTimeoutError(error)) {
    return new ForecastError('timeout', `${SERVICE} did not answer within ${timeoutMs / 1000} s.`);
  }
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status === 429) return new ForecastError('rate_limited', `${SERVICE} is rate-limiting us.`);
    return new ForecastError('upstream_error', `${SERVICE} failed (HTTP ${status}).`);
  }
  return new ForecastError('network', `We could not reach ${SERVICE}.`);
}
