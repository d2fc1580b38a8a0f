/** A named place a tool can search around. */
export interface Place {
  readonly name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  readonly countryCode: string;
  readonly lat: number;
  readonly lon: number;
  /** Null when the source gives none. */
  readonly population: number | null;
  /** The first-level region's name ("Colorado", "Catalonia"), when the source gives one. */
  readonly region?: string | null;
  /** A town (the default), or an island, cycling region or lake found by its name. */
  readonly kind?: PlaceKind;
  /** For an island, region or lake: how far it reaches from its point, metres; a search radius hint. */
  readonly radiusM?: number | null;
  /**
   * Set on a first answer that another place of that name ranks close behind
   * (see the geocoder), so the caller can ask which one is meant.
   */
  readonly ambiguous?: boolean;
}

export type PlaceKind = 'town' | 'island' | 'region' | 'lake';

/**
 * Finds places by name. The query may end in a country ("Paris, US"), a
 * first-level region ("Boulder, Colorado", "Boulder, CO") or both
 * ("Santa Rosa, California, US"). Results are best first (see each
 * geocoder for its ranking); the rest are the alternatives.
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
