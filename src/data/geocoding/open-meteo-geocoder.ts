import ky, { HTTPError, SchemaValidationError, TimeoutError } from 'ky';
import { z } from 'zod';
import { OpenMeteoErrorSchema } from '../forecast/open-meteo-forecast.ts';
import { foldName } from '../names.ts';
import { splitQualifier } from './qualifier.ts';
import { GeocodingError, type Geocoder, type Place } from './types.ts';

/** One result of Open-Meteo's `/v1/search`; only the fields a Place needs are checked. */
export const OpenMeteoPlaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country_code: z.string().length(2).optional(),
  population: z.number().optional(),
});

/** `results` is absent, not empty, when nothing matches. */
export const OpenMeteoSearchSchema = z.object({
  results: z.array(OpenMeteoPlaceSchema).optional(),
  generationtime_ms: z.number().optional(),
});

export interface OpenMeteoGeocoderOptions {
  readonly fetch?: typeof globalThis.fetch;
  /** Defaults to the free endpoint, or the customer endpoint when `apiKey` is set. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Per attempt; the whole call, retries included, gets three times this. */
  readonly timeoutMs?: number;
  readonly language?: string;
  /** Upper bound of the wait between retries; tests set it low. */
  readonly backoffLimitMs?: number;
}

const FALLBACK = 'pass latitude and longitude instead';

/**
 * The online geocoder, for deployments that want Open-Meteo's larger and
 * fresher place list over the embedded gazetteer. Its `suggest` only offers
 * the name before a comma, in any country ("Paris, Texas" or "Boulder, CO",
 * where CO is Colombia): the API already matches spellings loosely, so a
 * search that found nothing leaves no closer spelling to offer.
 */
export function createOpenMeteoGeocoder(options: OpenMeteoGeocoderOptions = {}): Geocoder {
  const { apiKey, timeoutMs = 5000, language = 'en', backoffLimitMs = 2000 } = options;
  const origin =
    options.baseUrl ?? `https://${apiKey === undefined ? '' : 'customer-'}geocoding-api.open-meteo.com`;
  const client = ky.create({
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    timeout: timeoutMs,
    totalTimeout: timeoutMs * 3,
    retry: {
      limit: 2,
      statusCodes: [429, 500, 502, 503, 504],
      backoffLimit: backoffLimitMs,
      maxRetryAfter: timeoutMs,
    },
  });

  async function search(query: string, limit: number): Promise<readonly Place[]> {
    const { name, countryCode } = splitQualifier(query);
    const folded = foldName(name);
    if (folded === '' || !(limit >= 1)) return [];
    const searchParams = new URLSearchParams({
      name: name.trim(),
      count: String(Math.min(Math.floor(limit), 100)),
    });
    searchParams.set('language', language);
    searchParams.set('format', 'json');
    if (countryCode !== null) searchParams.set('countryCode', countryCode);
    if (apiKey !== undefined) searchParams.set('apikey', apiKey);
    const body = await request(() =>
      client.get(`${origin}/v1/search`, { searchParams }).json(OpenMeteoSearchSchema),
    );
    const places: Place[] = [];
    for (const result of body.results ?? []) {
      if (result.country_code === undefined) continue; // oceans, Antarctica: no "Name, CC"
      places.push({
        name: result.name,
        countryCode: result.country_code.toUpperCase(),
        lat: result.latitude,
        lon: result.longitude,
        population: result.population ?? null,
      });
    }
    // Same contract as the gazetteer: exact names first, the API's order otherwise.
    const isName = (place: Place) => foldName(place.name) === folded;
    return [...places.filter(isName), ...places.filter((place) => !isName(place))].slice(0, limit);
  }

  return {
    id: 'open-meteo',
    search,
    async suggest(query, limit) {
      const comma = query.lastIndexOf(',');
      if (comma <= 0) return [];
      const places = await search(query.slice(0, comma), limit);
      return [...new Set(places.map((place) => `${place.name}, ${place.countryCode}`))];
    },
  };
}

/** Runs one API call and turns every way it can fail into a GeocodingError. */
async function request<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toGeocodingError(error);
  }
}

function toGeocodingError(error: unknown): GeocodingError {
  const options = { cause: error };
  if (error instanceof TimeoutError) {
    return new GeocodingError(
      'timeout',
      `The place search service did not answer in time; try again or ${FALLBACK}.`,
      options,
    );
  }
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const rejection = OpenMeteoErrorSchema.safeParse(error.data);
    if (status === 400 && rejection.success) {
      const reason = rejection.data.reason;
      return new GeocodingError(
        'rejected',
        `The place search service rejected the query (${reason}); rephrase the place name or ${FALLBACK}.`,
        options,
      );
    }
    if (status === 429) {
      return new GeocodingError(
        'rate_limited',
        `The place search service is busy right now; try again in a minute or ${FALLBACK}.`,
        options,
      );
    }
    return new GeocodingError(
      'upstream_error',
      `The place search service failed (HTTP ${status}); try again later or ${FALLBACK}.`,
      options,
    );
  }
  if (error instanceof SchemaValidationError || error instanceof SyntaxError) {
    return new GeocodingError(
      'malformed',
      `The place search service sent an answer that could not be read; try again later or ${FALLBACK}.`,
      options,
    );
  }
  return new GeocodingError(
    'network',
    `The place search service could not be reached; try again later or ${FALLBACK}.`,
    options,
  );
}
