import { ForecastError } from './types.ts';

/**
 * Why no forecast could be read, in the two cases a reader acts on
 * differently: this server **cannot reach** the weather service (no network,
 * no DNS, a refused connection: retrying soon changes nothing, the operator
 * must look at the connection), or the service was reached and is **busy**
 * (a time-out, a rate limit, a 5xx, an answer it could not use: it answers
 * again in a while). This file is the one place a forecast failure is sorted
 * into one or the other and said in a sentence; REST turns it into a problem
 * type each (`forecast_unreachable`, `forecast_unavailable`), the MCP tools
 * and the site say the sentence.
 */
export type ForecastReach = 'unreachable' | 'busy';

export interface ForecastOutage {
  readonly reach: ForecastReach;
  /** One sentence for a reader, naming the service and what to do. */
  readonly sentence: string;
  /** When a busy service is worth asking again (Unix seconds, on the minute); null when unreachable. */
  readonly retryAt: number | null;
  /** Seconds from now to `retryAt` (Retry-After), or null. */
  readonly retryAfterS: number | null;
}

/** How long a busy service is left alone: the forecast cache asks again after this. */
export const BUSY_RETRY_S = 60;

/** The services' names as a rider reads them, by forecast source id. */
const SERVICE_NAMES: Readonly<Record<string, string>> = {
  'open-meteo': 'Open-Meteo',
  demo: 'The demo forecast',
};

/** "14:05 UTC": the clock of a retry, the same for every reader wherever they are. */
export function utcClock(unixS: number): string {
  const date = new Date(unixS * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** The reach of a failure: only a request that never got an answer from anyone means "cannot reach". */
export function reachOf(error: ForecastError): ForecastReach {
  return error.failure === 'network' ? 'unreachable' : 'busy';
}

/**
 * The outage a forecast failure means, with its sentence: "This server cannot
 * reach Open-Meteo (no network or DNS): check its connection." or
 * "Open-Meteo is busy: try again at 14:05 UTC." The retry time is the next
 * whole minute at least {@link BUSY_RETRY_S} away. Null for anything that is
 * not a forecast failure (a bug, which stays an internal error).
 */
export function forecastOutage(error: unknown, sourceId: string, nowMs: number): ForecastOutage | null {
  return error instanceof ForecastError ? outageOf(error, sourceId, nowMs) : null;
}

/** The outage of a forecast failure known to be one (see {@link forecastOutage}). */
export function outageOf(error: ForecastError, sourceId: string, nowMs: number): ForecastOutage {
  const name = SERVICE_NAMES[sourceId] ?? sourceId;
  if (reachOf(error) === 'unreachable') {
    return {
      reach: 'unreachable',
      sentence: `This server cannot reach ${name} (no network or DNS): check its connection.`,
      retryAt: null,
      retryAfterS: null,
    };
  }
  const nowS = Math.floor(nowMs / 1000);
  const retryAt = Math.ceil((nowS + BUSY_RETRY_S) / 60) * 60;
  return {
    reach: 'busy',
    sentence: `${name} is busy: try again at ${utcClock(retryAt)}.`,
    retryAt,
    retryAfterS: retryAt - nowS,
  };
}
