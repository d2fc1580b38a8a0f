import { lazyGazetteer } from './gazetteer.ts';
import { createOpenMeteoGeocoder } from './open-meteo-geocoder.ts';
import type { Geocoder } from './types.ts';

/** What the settings choose: `gazetteer` (offline, no key) or `open-meteo`, with the optional customer key. */
export interface GeocoderChoice {
  readonly source: 'gazetteer' | 'open-meteo';
  /** Shared with the forecast adapter; switches Open-Meteo to its customer endpoint. */
  readonly apiKey?: string | undefined;
}

/**
 * Builds the chosen geocoder. The gazetteer is the default so the server
 * answers place names with no network and no third-party rate limit; it is
 * read lazily, on the first place query.
 */
export function createGeocoder(choice: GeocoderChoice): Geocoder {
  if (choice.source === 'gazetteer') return lazyGazetteer();
  return createOpenMeteoGeocoder(choice.apiKey ? { apiKey: choice.apiKey } : {});
}
