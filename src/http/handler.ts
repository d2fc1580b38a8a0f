import { ApiError } from '../core/problems.ts';
import { resolveUrls, type ApiConfig } from './config.ts';
import { ALLOWED_METHODS, jsonResponse, preflightResponse } from './headers.ts';
import { problemResponse } from './problem-response.ts';
import { parseQuery } from './query.ts';
import { ROUTES } from './routes.ts';

/** Paths this handler owns; the local server sends everything else to the site. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/') || pathname in ROUTES;
}

const ENDPOINTS = Object.keys(ROUTES).join(', ');

function answer(request: Request, url: URL, config: ApiConfig): Response {
  const method = request.method.toUpperCase();
  if (!(ALLOWED_METHODS as readonly string[]).includes(method)) {
    throw new ApiError('method_not_allowed', {
      detail: `${method} is not supported: the API is read-only.`,
      hint: `Use ${ALLOWED_METHODS.join(', ')}.`,
    });
  }
  const route = Object.hasOwn(ROUTES, url.pathname) ? ROUTES[url.pathname] : undefined;
  if (!route) {
    throw new ApiError('not_found', {
      detail: `There is no endpoint at ${url.pathname}.`,
      hint: `The endpoints are ${ENDPOINTS} (GET). Paths are case-sensitive and have no trailing slash.`,
    });
  }
  if (method === 'OPTIONS') return preflightResponse();
  const query = route.query ? parseQuery(route.query, url.searchParams) : {};
  const body = route.run(query, { urls: resolveUrls(config, url) });
  return jsonResponse(body, { cache: route.cache });
}

/** HEAD gets the GET answer's status and headers, without the body. */
function forMethod(request: Request, response: Response): Response {
  if (request.method.toUpperCase() !== 'HEAD') return response;
  return new Response(null, { status: response.status, headers: response.headers });
}

/**
 * The REST API as a fetch handler: `Request` in, `Response` out, no runtime
 * APIs beyond the web platform, so the same function serves `npm start`,
 * Vercel functions and in-process tests.
 */
export function createApiHandler(config: ApiConfig = {}): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    let response: Response;
    try {
      response = answer(request, url, config);
    } catch (error) {
      response = problemResponse(error, url.pathname, resolveUrls(config, url).docs);
    }
    return forMethod(request, response);
  };
}
