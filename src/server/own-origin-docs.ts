import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ServerMiddleware } from 'srvx';

/** One docs page as served at one origin: its body, validator and gzip form. */
interface Served {
  readonly body: string;
  readonly etag: string;
  readonly gzip: Buffer;
}

/** Pages kept per (path, origin); a Host header is the client's to choose, so the cache is bounded. */
const MAX_SERVED = 32;

/** The pages whose examples name an address: the API guide, the MCP guide, the route calculator's guide. */
function isDocsPath(path: string): boolean {
  return path === '/docs' || path.startsWith('/docs/');
}

/** The origin a built page was made for, read from its canonical link (Astro's `site`). */
export function builtOrigin(html: string): string | undefined {
  const href = /<link rel="?canonical"? href="?([^"\s>]+)/.exec(html)?.[1];
  if (href === undefined) return undefined;
  try {
    return new URL(href).origin;
  } catch {
    return undefined;
  }
}

/**
 * The page's `<main>` with every mention of `from` (the built origin) naming
 * `to` instead. Only `<main>` holds the examples; the head keeps its
 * canonical link and preview image, which name the site as built.
 */
export function withOrigin(html: string, from: string, to: string): string {
  const start = html.indexOf('<main');
  const end = html.lastIndexOf('</main>');
  if (start < 0 || end < start) return html;
  // An element marked `data-as-built` names the deployed address on purpose (the public MCP address a
  // cloud assistant needs): it keeps it.
  const kept = /(<[a-z]+ data-as-built[^>]*>[^<]*<\/[a-z]+>)/;
  const main = html
    .slice(start, end)
    .split(kept)
    .map((part, index) => (index % 2 === 1 ? part : part.replaceAll(from, to)))
    .join('');
  return html.slice(0, start) + main + html.slice(end);
}

/**
 * The docs pages are static and built once, for one origin (`WOS_SITE_URL`,
 * else the production address), so their curl lines, MCP addresses and
 * example answers named production even when the page came from `npm start`
 * on a laptop or another host. As `/openapi.json` (which `/reference` reads)
 * names the origin it was asked at, the docs pages served here name the
 * origin of the request in their examples: what a reader copies reaches the
 * server they are reading. A page asked at its built origin is served as it
 * is, by the static middleware, with its compression and validators.
 */
export function ownOriginDocs(siteDir: string): ServerMiddleware {
  const pages = new Map<string, Promise<string | undefined>>();
  const read = (path: string): Promise<string | undefined> => {
    const trimmed = path.replace(/\/+$/, '');
    let page = pages.get(trimmed);
    if (page === undefined) {
      page = readFile(join(siteDir, ...trimmed.split('/'), 'index.html'), 'utf8').catch(() => undefined);
      pages.set(trimmed, page);
    }
    return page;
  };
  const served = new Map<string, Served>();
  const serve = (key: string, html: string, from: string, to: string): Served => {
    let page = served.get(key);
    if (page === undefined) {
      const body = withOrigin(html, from, to);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      page = { body, etag, gzip: gzipSync(body) };
      if (served.size >= MAX_SERVED) served.delete(served.keys().next().value ?? '');
      served.set(key, page);
    }
    return page;
  };
  return async (request, next) => {
    const url = new URL(request.url);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isDocsPath(url.pathname)) return next();
    // Only the pages the build made: an unknown path under /docs is the static middleware's to refuse.
    if (!/^\/docs(?:\/[a-z-]+)?\/?$/.test(url.pathname)) return next();
    const html = await read(url.pathname);
    const from = html === undefined ? undefined : builtOrigin(html);
    if (html === undefined || from === undefined || from === url.origin) return next();
    const page = serve(`${url.pathname.replace(/\/+$/, '')} ${url.origin}`, html, from, url.origin);
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=utf-8',
      ETag: page.etag,
      Vary: 'Host, Accept-Encoding',
    };
    if (request.headers.get('if-none-match') === page.etag)
      return new Response(null, { status: 304, headers });
    const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
    const body = gzip ? page.gzip : Buffer.from(page.body);
    if (gzip) headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = String(body.byteLength);
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
  };
}
