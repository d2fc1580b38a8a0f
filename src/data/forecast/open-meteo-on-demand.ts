/**
 * Open-Meteo's forecast and ensemble sources, their modules loaded with
 * their first request: those modules bring `ky`, the request helpers and
 * the zod schemas of Open-Meteo's answers (about 45 KB in a function
 * bundle), which a deployment on the demo forecast never needs and a live
 * one's cold start need not compile before its first call asks for weather.
 * The sources behave as the ones they stand for (`select-forecast.ts`,
 * `select-ensemble.ts`); what an ensemble says of itself (its model and
 * member count) comes from the model table without loading anything.
 */
import type { LatLon } from '../../core/bearing.ts';
import { ENSEMBLE_MODELS, type EnsembleModelId, type EnsembleSource } from './ensemble-types.ts';
import type { OpenMeteoEnsembleOptions } from './open-meteo-ensemble.ts';
import type { OpenMeteoOptions } from './open-meteo-forecast.ts';
import type { ForecastSource } from './types.ts';

/** `createOpenMeteoForecast(options)`, made on the first request. */
export function openMeteoForecastOnDemand(options: OpenMeteoOptions): ForecastSource {
  let source: Promise<ForecastSource> | undefined;
  const loaded = () =>
    (source ??= import('./open-meteo-forecast.ts').then((module) => module.createOpenMeteoForecast(options)));
  return { id: 'open-meteo', hourly: async (points: readonly LatLon[]) => (await loaded()).hourly(points) };
}

/** `createOpenMeteoEnsemble(options)` for `model`, made on the first request. */
export function openMeteoEnsembleOnDemand(
  options: OpenMeteoEnsembleOptions & { readonly model: EnsembleModelId },
): EnsembleSource {
  let source: Promise<EnsembleSource> | undefined;
  const loaded = () =>
    (source ??= import('./open-meteo-ensemble.ts').then((module) => module.createOpenMeteoEnsemble(options)));
  return {
    id: 'open-meteo',
    model: options.model,
    members: ENSEMBLE_MODELS[options.model].members,
    currentRun: async () => (await loaded()).currentRun(),
    hourly: async (points) => (await loaded()).hourly(points),
  };
}
