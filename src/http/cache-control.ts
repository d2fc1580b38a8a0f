/**
 * Every `Cache-Control` the project sends, one per kind of response, so a
 * kind is named once and a change to how long it is kept happens here. The
 * REST API, the MCP endpoints, the sign-in and settings API, the cron
 * function and the Node listener all take theirs from this table; only the
 * forecast-backed data answers compute theirs (a lifetime that ends with the
 * forecast run they come from).
 *
 * - `calculation`: a pure function of the URL, so browsers keep it a day and
 *   the CDN a year (a deployment purges it);
 * - `catalog`: the segment catalog and the lists drawn from it, which change
 *   with a deployment or a discovery;
 * - `clientError`: a 400 for a URL is as deterministic as a calculation, but
 *   kept shorter so a fixed rule shows quickly;
 * - `preflight`: a CORS preflight, as long as `Access-Control-Max-Age`;
 * - `asset`: a built file whose name holds its hash;
 * - `page`: a built page, revalidated on every visit;
 * - `notFoundPage`: the site's 404 page, kept by nobody without asking again;
 * - `calendarFeed`: a rider's calendar feed, polled by calendar apps: a few
 *   minutes in the app, never in a shared cache;
 * - `none`: anything personal, a failure, a health answer, a redirect or a
 *   JSON-RPC exchange: never kept by anyone.
 */
export const CACHE = {
  calculation: 'public, max-age=86400, s-maxage=31536000',
  catalog: 'public, max-age=3600, s-maxage=86400',
  clientError: 'public, max-age=3600',
  preflight: 'public, max-age=86400',
  asset: 'public, max-age=31536000, immutable',
  page: 'public, max-age=0, must-revalidate',
  notFoundPage: 'no-cache',
  calendarFeed: 'private, max-age=300',
  none: 'no-store',
} as const;

export type CachePolicy = (typeof CACHE)[keyof typeof CACHE];

/**
 * Sets `none` on a response that did not say how to cache it: a library's
 * answer (the MCP SDK's, better-auth's) or a page the listener serves.
 */
export function noStoreUnlessSet(headers: Headers): Headers {
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', CACHE.none);
  return headers;
}
