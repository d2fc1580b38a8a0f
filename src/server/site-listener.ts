import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServerMiddleware, ServerRequest } from 'srvx';
import { toNodeHandler } from 'srvx/node';
import { staticMiddleware } from 'srvx/static';
import { isApiPath, toFetchHandler, type ApiReplier } from '../rest/handler.ts';
import type { McpService } from '../mcp/mcp-service.ts';
import { apiListener } from './api-listener.ts';
import { isMcpPath, mcpListener } from './mcp-listener.ts';
import { siteHeaders } from './site-headers.ts';

type FetchHandler = (request: ServerRequest) => Response | Promise<Response>;
type Http1Listener = (request: IncomingMessage, response: ServerResponse) => unknown;

export interface SiteServerOptions {
  /** The built Astro site (`dist/`). */
  readonly siteDir: string;
  /** The REST API, built by the composition root. */
  readonly reply: ApiReplier;
  /** The MCP server at `/mcp` and `/mcp/rider`, with the sign-in paths. */
  readonly mcp?: { readonly handle: McpService['handle']; readonly trustProxy: boolean };
}

const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Vercel's default for static files: cached, but revalidated before each use. */
const PAGE_CACHE = 'public, max-age=0, must-revalidate';

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
 * Rewrites an absolute-form target (`GET http://host/path`, as proxies send)
 * to origin-form, so every handler below sees `/path?query`; `*` becomes `/`.
 */
function toOriginForm(request: IncomingMessage): string {
  const target = request.url ?? '/';
  if (target.startsWith('/')) return target;
  const url = URL.parse(target);
  request.url = url ? `${url.pathname}${url.search}` : '/';
  return request.url;
}

/** Runs srvx middleware in order, ending with `last`. */
function chain(middleware: readonly ServerMiddleware[], last: FetchHandler): FetchHandler {
  const run = (index: number, request: ServerRequest): Response | Promise<Response> => {
    const step = middleware[index];
    return step ? step(request, () => run(index + 1, request)) : last(request);
  };
  return (request) => run(0, request);
}

/**
 * What `npm start` serves on one port: API paths go straight to the API
 * (no web Request/Response on that path); `/mcp` to the MCP server;
 * everything else is the built site
 * through srvx, ending in a not-found answer that suits the caller: the
 * site's 404 page for a browser, a problem+json (or 405) for everyone else.
 */
export async function createSiteListener({ siteDir, reply, mcp }: SiteServerOptions) {
  const api = apiListener(reply);
  const apiFetch = toFetchHandler(reply);
  const mcpNode = mcp && mcpListener(mcp.handle, mcp.trustProxy);
  const notFoundPage = await readFile(join(siteDir, '404.html'), 'utf8').catch(() => undefined);
  const notFound: FetchHandler = (request) => {
    if (notFoundPage && request.method === 'GET' && wantsHtml(request)) {
      return new Response(notFoundPage, {
        status: 404,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
      });
    }
    return apiFetch(request);
  };
  // srvx types its Node handler as HTTP/1 or HTTP/2; this server is HTTP/1.
  const site = toNodeHandler(
    chain(
      [
        siteHeaders(new URL('../../vercel.json', import.meta.url)),
        siteCache,
        staticMiddleware({ dir: siteDir }),
      ],
      notFound,
    ),
  ) as Http1Listener;
  return (request: IncomingMessage, response: ServerResponse): void => {
    const path = toOriginForm(request).split('?', 1)[0] ?? '/';
    if (isApiPath(path)) return api(request, response);
    // srvx builds the request URL from the Host header; one that makes no URL gets a plain 400.
    if (!URL.canParse(`http://${request.headers.host ?? 'localhost'}/`)) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end('The Host header is not a valid host name.\n');
      return;
    }
    if (mcpNode && isMcpPath(path)) return void mcpNode(request, response);
    void site(request, response);
  };
}
