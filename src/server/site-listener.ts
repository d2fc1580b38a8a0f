import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServerMiddleware, ServerRequest } from 'srvx';
import { toNodeHandler } from 'srvx/node';
import { staticMiddleware } from 'srvx/static';
import type { ApiError } from '../core/problems.ts';
import { toFetchHandler, type ApiReplier } from '../rest/replier.ts';
import { problemReply } from '../rest/problem-reply.ts';
import type { McpService } from '../app/mcp-service.ts';
import { pathFacts } from '../app/paths.ts';
import { apiListener } from './api-listener.ts';
import { mcpListener } from './mcp-listener.ts';
import { checkTarget, ownOrigin } from './request-head.ts';
import { ownOriginDocs } from './own-origin-docs.ts';
import { segmentPages } from './segment-page.ts';
import { siteHeaders } from './site-headers.ts';
import { CACHE, noStoreUnlessSet } from '../http/cache-control.ts';

type FetchHandler = (request: ServerRequest) => Response | Promise<Response>;
type Http1Listener = (request: IncomingMessage, response: ServerResponse) => unknown;

export interface SiteServerOptions {
  /** The built Astro site (`dist/`). */
  readonly siteDir: string;
  /** The REST API, built by the composition root. */
  readonly reply: ApiReplier;
  /** The MCP server at `/mcp` and `/mcp/rider`, with the sign-in paths. */
  readonly mcp?: { readonly handle: McpService['handle']; readonly trustProxy: boolean };
  /** The configured API guide for the edge's problems; unset, `/docs` on the connection's own origin. */
  readonly docsUrl?: string | undefined;
}

/**
 * Astro's hashed bundles never change under one name, so they are cached for
 * good; everything else the site serves is revalidated before each use, as Vercel's
 * default for static files is.
 */
const siteCache: ServerMiddleware = async (request, next) => {
  const response = await next();
  // A 304 carries the policy of the page it revalidates (RFC 9111 §4.3.4); other refusals are not kept.
  if (!response.ok && response.status !== 304) {
    noStoreUnlessSet(response.headers);
    return response;
  }
  const hashed = new URL(request.url).pathname.startsWith('/_astro/');
  response.headers.set('Cache-Control', hashed ? CACHE.asset : CACHE.page);
  return response;
};

function decodable(path: string): boolean {
  try {
    decodeURI(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path whose percent-encoding is not UTF-8 (`/%C0%AE`) names no file; the
 * static middleware would answer a bare text 400, so it goes to the
 * not-found answer instead, which is a problem or the 404 page.
 */
function skipUndecodable(notFound: FetchHandler): ServerMiddleware {
  return (request, next) => {
    const path = new URL(request.url).pathname;
    return path.includes('%') && !decodable(path) ? notFound(request) : next();
  };
}

/** A problem written to Node's response: a request the edge refuses before routing. */
function writeProblem(response: ServerResponse, error: ApiError, path: string, docs: string): void {
  const { status, headers, body } = problemReply(error, path.slice(0, 256), docs);
  response.writeHead(status, headers);
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

function wantsHtml(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('text/html');
}

/**
 * A path the path table serves with another built page (`/segments/<id>` by
 * its shell), as Vercel's rewrite does: the page answers under the asked
 * path; when the build has no such page, the request goes on unchanged (to
 * the not-found answer, which names the path asked for).
 */
function pageRewrites(files: ServerMiddleware): ServerMiddleware {
  return (request, next) => {
    const url = new URL(request.url);
    const { page } = pathFacts(url.pathname);
    if (page === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    const target = new URL(page + url.search, url);
    const rewritten = new Request(target, {
      method: request.method,
      headers: request.headers,
    }) as ServerRequest;
    return files(rewritten, next);
  };
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
 * What `npm start` serves on one port, by the path table (`src/app/paths.ts`):
 * the REST paths go straight to the API (no web Request/Response on that
 * path); the MCP function's paths (`/mcp`, sign-in, settings, billing) to the
 * MCP side; everything else is the built site
 * through srvx, ending in a not-found answer that suits the caller: the
 * site's 404 page for a browser, a problem+json (or 405) for everyone else.
 */
export async function createSiteListener({ siteDir, reply, mcp, docsUrl }: SiteServerOptions) {
  const api = apiListener(reply, mcp?.trustProxy ?? false);
  const apiFetch = toFetchHandler(reply);
  const mcpNode = mcp && mcpListener(mcp.handle, mcp.trustProxy);
  const notFoundPage = await readFile(join(siteDir, '404.html'), 'utf8').catch(() => undefined);
  const notFound: FetchHandler = (request) => {
    if (notFoundPage && request.method === 'GET' && wantsHtml(request)) {
      return new Response(notFoundPage, {
        status: 404,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE.notFoundPage },
      });
    }
    return apiFetch(request);
  };
  const files = staticMiddleware({ dir: siteDir });
  // srvx types its Node handler as HTTP/1 or HTTP/2; this server is HTTP/1.
  const site = toNodeHandler(
    chain(
      [
        siteHeaders(new URL('../../vercel.json', import.meta.url)),
        siteCache,
        skipUndecodable(notFound),
        ownOriginDocs(siteDir),
        segmentPages(reply, notFound),
        pageRewrites(files),
        files,
      ],
      notFound,
    ),
  ) as Http1Listener;
  return (request: IncomingMessage, response: ServerResponse): void => {
    const refused = checkTarget(request);
    if (refused) {
      const docs = docsUrl ?? `${ownOrigin(request.socket)}/docs`;
      const target = request.url ?? '/';
      writeProblem(response, refused, target.startsWith('/') ? (target.split('?', 1)[0] ?? '/') : '/', docs);
      return;
    }
    // An HTTP/1.0 request may come without Host: it is for this server, whatever its name.
    request.headers.host ??= new URL(ownOrigin(request.socket)).host;
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    // The function the path table names for the path serves it here too; the cron is Vercel's alone.
    const { function: served, part } = pathFacts(path);
    // A segment's page runs in the REST function on Vercel; here the site's middleware serves it, around the shell.
    if (served === 'rest' && part !== 'segment-page') return api(request, response);
    if (mcpNode && served === 'mcp') return void mcpNode(request, response);
    void site(request, response);
  };
}
