/**
 * Each setting as its module saw it before the one settings schema: the
 * environment goes through `readSettings` (so the schema's checks and
 * messages apply) and then into the builder the composition root calls.
 * The tests that pin one setting's behaviour keep their assertions this way.
 */
import { readSettings, storeConfigOf } from '../../src/app/settings.ts';
import { startAlerts } from '../../src/alerts/schedule.ts';
import type { AlertJobDeps } from '../../src/alerts/run.ts';
import { authConfigFor } from '../../src/auth/secret.ts';
import { createForecast, type ForecastDeps } from '../../src/data/forecast/select-forecast.ts';
import { createGeocoder } from '../../src/data/geocoding/select-geocoder.ts';
import { loadSegments } from '../../src/data/segments/load.ts';
import { mcpGuardConfig } from '../../src/mcp/endpoint-guard.ts';
import type { StoreConfig } from '../../src/store/database.ts';

type Env = Readonly<Record<string, string | undefined>>;

export const forecastFromEnv = (env: Env, deps: ForecastDeps = {}) =>
  createForecast(readSettings(env).forecast, deps);

export const geocoderFromEnv = (env: Env) => createGeocoder(readSettings(env).geocoder);

export const segmentsFromEnv = (env: Env) => loadSegments(readSettings(env).segmentsFile);

export const storeConfigFromEnv = (env: Env, cwd?: string) => storeConfigOf(readSettings(env), cwd);

export const mcpConfigFromEnv = (env: Env) => mcpGuardConfig(readSettings(env).mcp);

export const alertIntervalFromEnv = (env: Env) => readSettings(env).alertsIntervalMs;

export const startAlertsFromEnv = (env: Env, deps: AlertJobDeps) =>
  startAlerts(readSettings(env).alertsIntervalMs, deps);

export function authConfigFromEnv(env: Env, store: StoreConfig, log?: (line: string) => void) {
  const settings = readSettings(env);
  const { authSecret: secret, onVercel, siteOrigin } = settings;
  const { allowedHosts } = mcpGuardConfig(settings.mcp);
  return authConfigFor({ secret, onVercel, siteOrigin, allowedHosts }, store, log);
}
