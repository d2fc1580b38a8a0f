import { lazyGazetteer } from './gazetteer.ts';
import { createOpenMeteoGeocoder } from './open-meteo-geocoder.ts';
import type { Geocoder } from './types.ts';

/** The environment variables that choose and configure the geocoder. */
export interface GeocoderEnv {
  /** `gazetteer` (default: offline, no network, no key) or `open-meteo`. */
  readonly WOS_GEOCODER?: string | undefined;
  /** Shared with the forecast adapter; switches Open-Meteo to its customer endpoint. */
  readonly OPEN_METEO_API_KEY?: string | undefined;
}

/**
 * Picks the geocoder once at start-up. The gazetteer is the default so the
 * server answers place names with no network and no third-party rate limit;
 * it is read lazily, on the first place query. An unknown value fails loudly
 * rather than silently falling back, so a typo in the deployment shows.
 */
export function geocoderFromEnv(env: GeocoderEnv): Geocoder {
  const choice = env.WOS_GEOCODER?.trim() || 'gazetteer';
  if (choice === 'gazetteer') return lazyGazetteer();
  if (choice === 'open-meteo') {
    const apiKey = env.OPEN_METEO_API_KEY?.trim();
    return createOpenMeteoGeocoder(apiKey ? { apiKey } : {});
  }
  throw new Error(`WOS_GEOCODER must be "gazetteer" or "open-meteo", not "${choice}".`);
}
