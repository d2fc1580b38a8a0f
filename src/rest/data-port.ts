import type { ResolvedUrls } from '../http/public-urls.ts';
import type { SegmentsNearQuery, WindQuery } from './schemas/data-queries.ts';
import type { WindForecastResult } from './schemas/forecast-result.ts';
import type { SegmentDetailResult, SegmentsNearResult } from './schemas/segment-results.ts';

/** One decision of the per-client limit of the data endpoints. */
export interface DataAdmission {
  readonly allowed: boolean;
  /** Seconds until a request is allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

/**
 * What the data endpoints (`/v1/wind`, `/v1/segments`, `/v1/segments/{id}`)
 * read, as a port the composition root fills (`src/app/rest-data.ts`): the
 * forecast, the catalog and the geocoder sit behind it, and the answers are
 * built there from the code below both surfaces that the MCP tools answer
 * with too (never through a tool: decision 0035). The REST layer
 * imports no data code, so `/v1/tailwind` and the REST function's cold start
 * load none of it; the first data request loads it through the composition
 * root's `import()`.
 *
 * Each method either answers or throws an `ApiError` with a documented code
 * (place_not_found, unknown_segment, forecast_unavailable,
 * place_search_unavailable); anything else becomes internal_error.
 */
export interface RestData {
  /** The hours of the forecast cell holding the point. */
  wind(query: WindQuery, urls: ResolvedUrls): Promise<WindForecastResult>;
  /** The catalog segments near a place or a point, at most `limit` of them (no byte budget). */
  segmentsNear(query: SegmentsNearQuery, urls: ResolvedUrls): Promise<SegmentsNearResult>;
  /** One catalog segment (never a rider's own), or undefined when no catalog segment has the id. */
  segment(id: string, urls: ResolvedUrls): Promise<SegmentDetailResult | undefined>;
  /** Takes one request from the client's allowance (shared through Redis when configured). */
  admit(client: string): Promise<DataAdmission>;
  /** Milliseconds since the epoch: the cache lifetimes count to the next forecast hour from it. */
  now(): number;
}

/** The port as the replier receives it: built on the first data request. */
export type RestDataSource = () => Promise<RestData>;

/**
 * The data endpoints' allowance per client address: a window of `burst`
 * requests lasting `burst / perMinute` minutes. Generous enough for a page
 * judging a 300 km route (about one `/v1/wind` per 0.05° cell it crosses, so
 * under a hundred at once), tight enough that one address cannot drive the
 * forecast, place search and discovery services the answers reach.
 */
export const DATA_RATE_LIMIT = { perMinute: 120, burst: 120 } as const;
