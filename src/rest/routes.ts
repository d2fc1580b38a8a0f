/**
 * Every path of the REST API in one table, in the order the OpenAPI
 * document and the `not_found` hint list them: the synchronous endpoints,
 * answered at once, and the data endpoints, whose definitions, use cases and
 * answers load with the first request that names one (`data-endpoints.ts`
 * and one module per route under `data-routes/`), so a cold start that
 * answers `/v1/tailwind` compiles none of them. A synchronous route answers a
 * valid plain query with the reader compiled from its schema's plan and its
 * schema-free answer (`sync-queries.ts`, `sync-answers.ts`); any other query,
 * and `/openapi.json`, go through its endpoint's definition (`endpoints.ts`),
 * which the REST function loads on first need (decision 0045). The handler
 * asks {@link routeOf} once per request.
 */
import { compilePlan, type CompiledQuery } from './compiled-query.ts';
import { SYNC_ANSWERS, type SyncAnswer } from './sync-answers.ts';
import { SYNC_QUERIES } from './sync-queries.ts';

/** The data endpoints' paths as the OpenAPI document spells them. */
export type DataPath = '/v1/wind' | '/v1/segments' | '/v1/segments/{id}';

/** A synchronous endpoint: its path in `ENDPOINTS`, and what answers it without its schemas, if anything. */
export interface SyncRoute {
  readonly kind: 'sync';
  readonly path: string;
  /** Whether the endpoint reads a query. */
  readonly query: boolean;
  /** The reader compiled from its query schema's plan, if it has one. */
  readonly compiled: CompiledQuery | undefined;
  /** Its answer to a query already read, when it needs no schema (not `/openapi.json`). */
  readonly answer: SyncAnswer<never> | undefined;
}

/** A data endpoint, by its OpenAPI path; what it runs is loaded with its first request. */
export interface DataRoute {
  readonly kind: 'data';
  readonly path: DataPath;
}

export type Route = SyncRoute | DataRoute;

const sync = (path: string): SyncRoute => {
  const { query = false, plan } = SYNC_QUERIES[path] ?? {};
  return { kind: 'sync', path, query, compiled: plan && compilePlan(plan), answer: SYNC_ANSWERS[path] };
};

const data = (path: DataPath): DataRoute => ({ kind: 'data', path });

/** The route table: each path once, sync and data endpoints together. */
export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ...Object.keys(SYNC_QUERIES).map((path) => [path, sync(path)] as const),
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
