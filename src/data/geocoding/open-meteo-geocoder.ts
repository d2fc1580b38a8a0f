import { openMeteoGeocodingOrigin } from '../open-meteo-endpoints.ts';
import ky, { HTTPError, SchemaValidationError, TimeoutError } from 'ky';
import { z } from 'zod';
import { OpenMeteoErrorSchema } from '../forecast/open-meteo-request.ts';
import { foldName } from '../names.ts';
import { inQueryScope, parsePlaceQuery, type PlaceQuery } from './qualifier.ts';
import { GeocodingError, type Geocoder, type Place } from './types.ts';

/** One result of Open-Meteo's `/v1/search`; only the fields a Place needs are checked. */
export const OpenMeteoPlaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country_code: z.string().length(2).optional(),
  population: z.number().optional(),
  /** First-level region: its name in `language` and its GeoNames id. */
  admin1: z.string().optional(),
  admin1_id: z.number().optional(),
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
 * How many results to ask for when a region qualifier narrows the search.
 * The API filters by country but not by region, so the region is applied to
 * its answer; 100 is the API's maximum, enough for the commonest names
 * ("Springfield", "Santa Rosa") to include the one in the named region.
 */
export const REGION_SEARCH_COUNT = 100;

/**
 * The online geocoder, for deployments that want Open-Meteo's larger and
 * fresher place list over the embedded gazetteer. It reads qualifiers as the
 * gazetteer does: a lone country becomes the API's `countryCode`; a region
 * ("Boulder, Colorado", "Boulder, CO") is matched against each result's
 * `admin1_id` (the region's GeoNames id) or `admin1` name, since the API has
 * no region filter. Its `suggest` only offers the name before a comma, in
 * any country: the API already matches spellings loosely, so a search that
 * found nothing leaves no closer spelling to offer. Islands and cycling
 * regions are the gazetteer's own and are not known here.
 */
export function createOpenMeteoGeocoder(options: OpenMeteoGeocoderOptions = {}): Geocoder {
  const { apiKey, timeoutMs = 5000, language = 'en', backoffLimitMs = 2000 } = options;
  const origin = options.baseUrl ?? openMeteoGeocodingOrigin(apiKey);
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
    const parsed = parsePlaceQuery(query);
    if (foldName(parsed.name) === '' || !(limit >= 1)) return [];
    const [country] = parsed.countries;
    // "Paris, US", "London, CA": a country reading goes first; its region readings only when it finds nothing.
    if (country !== undefined) {
      const inCountry = await searchOnce({ ...parsed, regions: [] }, limit, country);
      if (inCountry.length > 0 || parsed.regions.length === 0) return inCountry;
    }
    // Regions all in one country ("Santa Rosa, California") let the API narrow to that country.
    const regionCountries = new Set(parsed.regions.map((region) => region.countryCode));
    const [only] = regionCountries;
    return searchOnce({ ...parsed, countries: [] }, limit, regionCountries.size === 1 ? only : undefined);
  }

  async function searchOnce(
    parsed: PlaceQuery,
    limit: number,
    country: string | undefined,
  ): Promise<Place[]> {
    const folded = foldName(parsed.name);
    const byRegion = parsed.regions.length > 0;
    const searchParams = new URLSearchParams({
      name: parsed.name.trim(),
      count: String(byRegion ? REGION_SEARCH_COUNT : Math.min(Math.floor(limit), 100)),
    });
    searchParams.set('language', language);
    searchParams.set('format', 'json');
    if (country !== undefined) searchParams.set('countryCode', country);
    if (apiKey !== undefined) searchParams.set('apikey', apiKey);
    const body = await request(() =>
      client.get(`${origin}/v1/search`, { searchParams }).json(OpenMeteoSearchSchema),
    );
    const places: Place[] = [];
    for (const result of body.results ?? []) {
      if (result.country_code === undefined) continue; // oceans, Antarctica: no "Name, CC"
      const countryCode = result.country_code.toUpperCase();
      const where = { countryCode, regionId: result.admin1_id, regionName: result.admin1 };
      if (!inQueryScope(parsed, where)) continue;
      places.push({
        name: result.name,
        countryCode,
        lat: result.latitude,
        lon: result.longitude,
        population: result.population ?? null,
        ...(result.admin1 === undefined ? {} : { region: result.admin1 }),
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
