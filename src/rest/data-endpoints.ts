import type * as z from 'zod';
import { ApiError, type ProblemCode } from '../core/problems.ts';
import type { ResolvedUrls } from '../http/public-urls.ts';
import type { RestData, RestDataSource } from './data-port.ts';
import type { DataPath } from './routes.ts';
import { CACHE, jsonReply, type Reply } from './headers.ts';
import { parseQuery } from './query.ts';
import type { RequestTarget } from './request-target.ts';
import {
  SegmentIdSchema,
  SegmentsNearQuerySchema,
  WindQuerySchema,
  MAX_SEGMENT_ID_CHARS,
  type SegmentsNearQuery,
  type WindQuery,
} from './schemas/data-queries.ts';
import { WindForecastResultSchema, type SegmentForecastInfo } from './schemas/forecast-result.ts';
import { SegmentDetailResultSchema, SegmentsNearResultSchema } from './schemas/segment-results.ts';

/**
 * A GET operation that reads data (forecast, catalog, geocoder) and so
 * answers later: the asynchronous sibling of `Endpoint`. Its definition is
 * here (the OpenAPI document and the docs read it); what it runs, a use case
 * of `src/service` and the answer's shape, is loaded with its first request,
 * one module per route (`data-routes/`).
 */
export interface DataEndpoint<R extends z.ZodType = z.ZodType> {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: 'Wind' | 'Segments';
  readonly query?: z.ZodObject;
  /** The `{id}` path parameter, for a path that ends in one. */
  readonly pathParameter?: z.ZodString;
  readonly result: R;
  /** The codes this operation may answer besides the 400s of its parameters (for OpenAPI and the docs). */
  readonly problems: readonly ProblemCode[];
  /**
   * The answer, after one request from `client`'s allowance; the use cases' errors, a refusal of the
   * allowance among them, arrive as problems already (`data-routes/answering.ts`).
   */
  readonly load: (input: DataInput, data: RestData, client: string) => Promise<z.input<R>>;
}

/** What an operation reads: its parsed query and, for `{id}` paths, the id. */
export interface DataInput {
  readonly query: Record<string, unknown>;
  readonly id: string;
  /** The public URLs of this deployment (a problem's or a hint's links). */
  readonly urls: ResolvedUrls;
}

/**
 * A route's module, imported with its first request and kept: a later request awaits the kept
 * promise instead of asking the module loader again (its resolve step costs every call otherwise).
 */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

const windRoute = loadedOnce(() => import('./data-routes/wind.ts'));
const segmentsNearRoute = loadedOnce(() => import('./data-routes/segments-near.ts'));
const segmentRoute = loadedOnce(() => import('./data-routes/segment.ts'));

/** `/v1/wind` is all weather, so a forecast outage is its problem; the segment answers still answer without it. */
const UPSTREAM: readonly ProblemCode[] = [
  'too_many_requests',
  'forecast_unreachable',
  'forecast_unavailable',
];

const wind: DataEndpoint = {
  operationId: 'getCellWind',
  summary: 'Forecast hours of the cell holding a point',
  description:
    'The next 72 hours of the forecast for the grid cell holding lat and lon, from the same forecast and ' +
    'cache the MCP tools use. Points in one cell share a forecast, so a page judging a route sends only ' +
    'one point per cell the route crosses, and the route itself never leaves the browser.',
  tag: 'Wind',
  query: WindQuerySchema,
  result: WindForecastResultSchema,
  problems: UPSTREAM,
  load: async ({ query }, data, client) => (await windRoute()).windAnswer(client, query as WindQuery, data),
};

const segmentsNear: DataEndpoint = {
  operationId: 'findSegmentsNear',
  summary: 'Catalog segments near a place, with their best tailwind windows',
  description:
    'The best-known catalog segments near a place name or a point, each with its best tailwind window and ' +
    'its line for a map, from the same place search, catalog, ranking and best windows as the MCP tool ' +
    'find_tailwind_segments. The list is bounded by limit (at most 25 segments), not cut to the size of an ' +
    'assistant’s answer, so no alternative place or nearest segment is dropped for length. Keyless, so no ' +
    'chance of a tailwind (a Pro feature of the MCP tools).',
  tag: 'Segments',
  query: SegmentsNearQuerySchema,
  result: SegmentsNearResultSchema,
  problems: ['too_many_requests', 'place_not_found', 'place_search_unavailable'],
  load: async ({ query }, data, client) =>
    (await segmentsNearRoute()).segmentsNearAnswer(client, query as SegmentsNearQuery, data),
};

