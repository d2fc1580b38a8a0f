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

/** API paths go to the handler before the file system is consulted. */
function apiFirst(api: FetchHandler): ServerMiddleware {
  return (request, next) => (isApiPath(new URL(request.url).pathname) ? api(request) : next());
}

/** Astro's hashed bundles never change under one name, so they are cached for good. */
const immutableAssets: ServerMiddleware = async (request, next) => {
  const response = await next();
  if (new URL(request.url).pathname.startsWith('/_astro/') && response.ok) {
    response.headers.set('Cache-Control', ASSET_CACHE);
  }
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
      immutableAssets,
      staticMiddleware({ dir: siteDir }),
    ],
    fetch: fallback,
  };
}
