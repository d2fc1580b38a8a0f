import { isHTTPError, isNetworkError, isTimeoutError, type Options } from 'ky';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import {
  createOpenMeteoClient,
  errorBody,
  OPEN_METEO_TIMEOUT_MS,
  OpenMeteoErrorSchema,
} from '../forecast/open-meteo-request.ts';
import { DiscoveryError } from './discovery-error.ts';
import type { ElevationSource } from './types.ts';

/** The free endpoint of Open-Meteo's Elevation API. */
export const OPEN_METEO_ELEVATION_URL = 'https://api.open-meteo.com/v1/elevation';

/** Open-Meteo answers at most this many coordinates per request (a 400 beyond). */
export const OPEN_METEO_ELEVATION_MAX_POINTS = 100;

/** Two requests at a time: a long road is a few batches, and the free API is shared. */
const DEFAULT_CONCURRENCY = 2;

/** Five decimals is about 1 m, well inside a 90 m DEM cell; more only lengthens the URL. */
const COORDINATE_DECIMALS = 5;

/** A reason quoted from a 400 is cut here, so a runaway body cannot flood a log line. */
const REASON_LIMIT = 200;

/** The success body: one height in metres per coordinate, in request order. */
export const OpenMeteoElevationSchema = z.object({ elevation: z.array(z.number()) });

export interface OpenMeteoElevationOptions {
  /** The endpoint, e.g. {@link OPEN_METEO_ELEVATION_URL} or a self-hosted instance. */
  readonly url: string;
  readonly fetch?: NonNullable<Options['fetch']>;
  /** Per request; defaults to the forecast's {@link OPEN_METEO_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Requests in flight at once; defaults to 2. */
  readonly concurrency?: number;
}

/**
 * Heights from Open-Meteo's Elevation API (Copernicus DEM GLO-90), in
 * batches of at most 100 points, a couple of requests at a time.
 *
 * Requests are not retried: discovery is a batch job, and a `busy` answer
 * tells its caller to back off for longer than a tool call could wait. The
 * first failed batch aborts the ones in flight, so a fault costs no more
 * requests than it must. An Open Topo Data server is not accepted: its wire
 * format differs (`locations=lat,lon|…`, `results[].elevation`) and nothing
 * needs it yet.
 */
export function openMeteoElevationSource(options: OpenMeteoElevationOptions): ElevationSource {
  const host = new URL(options.url).host;
  const service = `Open-Meteo's elevation API (${host})`;
  const timeoutMs = options.timeoutMs ?? OPEN_METEO_TIMEOUT_MS;
  const client = createOpenMeteoClient({ ...options, timeoutMs, retries: 0 }, 0);
  const limit = pLimit(Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY));

  async function batch(
    points: readonly LatLon[],
    signal: AbortSignal,
    caller?: AbortSignal,
  ): Promise<number[]> {
    if (signal.aborted) throw aborted(service);
    let text: string;
    try {
      text = await client.get(`${options.url}?${elevationQuery(points)}`, { signal }).text();
    } catch (error) {
      throw toDiscoveryError(error, service, timeoutMs, caller);
    }
    return parseElevations(text, points.length, service);
  }

  async function elevations(points: readonly LatLon[], signal?: AbortSignal): Promise<number[]> {
    if (points.length === 0) return [];
    if (signal?.aborted) throw aborted(service);
    const failed = new AbortController();
    const combined = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
    const batches: LatLon[][] = [];
    for (let i = 0; i < points.length; i += OPEN_METEO_ELEVATION_MAX_POINTS) {
      batches.push(points.slice(i, i + OPEN_METEO_ELEVATION_MAX_POINTS));
    }
    try {
      const heights = await Promise.all(batches.map((b) => limit(() => batch(b, combined, signal))));
      return heights.flat();
    } catch (error) {
      failed.abort();
      throw error;
    }
  }

  return { label: `Copernicus DEM GLO-90 via Open-Meteo (${host})`, elevations };
}

/** `latitude=a,b,…&longitude=x,y,…`, each to five decimals. */
function elevationQuery(points: readonly LatLon[]): string {
  const list = (pick: (p: LatLon) => number) =>
    points.map((p) => String(roundHalfAway(pick(p), COORDINATE_DECIMALS))).join(',');
  return `latitude=${list((p) => p.lat)}&longitude=${list((p) => p.lon)}`;
}

/**
 * One height per point asked, each a finite number. Open-Meteo writes `NaN`
 * (not JSON) where its DEM has no cell; that answer is malformed here, like
 * any other body we cannot read, rather than a height guessed for it.
 */
function parseElevations(text: string, expected: number, service: string): number[] {
  const malformed = (what: string) => new DiscoveryError('malformed', `${service} ${what}.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed('answered with something that is not JSON');
  }
  const parsed = OpenMeteoElevationSchema.safeParse(json);
  if (!parsed.success) throw malformed('answered without a list of finite heights');
  const heights = parsed.data.elevation;
  if (heights.length !== expected) {
    throw malformed(`answered ${heights.length} heights for ${expected} points`);
  }
  return heights;
}

function aborted(service: string): DiscoveryError {
  return new DiscoveryError('timeout', `The request to ${service} was aborted.`);
}

/** The one place a failed request becomes a {@link DiscoveryError}; messages never hold the URL. */
function toDiscoveryError(
  error: unknown,
  service: string,
  timeoutMs: number,
  caller?: AbortSignal,
): DiscoveryError {
  const options = { cause: error };
  if (isTimeoutError(error)) {
    return new DiscoveryError('timeout', `${service} did not answer within ${timeoutMs / 1000} s.`, options);
  }
  if (caller?.aborted) return aborted(service);
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status === 429)
      return new DiscoveryError('busy', `${service} is rate-limiting us (HTTP 429).`, options);
    if (status >= 500)
      return new DiscoveryError('busy', `${service} is busy or failing (HTTP ${status}).`, options);
    const reason = OpenMeteoErrorSchema.safeParse(errorBody(error.data)).data?.reason;
    if (reason) {
      const said = reason
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.\s]+$/, '')
        .slice(0, REASON_LIMIT);
      return new DiscoveryError('refused', `${service} refused the request: ${said}.`, options);
    }
    return new DiscoveryError('refused', `${service} refused the request (HTTP ${status}).`, options);
  }
  const unexpected = isNetworkError(error) ? '' : ' (unexpected failure)';
  return new DiscoveryError('unreachable', `${service} could not be reached${unexpected}.`, options);
}
