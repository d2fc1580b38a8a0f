import { openMeteoEnsembleOrigin } from '../open-meteo-endpoints.ts';
import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import {
  ENSEMBLE_FETCH_HOURS,
  ENSEMBLE_MODELS,
  ensembleRequestWeight,
  type EnsembleModelId,
  type EnsembleRequest,
  type EnsembleSeries,
  type EnsembleSource,
} from './ensemble-types.ts';
import {
  createOpenMeteoClient,
  type FailureWording,
  OPEN_METEO_TIMEOUT_MS,
  type OpenMeteoRequestOptions,
  openMeteoQuery,
  parseLocations,
  toForecastError,
} from './open-meteo-request.ts';
import { FORECAST_BOUNDS, isNextHour, isPossible } from './validate.ts';
import { type Clock, ForecastError, hourStart } from './types.ts';

/** Only the wind: each variable is paid for once per member. */
export const ENSEMBLE_HOURLY = ['wind_speed_10m', 'wind_direction_10m'] as const;

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

export interface OpenMeteoEnsembleOptions extends OpenMeteoRequestOptions {
  /** Defaults to the commercial host when `apiKey` is set, else the free one. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly model?: EnsembleModelId;
  readonly clock?: Clock;
  /** Told of every ensemble request sent, with its weight: the app logs and counts it. */
  readonly onRequest?: (request: EnsembleRequest) => void;
}

const SERVICE = 'The ensemble weather service Open-Meteo';

/**
 * A failed ensemble only costs the answer its chance of a tailwind (the
 * forecast stands), so the messages say what happened, not what to do.
 */
const WORDING: FailureWording = {
  timeout: (seconds) => `${SERVICE} did not answer within ${seconds} s.`,
  rateLimited: `${SERVICE} is rate-limiting us.`,
  failed: (status) => `${SERVICE} failed (HTTP ${status}).`,
  unreachable: () => `We could not reach ${SERVICE}.`,
  malformed: `${SERVICE} returned data we could not read.`,
};

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
  const baseUrl = options.baseUrl ?? openMeteoEnsembleOrigin(apiKey);
  const model = options.model ?? 'ecmwf_ifs025';
  const { members, metaDomain } = ENSEMBLE_MODELS[model];
  const timeoutMs = options.timeoutMs ?? OPEN_METEO_TIMEOUT_MS;
  const clock = options.clock ?? Date.now;
  const client = createOpenMeteoClient(options, 1);
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
      throw toForecastError(error, timeoutMs, apiKey, WORDING);
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
  const own = [`models=${model}`, `hourly=${ENSEMBLE_HOURLY.join(',')}`];
  return `${baseUrl}/v1/ensemble?${openMeteoQuery(points, own, ENSEMBLE_FETCH_HOURS, apiKey)}`;
}

/** The shared checks, then every speed series' unit: km/h or the answer is unreadable. */
function parseBody(text: string, expected: number): Location[] {
  const locations = parseLocations(text, AnswerSchema, expected, WORDING);
  const speedUnits = locations.flatMap((l) =>
    Object.entries(l.hourly_units).filter(([name]) => name.startsWith('wind_speed_10m')),
  );
  if (speedUnits.some(([, unit]) => unit !== 'km/h')) throw new ForecastError('malformed', WORDING.malformed);
  return locations;
}

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
    if (!isNextHour(time, last)) {
      unusable += 1;
      return;
    }
    const speedKmh = new Array<number>(context.members);
    const directionDeg = new Array<number>(context.members);
    for (let m = 0; m < context.members; m++) {
      const speed = speeds[m]?.[i];
      const direction = directions[m]?.[i];
      if (
        !isPossible(speed, FORECAST_BOUNDS.speedKmh) ||
        !isPossible(direction, FORECAST_BOUNDS.directionDeg)
      ) {
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
