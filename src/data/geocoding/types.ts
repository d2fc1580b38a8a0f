/** A named place a tool can search around. */
export interface Place {
  readonly name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  readonly countryCode: string;
  readonly lat: number;
  readonly lon: number;
  /** Null when the source gives none. */
  readonly population: number | null;
}

/**
 * Finds places by name. The query may end in a ", CC" country qualifier
 * ("Paris, US"). Results are best first: exact name matches ranked by
 * population, then other matches.
 */
export interface Geocoder {
  readonly id: 'gazetteer' | 'open-meteo';
  search(query: string, limit: number): Promise<readonly Place[]>;
  /** Close spellings to offer when `search` finds nothing ("Did you mean …"). */
  suggest(query: string, limit: number): Promise<readonly string[]>;
}

export type GeocodingFailure =
  'timeout' | 'rate_limited' | 'rejected' | 'upstream_error' | 'malformed' | 'network' | 'unavailable';

/**
 * The one error a geocoder throws. Its message is written for an assistant
 * (what happened, what to do next: usually retry or pass coordinates), so
 * tools can pass it on as it is; `failure` lets code tell the cases apart.
 */
export class GeocodingError extends Error {
  readonly failure: GeocodingFailure;

  constructor(failure: GeocodingFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'GeocodingError';
    this.failure = failure;
  }
}
