/**
 * Where forecasts and the chance of a tailwind come from. The Open-Meteo key
 * and timeout are declared here and also taken by the geocoder (`places.ts`).
 */
import { openMeteoEnsembleOrigin, openMeteoForecastUrl } from '../../data/open-meteo-endpoints.ts';
import { setting, type SettingValues } from './setting-field.ts';
import { anyText, httpUrl, oneOf, wholeNumber } from './text-readers.ts';

export const FORECAST_SETTINGS = {
  WOS_FORECAST: setting<'demo' | 'open-meteo' | undefined>({
    group: 'data',
    shownDefault: '`demo`; `open-meteo` when live',
    description: '`demo` (synthetic, offline) or `open-meteo` (real forecasts)',
    accepts: '"demo" or "open-meteo"',
    parse: oneOf('demo', 'open-meteo'),
    fallback: undefined,
  }),
  WOS_FORECAST_URL: setting<string | undefined>({
    group: 'data',
    shownDefault: "Open-Meteo's (`customer-api` with a key)",
    description:
      'Forecast API (`…/v1/forecast`) of an Open-Meteo instance: your own (Open-Meteo is open source) or a test double',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  OPEN_METEO_API_KEY: setting<string | undefined>({
    group: 'data',
    shownDefault: 'unset',
    description: "Use Open-Meteo's commercial endpoints (forecast and geocoding) with this key",
    accepts: 'an Open-Meteo API key',
    secret: true,
    parse: anyText,
    fallback: undefined,
  }),
  WOS_FORECAST_TIMEOUT_MS: setting({
    group: 'data',
    shownDefault: '`4000`',
    description: 'Per-attempt timeout of a forecast request (100–60000); 2 retries on 429 and 5xx',
    accepts: 'a whole number of milliseconds from 100 to 60000',
    parse: wholeNumber(100, 60_000),
    fallback: 4000,
  }),
  WOS_ENSEMBLE: setting<'demo' | 'open-meteo' | 'off' | undefined>({
    group: 'data',
    shownDefault: '`demo` with the demo forecast; live: `open-meteo` with `OPEN_METEO_API_KEY`, else `off`',
    description:
      'Chance of a tailwind from ensemble members: `demo` (synthetic), `open-meteo` (its ensemble API, about 10 calls per location) or `off`',
    accepts: '"demo", "open-meteo" or "off"',
    parse: oneOf('demo', 'open-meteo', 'off'),
    fallback: undefined,
  }),
  WOS_ENSEMBLE_MODEL: setting<'ecmwf_ifs025' | 'gfs025'>({
    group: 'data',
    shownDefault: '`ecmwf_ifs025`',
    description: 'Ensemble model: `ecmwf_ifs025` (ECMWF IFS, 51 members) or `gfs025` (NCEP GEFS, 31 members)',
    accepts: '"ecmwf_ifs025" or "gfs025"',
    parse: oneOf('ecmwf_ifs025', 'gfs025'),
    fallback: 'ecmwf_ifs025',
  }),
  WOS_ENSEMBLE_URL: setting<string | undefined>({
    group: 'data',
    shownDefault: "Open-Meteo's (`customer-ensemble-api` with a key)",
    description:
      'Origin of an Open-Meteo ensemble API (it serves `/v1/ensemble` and the models’ `/data/…/meta.json`)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
};

type ForecastEnvironment = SettingValues<typeof FORECAST_SETTINGS>;

/** The deterministic forecast's source (its own setting, else the one switch's), key, URL and per-attempt timeout. */
export function forecastOf(v: ForecastEnvironment, live: boolean) {
  return {
    source: v.WOS_FORECAST ?? (live ? 'open-meteo' : 'demo'),
    apiKey: v.OPEN_METEO_API_KEY,
    timeoutMs: v.WOS_FORECAST_TIMEOUT_MS,
    baseUrl: v.WOS_FORECAST_URL ?? openMeteoForecastUrl(v.OPEN_METEO_API_KEY),
  };
}

/**
 * The ensemble behind the chance of a tailwind. Real forecasts never come with
 * demo probabilities unasked: the ensemble follows the forecast to `demo`. A
 * real ensemble weighs about 10 calls per location (2 variables × 51 members),
 * which Open-Meteo's free, non-commercial tier is not meant to carry, so the
 * one switch turns it on only with a key (its commercial terms cover the
 * weight); without one it stays `off` unless asked for by name.
 */
export function ensembleOf(v: ForecastEnvironment, live: boolean) {
  const forecast = forecastOf(v, live).source;
  const fallback = forecast === 'demo' ? 'demo' : live && v.OPEN_METEO_API_KEY ? 'open-meteo' : 'off';
  return {
    source: v.WOS_ENSEMBLE ?? fallback,
    model: v.WOS_ENSEMBLE_MODEL,
    apiKey: v.OPEN_METEO_API_KEY,
    timeoutMs: v.WOS_FORECAST_TIMEOUT_MS,
    baseUrl: v.WOS_ENSEMBLE_URL ?? openMeteoEnsembleOrigin(v.OPEN_METEO_API_KEY),
  };
}
