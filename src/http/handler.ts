import { ApiError } from '../core/problems.ts';
import { resolveUrls, type ApiConfig, type ResolvedUrls } from './config.ts';
import { ALLOWED_METHODS, jsonReply, preflightReply, type Reply } from './headers.ts';
import { problemReply } from './problem-reply.ts';
import { parseQuery } from './query.ts';
import { ROUTES } from './routes.ts';

/** Paths this handler owns; the local server sends everything else to the site. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/') || pathname in ROUTES;
}

const ENDPOINTS = Object.keys(ROUTES).join(', ');

function answer(method: string, url: URL, urls: ResolvedUrls): Reply {
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
  if (method === 'OPTIONS') return preflightReply();
  const query = route.query ? parseQuery(route.query, url.searchParams) : {};
  const body = route.run(query, { urls });
  return jsonReply(body, { cache: route.cache });
}

export interface HandlerOptions {
  /**
   * The Response class to answer with. The standard one by default; the
   * Node server passes srvx's `FastResponse`, which skips building a web
   * Response and writes straight to the socket (4× the throughput there).
   */
  readonly Response?: new (body: Uint8Array<ArrayBuffer> | null, init: ResponseInit) => Response;
}

/**
 * The REST API as a fetch handler: `Request` in, `Response` out, no runtime
 * APIs beyond the web platform, so the same function serves `npm start`,
 * Vercel functions and in-process tests.
 */
export function createApiHandler(
  config: ApiConfig = {},
  { Response: ResponseClass = Response }: HandlerOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    // The docs URL the problem links to, even when resolving the configuration is what failed.
    let docs = `${url.origin}/docs`;
    let reply: Reply;
    try {
      const urls = resolveUrls(config, url);
      docs = urls.docs;
      reply = answer(method, url, urls);
    } catch (error) {
      reply = problemReply(error, url.pathname, docs);
    }
    // HEAD gets the GET answer's status and headers, without the body.
    const body = method === 'HEAD' ? null : reply.body;
    return new ResponseClass(body, { status: reply.status, headers: reply.headers });
  };
}
