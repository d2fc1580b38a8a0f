import { type CachedForecastSource, createForecastCache } from './cache.ts';
import { createDemoForecast } from './demo.ts';
import { createOpenMeteoForecast, type OpenMeteoOptions } from './open-meteo-forecast.ts';
import type { Clock, ForecastSourceId } from './types.ts';

/** Test seams: where requests go and what time it is. */
export interface ForecastDeps {
  readonly fetch?: OpenMeteoOptions['fetch'];
  readonly clock?: Clock;
}

const SOURCES: readonly ForecastSourceId[] = ['demo', 'open-meteo'];

/**
 * Builds the forecast from the environment, always behind the cache.
 * `WOS_FORECAST` defaults to `demo` so an offline `npm start` works; real
 * weather (`open-meteo`) must be chosen explicitly. `OPEN_METEO_API_KEY`
 * switches to the commercial endpoint; `WOS_FORECAST_TIMEOUT_MS` sets the
 * per-attempt timeout. Bad values stop start-up with a message saying why.
 */
export function forecastFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  deps: ForecastDeps = {},
): CachedForecastSource {
  const choice = env['WOS_FORECAST']?.trim() || 'demo';
  const clockDeps = deps.clock ? { clock: deps.clock } : {};
  if (choice === 'demo') return createForecastCache(createDemoForecast(clockDeps), clockDeps);
  if (choice !== 'open-meteo') {
    const allowed = SOURCES.map((s) => `"${s}"`).join(' or ');
    throw new Error(`WOS_FORECAST must be ${allowed}, not "${choice}" (unset, it means "demo").`);
  }
  const apiKey = env['OPEN_METEO_API_KEY']?.trim();
  const timeoutMs = parseTimeout(env['WOS_FORECAST_TIMEOUT_MS']);
  const source = createOpenMeteoForecast({
    ...clockDeps,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  return createForecastCache(source, clockDeps);
}

function parseTimeout(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 100 || value > 60_000) {
    throw new Error(
      `WOS_FORECAST_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000, not "${text}".`,
    );
  }
  return value;
}
