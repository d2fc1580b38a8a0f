/**
 * `/segments/<id>` and `/segments/<id>/card.png`, the same on `npm start`
 * (the site's listener, `src/server/segment-page.ts`) and on Vercel (the REST
 * function, `src/app/segment-page-function.ts`): the segment is looked up as
 * `GET /v1/segments/{id}` (the answer the page's script reads next, its
 * forecast cached), an id no catalog holds is the site's 404 page with status
 * 404, a known one gets the shell with its own head, or its picture.
 */
import { LRUCache } from 'lru-cache';
import { CACHE } from '../http/cache-control.ts';
import type { ApiReplier } from './replier.ts';
import type { SegmentDetailResult } from './schemas/segment-results.ts';
import { segmentCardPng } from './segment-card.ts';
import { withSegmentHead } from './segment-page-head.ts';

/** A segment's page or its picture (`card`), as a path asks for it. */
export interface SegmentPageRoute {
  readonly id: string;
  readonly card: boolean;
}

/** Which page of a segment a path asks for; null for a path that is none. */
export function segmentPageRoute(pathname: string): SegmentPageRoute | null {
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

type Segment = SegmentDetailResult['segment'];

/** What a segment's address serves, decided once for both adapters. */
export type SegmentPage =
  | { readonly kind: 'not-found' }
  | { readonly kind: 'card'; readonly segment: Segment }
  /** The shell, with the segment's own head; without it (null) when its answer failed: the page's script says why. */
  | { readonly kind: 'shell'; readonly segment: Segment | null };

/**
 * What `route` serves: the 404 page for an id no catalog holds (and for a
 * picture whose segment could not be read), else the picture or the shell.
 */
export async function segmentPageFor(
  reply: ApiReplier,
  origin: string,
  route: SegmentPageRoute,
): Promise<SegmentPage> {
  const segment = await segmentOf(reply, origin, route.id);
  if (segment === 'unknown') return { kind: 'not-found' };
  if (!route.card) return { kind: 'shell', segment };
  return segment === null ? { kind: 'not-found' } : { kind: 'card', segment };
}

/** What a page answer holds, for either adapter to write. */
export interface PageReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array<ArrayBuffer> | null;
}

/**
 * Pictures drawn lately, by segment and shape: drawing one takes 60–100 ms of
 * CPU, and on `npm start` nothing in front of the server keeps it (on Vercel
 * the CDN does, for `CACHE.catalog`). A segment whose line changes gets a new key.
 */
const drawn = new LRUCache<string, Buffer>({ max: 64 });

/** The segment's picture for link previews; it changes with the catalog, as the segment lists do. */
export function cardReply(segment: Segment, head: boolean): PageReply {
  const key = JSON.stringify([segment.id, segment.line, segment.profile]);
  const png = drawn.get(key) ?? segmentCardPng(segment.line, segment.profile);
  drawn.set(key, png);
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
  const page = route ? await segmentPageFor(reply, url.origin, route) : ({ kind: 'not-found' } as const);
  if (page.kind === 'not-found') return html(404, pages.notFound, CACHE.notFoundPage);
  if (page.kind === 'card') return cardReply(page.segment, head);
  const { segment } = page;
  return html(
    200,
    segment === null ? pages.shell : withSegmentHead(pages.shell, segment, url.origin),
    CACHE.page,
  );
}
