/**
 * Where forecasts and the chance of a tailwind come from. The Open-Meteo key
 * and timeout are declared here and also taken by the geocoder (`places.ts`).
 */
import { z } from 'zod';
import { settingField } from './setting-field.ts';
import { anyText, oneOf, wholeNumber } from './text-readers.ts';

export const ForecastSettingsSchema = z.object({
  WOS_FORECAST: settingField<'demo' | 'open-meteo'>({
    group: 'data',
    shownDefault: '`demo`',
    description: '`demo` (synthetic, offline) or `open-meteo` (real forecasts)',
    accepts: '"demo" or "open-meteo"',
    parse: oneOf('demo', 'open-meteo'),
    fallback: 'demo',
  }),
  OPEN_METEO_API_KEY: settingField<string | undefined>({
    group: 'data',
    shownDefault: 'unset',
    description: "Use Open-Meteo's commercial endpoints (forecast and geocoding) with this key",
    accepts: 'an Open-Meteo API key',
    secret: true,
    parse: anyText,
    fallback: undefined,
  }),
  WOS_FORECAST_TIMEOUT_MS: settingField({
    group: 'data',
    shownDefault: '`4000`',
    description: 'Per-attempt timeout of a forecast request (100–60000); 2 retries on 429 and 5xx',
    accepts: 'a whole number of milliseconds from 100 to 60000',
    parse: wholeNumber(100, 60_000),
    fallback: 4000,
  }),
  WOS_ENSEMBLE: settingField<'demo' | 'open-meteo' | 'off' | undefined>({
    group: 'data',
    shownDefault: '`demo` with the demo forecast, else `off`',
    description:
      'Chance of a tailwind from ensemble members: `demo` (synthetic), `open-meteo` (its ensemble API, about 10 calls per location) or `off`',
    accepts: '"demo", "open-meteo" or "off"',
    parse: oneOf('demo', 'open-meteo', 'off'),
    fallback: undefined,
  }),
  WOS_ENSEMBLE_MODEL: settingField<'ecmwf_ifs025' | 'gfs025'>({
    group: 'data',
    shownDefault: '`ecmwf_ifs025`',
    description: 'Ensemble model: `ecmwf_ifs025` (ECMWF IFS, 51 members) or `gfs025` (NCEP GEFS, 31 members)',
    accepts: '"ecmwf_ifs025" or "gfs025"',
    parse: oneOf('ecmwf_ifs025', 'gfs025'),
    fallback: 'ecmwf_ifs025',
  }),
});

type ForecastEnvironment = z.infer<typeof ForecastSettingsSchema>;

/** The deterministic forecast's source, key and per-attempt timeout. */
export function forecastOf(v: ForecastEnvironment) {
  return { source: v.WOS_FORECAST, apiKey: v.OPEN_METEO_API_KEY, timeoutMs: v.WOS_FORECAST_TIMEOUT_MS };
}

/**
 * The ensemble behind the chance of a tailwind. Real forecasts never come with
 * demo probabilities unasked: the ensemble follows the forecast to `demo`, and
 * real ensembles (paid per member) are only ever switched on explicitly.
 */
export function ensembleOf(v: ForecastEnvironment) {
  return {
    source: v.WOS_ENSEMBLE ?? (v.WOS_FORECAST === 'demo' ? 'demo' : 'off'),
    model: v.WOS_ENSEMBLE_MODEL,
    apiKey: v.OPEN_METEO_API_KEY,
    timeoutMs: v.WOS_FORECAST_TIMEOUT_MS,
  };
}
