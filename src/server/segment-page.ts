import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ServerMiddleware, ServerRequest } from 'srvx';
import type { ApiReplier } from '../rest/replier.ts';
import { withSegmentHead } from '../rest/segment-page-head.ts';
import { cardReply, segmentPageFor, segmentPageRoute } from '../rest/segment-page.ts';

/**
 * `/segments/<id>` on `npm start` (the rules are `src/rest/segment-page.ts`): the one shell page serves every segment, so before it is sent
 * the segment is looked up (`GET /v1/segments/{id}`, the answer the page's script reads next, its
 * forecast cached): an id no catalog holds is the site's 404 with status 404, not a 200 page saying
 * "no such segment"; a known one gets its own head (`segment-page-head.ts`). `/segments/<id>/card.png`
 * is its picture for link previews (`segment-card.ts`).
 */

/** The decoders of the codings the static files answer in (srvx compresses with brotli or gzip). */
const DECODE: Readonly<Record<string, (bytes: Buffer) => Buffer>> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  deflate: inflateSync,
};

/** The page's text, decoded when the static files answered compressed; undefined for a coding not read here. */
async function textOf(response: Response): Promise<string | undefined> {
  const coding = response.headers.get('content-encoding');
  if (coding === null || coding === 'identity') return response.text();
  const decode = DECODE[coding];
  if (!decode) return undefined;
  return decode(Buffer.from(await response.arrayBuffer())).toString('utf8');
}

/** The lookup before the shell: 404 for an unknown id, the segment's head for a known one; its picture. */
export function segmentPages(
  reply: ApiReplier,
  notFound: (request: ServerRequest) => Response | Promise<Response>,
): ServerMiddleware {
  return async (request, next) => {
    const url = new URL(request.url);
    const route = segmentPageRoute(url.pathname);
    if (!route || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    const page = await segmentPageFor(reply, url.origin, route);
    if (page.kind === 'not-found') return notFound(request);
    if (page.kind === 'card') {
      const { status, headers, body } = cardReply(page.segment, request.method === 'HEAD');
      return new Response(body, { status, headers });
    }
    const { segment } = page;
    const response = await next();
    if (segment === null || !response.ok) return response;
    const shell = await textOf(response);
    if (shell === undefined) return response;
    const html = withSegmentHead(shell, segment, url.origin);
    const headers = new Headers(response.headers);
    for (const name of ['content-length', 'etag', 'content-encoding', 'last-modified']) headers.delete(name);
    return new Response(request.method === 'HEAD' ? null : html, { status: 200, headers });
  };
}
