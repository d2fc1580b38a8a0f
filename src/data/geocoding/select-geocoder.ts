import type { Geocoder } from './types.ts';

/** What the settings choose: `gazetteer` (offline, no key) or `open-meteo`, with the optional customer key. */
export interface GeocoderChoice {
  readonly source: 'gazetteer' | 'open-meteo';
  /** Shared with the forecast adapter; switches Open-Meteo to its customer endpoint. */
  readonly apiKey?: string | undefined;
  /** Another Open-Meteo geocoding origin (your own, or a test double). */
  readonly baseUrl?: string | undefined;
}

/**
 * Builds the chosen geocoder. The gazetteer is the default so the server
 * answers place names with no network and no third-party rate limit. Either
 * geocoder's module loads on the first place query, not here: a call by
 * coordinates, the common first call of a cold serverless function, then
 * compiles neither the region lookup, the gazetteer reader nor the HTTP
 * client, and reads neither data file.
 */
export function createGeocoder(choice: GeocoderChoice, watch?: (failure: unknown) => void): Geocoder {
  let loading: Promise<Geocoder> | undefined;
  const load = async (): Promise<Geocoder> => {
    if (choice.source === 'gazetteer') return (await import('./gazetteer.ts')).lazyGazetteer();
    const { createOpenMeteoGeocoder } = await import('./open-meteo-geocoder.ts');
    return createOpenMeteoGeocoder({
      ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
      ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}),
    });
  };
  const geocoder = () => (loading ??= load());
  // Only the online geocoder's outcomes are told: the gazetteer is a file, never "down".
  const told = choice.source === 'open-meteo' ? watch : undefined;
  return {
    id: choice.source,
    search: async (query, limit) => {
      const search = (await geocoder()).search(query, limit);
      if (!told) return search;
      return search.then(
        (places) => (told(null), places),
        (error: unknown) => {
          told(error);
          throw error;
        },
      );
    },
    suggest: async (query, limit) => (await geocoder()).suggest(query, limit),
  };
}