const segment: DataEndpoint = {
  operationId: 'getSegment',
  summary: 'One catalog segment, its 72 forecast hours and best tailwind window',
  description:
    'A built-in or discovered catalog segment by id (as get_segment answers it), with every forecast hour ' +
    'split along and across the road. Riders’ own segments are private: their ids answer as unknown.',
  tag: 'Segments',
  pathParameter: SegmentIdSchema,
  result: SegmentDetailResultSchema,
  problems: ['too_many_requests', 'unknown_segment'],
  load: async ({ id, urls }, data, client) => (await segmentRoute()).segmentAnswer(client, id, data, urls),
};

/** Every data endpoint by its OpenAPI path. */
export const DATA_ENDPOINTS: Readonly<Record<DataPath, DataEndpoint>> = {
  '/v1/wind': wind,
  '/v1/segments': segmentsNear,
  '/v1/segments/{id}': segment,
};

function invalidId(detail: string): ApiError {
  return new ApiError('invalid_parameter', {
    detail,
    hint: `Use an id from GET /v1/segments: lower-case letters, digits and hyphens, at most ${MAX_SEGMENT_ID_CHARS} characters.`,
    parameter: 'id',
  });
}

/** The `{id}` as text, decoded and checked, or a precise problem. */
function readId(rawId: string): string {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    throw invalidId(`The id "${rawId.slice(0, 40)}" is not valid percent-encoding.`);
  }
  const checked = SegmentIdSchema.safeParse(id);
  if (checked.success) return checked.data;
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  throw invalidId(
    `${checked.error.issues[0]?.message ?? 'id is not a segment id'}, but got ${JSON.stringify(shown)}.`,
  );
}

/** Shortest lifetime of a data answer in a cache, for one that may change soon. */
export const SHORT_LIFETIME_S = 60;

/**
 * How long an answer stays good: until the next UTC hour, when the forecast
 * cache fetches the hour's forecast and the hours shift by one; a stale
 * forecast (the provider failed and an older one stands in) only a minute,
 * so a client soon gets the fresh one. Browsers and the CDN keep it alike.
 */
export function dataCacheControl(forecast: SegmentForecastInfo, nowMs: number): string {
  const untilHourS = 3600 - (Math.floor(nowMs / 1000) % 3600);
  const short = forecast.stale || forecast.unavailable !== undefined;
  const seconds = short ? SHORT_LIFETIME_S : Math.max(1, untilHourS);
  return `public, max-age=${seconds}, s-maxage=${seconds}`;
}

async function load(
  endpoint: DataEndpoint,
  input: DataInput,
  client: string,
  source: RestDataSource,
): Promise<Reply> {
  const data = await source();
  const body = (await endpoint.load(input, data, client)) as { forecast: SegmentForecastInfo };
  const reply = jsonReply(body, { cache: CACHE.none });
  reply.headers['cache-control'] = dataCacheControl(body.forecast, data.now());
  return reply;
}

/**
 * A data endpoint's answer: its input is read first (a bad parameter is a
 * problem like any endpoint's, and costs no allowance), then the data is read.
 */
export function dataAnswer(
  path: DataPath,
  rawId: string,
  url: RequestTarget,
  urls: ResolvedUrls,
  client: string,
  source: RestDataSource,
): Promise<Reply> {
  const endpoint = DATA_ENDPOINTS[path];
  const { query, pathParameter } = endpoint;
  const input: DataInput = {
    query: query ? parseQuery(query, url.params) : {},
    id: pathParameter ? readId(rawId) : '',
    urls,
  };
  return load(endpoint, input, client, source);
}
