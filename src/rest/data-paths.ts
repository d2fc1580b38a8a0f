/**
 * The paths of the data endpoints and how a request path names one, as plain
 * string work: the handler reads this on every miss of its synchronous table,
 * and loads the endpoints themselves (`data-endpoints.ts`: their zod schemas,
 * the problems, the reply) only for a request that names one, so a cold start
 * that answers `/v1/tailwind` compiles none of it (measured: 14 KB less in
 * every function's eager bundle).
 */

/** The data endpoints' paths as the OpenAPI document spells them. */
export const DATA_PATHS = ['/v1/wind', '/v1/segments', '/v1/segments/{id}'] as const;

export type DataPath = (typeof DATA_PATHS)[number];

/** A data endpoint a request path names, with the raw `{id}` when it has one. */
export interface DataRoute {
  readonly path: DataPath;
  readonly rawId: string;
}

const SEGMENT_PREFIX = '/v1/segments/';

/**
 * The data endpoint of a path, with one trailing slash naming the same one as
 * everywhere in the API (`/v1/segments/` is the list, `/v1/segments/x/` the
 * segment x); undefined for any other path.
 */
export function dataRouteOf(pathname: string): DataRoute | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === '/v1/wind' || path === '/v1/segments') return { path, rawId: '' };
  if (!path.startsWith(SEGMENT_PREFIX)) return undefined;
  const rawId = path.slice(SEGMENT_PREFIX.length);
  return rawId.includes('/') ? undefined : { path: '/v1/segments/{id}', rawId };
}
