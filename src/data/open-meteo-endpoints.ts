/**
 * Where Open-Meteo's APIs are, free and commercial, in one small file with no imports: the adapters
 * default to these, and the settings (src/app/settings/) resolve each live source's URL from them, so
 * the start log and `/health` name the address really asked without loading an adapter. Without an
 * API key the free hosts serve non-commercial use; with one, the `customer-` hosts.
 */

/** The forecast API's endpoint, free or commercial. */
export function openMeteoForecastUrl(apiKey: string | undefined): string {
  return apiKey
    ? 'https://customer-api.open-meteo.com/v1/forecast'
    : 'https://api.open-meteo.com/v1/forecast';
}

/** The ensemble API's origin (it serves `/v1/ensemble` and `/data/<model>/static/meta.json`). */
export function openMeteoEnsembleOrigin(apiKey: string | undefined): string {
  return apiKey ? 'https://customer-ensemble-api.open-meteo.com' : 'https://ensemble-api.open-meteo.com';
}

/** The geocoding API's origin (it serves `/v1/search`). */
export function openMeteoGeocodingOrigin(apiKey: string | undefined): string {
  return apiKey ? 'https://customer-geocoding-api.open-meteo.com' : 'https://geocoding-api.open-meteo.com';
}
