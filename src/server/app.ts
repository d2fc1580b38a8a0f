import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerMiddleware } from 'srvx';
import { staticMiddleware } from 'srvx/static';
import { isApiPath } from '../http/handler.ts';
import { siteHeaders } from './site-headers.ts';

type FetchHandler = (request: Request) => Promise<Response>;

export interface SiteServerOptions {
  /** The built Astro site (`dist/`). */
  readonly siteDir: string;
  /** The REST API handler. */
  readonly api: FetchHandler;
}

const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Vercel's default for static files: cached, but revalidated before each use. */
const PAGE_CACHE = 'public, max-age=0, must-revalidate';

/** API paths go to the handler before the file system is consulted. */
function apiFirst(api: FetchHandler): ServerMiddleware {
  return (request, next) => (isApiPath(new URL(request.url).pathname) ? api(request) : next());
}

/**
 * Astro's hashed bundles never change under one name, so they are cached for
 * good; everything else the site serves is revalidated, as on Vercel.
 */
const siteCache: ServerMiddleware = async (request, next) => {
  const response = await next();
  if (!response.ok) return response;
  const hashed = new URL(request.url).pathname.startsWith('/_astro/');
  response.headers.set('Cache-Control', hashed ? ASSET_CACHE : PAGE_CACHE);
  return response;
};

function wantsHtml(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('text/html');
}

/**
 * What `npm start` serves on one port: the API handler, then the built site,
 * then a not-found answer that suits the caller — the site's 404 page for a
 * browser, a problem+json (or 405) from the API for everyone else.
 */
export async function createSiteServer({ siteDir, api }: SiteServerOptions) {
  const notFoundPage = await readFile(join(siteDir, '404.html'), 'utf8').catch(() => undefined);
  const fallback: FetchHandler = async (request) => {
    if (notFoundPage && request.method === 'GET' && wantsHtml(request)) {
      return new Response(notFoundPage, {
        status: 404,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
      });
    }
    return api(request);
  };
  return {
    middleware: [
      apiFirst(api),
      siteHeaders(new URL('../../vercel.json', import.meta.url)),
      siteCache,
      staticMiddleware({ dir: siteDir }),
    ],
    fetch: fallback,
  };
}
