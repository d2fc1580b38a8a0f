/**
 * `/segments/<id>` and `/segments/<id>/card.png`, the same on `npm start`
 * (the site's listener, `src/server/segment-page.ts`) and on Vercel (the REST
 * function, `src/app/segment-page-function.ts`): the segment is looked up as
 * `GET /v1/segments/{id}` (the answer the page's script reads next, its
 * forecast cached), an id no catalog holds is the site's 404 page with status
 * 404, a known one gets the shell with its own head, or its picture.
 */
import { CACHE } from '../http/cache-control.ts';
import type { ApiReplier } from './replier.ts';
import type { SegmentDetailResult } from './schemas/segment-results.ts';
import { segmentCardPng } from './segment-card.ts';
import { withSegmentHead } from './segment-page-head.ts';

/** Which page of a segment a path asks for; null for a path that is none. */
export function segmentPageRoute(pathname: string): { readonly id: string; readonly card: boolean } | null {
  const match = /^\/segments\/([^/]+)(\/card\.png|\/?)$/.exec(pathname);
  return match?.[1] ? { id: match[1], card: match[2] === '/card.png' } : null;
}

/** The segment as its REST answer gives it; `unknown` for an id no catalog holds, null when the answer failed. */
export async function segmentOf(
  reply: ApiReplier,
  origin: string,
  id: string,
): Promise<SegmentDetailResult['segment'] | 'unknown' | null> {
  const answer = await reply('GET', `${origin}/v1/segments/${id}`);
  if (answer.status === 404 || answer.status === 400) return 'unknown';
  if (answer.status !== 200 || typeof answer.body !== 'string') return null;
  return (JSON.parse(answer.body) as SegmentDetailResult).segment;
}

/** What a page answer holds, for either adapter to write. */
export interface PageReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array<ArrayBuffer> | null;
}

/** The segment's picture for link previews; it changes with the catalog, as the segment lists do. */
export function cardReply(segment: SegmentDetailResult['segment'], head: boolean): PageReply {
  const png = segmentCardPng(segment.line, segment.profile);
  return {
    status: 200,
    headers: { 'Content-Type': 'image/png', 'Cache-Control': CACHE.catalog },
    body: head ? null : new Uint8Array(png),
  };
}

/** The built pages a page answer is made from. */
export interface BuiltPages {
  readonly shell: string;
  readonly notFound: string;
}

/**
 * The whole answer where the built pages are at hand (the Vercel function):
 * the shell with the segment's head, its picture, or the 404 page. Another
 * method than GET or HEAD gets the API's own answer (405), as on `npm start`.
 */
export async function segmentPageReply(
  reply: ApiReplier,
  method: string,
  url: URL,
  pages: BuiltPages,
): Promise<PageReply> {
  if (method !== 'GET' && method !== 'HEAD') {
    const refused = await reply(method, url.href);
    return { status: refused.status, headers: refused.headers, body: refused.body };
  }
  const head = method === 'HEAD';
  const html = (status: number, text: string, cache: string): PageReply => ({
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': cache },
    body: head ? null : text,
  });
  const route = segmentPageRoute(url.pathname);
  const segment = route ? await segmentOf(reply, url.origin, route.id) : 'unknown';
  if (segment === 'unknown' || (segment === null && route?.card)) {
    return html(404, pages.notFound, CACHE.notFoundPage);
  }
  if (route?.card && segment !== null) return cardReply(segment, head);
  // Without the segment's answer (the forecast failed to load) the shell still serves: its script says why.
  return html(
    200,
    segment === null ? pages.shell : withSegmentHead(pages.shell, segment, url.origin),
    CACHE.page,
  );
}
