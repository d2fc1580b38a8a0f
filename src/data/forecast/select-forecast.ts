import { type CachedForecastSource, createForecastCache } from './cache.ts';
import type { SharedCacheTier } from './cell-cache.ts';
import { createDemoForecast } from './demo.ts';
import type { OpenMeteoOptions } from './open-meteo-forecast.ts';
import { openMeteoForecastOnDemand } from './open-meteo-on-demand.ts';
import type { Clock, ForecastSource, ForecastSourceId } from './types.ts';

/** Test seams: where requests go and what time it is. */
export interface ForecastDeps {
  readonly fetch?: OpenMeteoOptions['fetch'];
  readonly clock?: Clock;
  /** The cache tier every instance shares (Redis when `REDIS_URL` is set). */
  readonly shared?: SharedCacheTier | undefined;
  /** Told of every upstream request's outcome (null: it answered), for the start log and `/health`. */
  readonly watch?: ((failure: unknown) => void) | undefined;
}

/** The source, telling `watch` how each upstream request went; the cache in front keeps the count low. */
function watchedSource(source: ForecastSource, watch: (failure: unknown) => void): ForecastSource {
  return {
    id: source.id,
    async hourly(points) {
      try {
        const answer = await source.hourly(points);
        watch(null);
        return answer;
      } catch (error) {
        watch(error);
        throw error;
      }
    },
  };
}

/** What the settings choose: the source, Open-Meteo's commercial key, the per-attempt timeout. */
export interface ForecastChoice {
  readonly source: ForecastSourceId;
  readonly apiKey?: string | undefined;
  readonly timeoutMs?: number | undefined;
  /** Another Open-Meteo instance's forecast endpoint (your own, or a test double). */
  readonly baseUrl?: string | undefined;
}

/**
 * Builds the chosen forecast, always behind the cache. The settings default
 * to `demo` so an offline `npm start` works; real weather (`open-meteo`) must
 * be chosen explicitly, and an API key switches to the commercial endpoint.
 * Open-Meteo's module loads with the first request (`open-meteo-on-demand.ts`).
 */
export function createForecast(choice: ForecastChoice, deps: ForecastDeps = {}): CachedForecastSource {
  const clockDeps = deps.clock ? { clock: deps.clock } : {};
  const cacheOptions = { ...clockDeps, ...(deps.shared ? { shared: deps.shared } : {}) };
  if (choice.source === 'demo') return createForecastCache(createDemoForecast(clockDeps), cacheOptions);
  const source = openMeteoForecastOnDemand({
    ...clockDeps,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
    ...(choice.timeoutMs === undefined ? {} : { timeoutMs: choice.timeoutMs }),
    ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}),
  });
  return createForecastCache(deps.watch ? watchedSource(source, deps.watch) : source, cacheOptions);
}
