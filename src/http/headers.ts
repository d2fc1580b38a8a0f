/** The methods of a read-only API. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * Cache lifetimes, chosen per kind of answer. Calculations are pure functions
 * of the URL, so browsers keep them a day and the CDN a year (a deployment
 * purges it). A 400 for a URL is as deterministic, but kept shorter so a
 * fixed rule shows quickly. Health and failures must never be cached.
 */
export const CACHE = {
  calculation: 'public, max-age=86400, s-maxage=31536000',
  catalog: 'public, max-age=3600, s-maxage=86400',
  clientError: 'public, max-age=3600',
  preflight: 'public, max-age=86400',
  none: 'no-store',
} as const;

export type CachePolicy = (typeof CACHE)[keyof typeof CACHE];

/** Headers on every API response, errors and preflights included. */
export function baseHeaders(cache: CachePolicy): Headers {
  return new Headers({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'Allow, Cache-Control, Content-Length',
    'Cache-Control': cache,
    'X-Content-Type-Options': 'nosniff',
  });
}

/** The answer to a CORS preflight or a plain OPTIONS request. */
export function preflightResponse(): Response {
  const headers = baseHeaders(CACHE.preflight);
  headers.set('Allow', ALLOWED_METHODS.join(', '));
  headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS.join(', '));
  headers.set('Access-Control-Allow-Headers', '*');
  headers.set('Access-Control-Max-Age', '86400');
  return new Response(null, { status: 204, headers });
}

const encoder = new TextEncoder();

/** A JSON body with the base headers and its exact length (so HEAD reports it too). */
export function jsonResponse(
  body: unknown,
  init: { status?: number; cache: CachePolicy; contentType?: string },
): Response {
  const bytes = encoder.encode(JSON.stringify(body));
  const headers = baseHeaders(init.cache);
  headers.set('Content-Type', init.contentType ?? 'application/json');
  headers.set('Content-Length', String(bytes.byteLength));
  return new Response(bytes, { status: init.status ?? 200, headers });
}
