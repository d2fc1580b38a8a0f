/**
 * Every path of the REST API in one table, in the order the OpenAPI
 * document and the `not_found` hint list them: the synchronous endpoints
 * (`endpoints.ts`), answered at once with their query readers compiled from
 * their schemas, and the data endpoints, whose definitions, use cases and
 * answers load with the first request that names one (`data-endpoints.ts`
 * and one module per route under `data-routes/`), so a cold start that
 * answers `/v1/tailwind` compiles none of them. The handler asks
 * {@link routeOf} once per request.
 */
import { compileQuery, type CompiledQuery } from './compiled-query.ts';
import { ENDPOINTS } from './endpoints.ts';
import type { Endpoint } from './operation.ts';

/** The data endpoints' paths as the OpenAPI document spells them. */
export type DataPath = '/v1/wind' | '/v1/segments' | '/v1/segments/{id}';

/** A synchronous endpoint with the query reader compiled from its schema, if it has one. */
export interface SyncRoute {
  readonly kind: 'sync';
  readonly endpoint: Endpoint;
  readonly compiled: CompiledQuery | undefined;
}

/** A data endpoint, by its OpenAPI path; what it runs is loaded with its first request. */
export interface DataRoute {
  readonly kind: 'data';
  readonly path: DataPath;
}

export type Route = SyncRoute | DataRoute;

const sync = (endpoint: Endpoint): SyncRoute => ({
  kind: 'sync',
  endpoint,
  compiled: endpoint.query && compileQuery(endpoint.query),
});

const data = (path: DataPath): DataRoute => ({ kind: 'data', path });

/** The route table: each path once, sync and data endpoints together. */
export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ...Object.entries(ENDPOINTS).map(([path, endpoint]) => [path, sync(endpoint)] as const),
  ['/v1/wind', data('/v1/wind')],
  ['/v1/segments', data('/v1/segments')],
  ['/v1/segments/{id}', data('/v1/segments/{id}')],
]);

/** Every path, for hints that list them. */
export const ROUTE_LIST = [...ROUTES.keys()].join(', ');

const SEGMENT_PREFIX = '/v1/segments/';
const SEGMENT_ROUTE = data('/v1/segments/{id}');

/** The route a path names, with the raw `{id}` when its path has one. */
export interface RouteMatch {
  readonly route: Route;
  readonly rawId: string;
}

/**
 * The route of a path. One trailing slash names the same endpoint
 * (`/v1/tailwind/`, `/health/`, `/v1/segments/x/`): clients that join a
 * base URL and a path, and people copying a link, add it often, and a 404
 * taught them nothing that an answer would not. Anything more (a second
 * slash, case) is another path; undefined for a path no route holds.
 */
export function routeOf(pathname: string): RouteMatch | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const route = path.includes('{') ? undefined : ROUTES.get(path);
  if (route !== undefined) return { route, rawId: '' };
  if (!path.startsWith(SEGMENT_PREFIX)) return undefined;
  const rawId = path.slice(SEGMENT_PREFIX.length);
  return rawId.includes('/') ? undefined : { route: SEGMENT_ROUTE, rawId };
}
