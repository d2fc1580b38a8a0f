import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ServerMiddleware, ServerRequest } from 'srvx';
import type { ApiReplier } from '../rest/handler.ts';
import type { SegmentDetailResult } from '../rest/schemas/segment-results.ts';

/**
 * `/segments/<id>` on `npm start`: the one shell page serves every segment, so before it is sent
 * the segment is looked up (`GET /v1/segments/{id}`, the answer the page's script reads next, its
 * forecast cached): an id no catalog holds is the site's 404 with status 404, not a 200 page saying
 * "no such segment"; a known one gets its name and figures in the title, the description and the
 * Open Graph tags, so a link shared in a chat shows the climb rather than "Segment".
 */

type Segment = SegmentDetailResult['segment'];

const escape = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** "13.8 km at 8.1%, 1120 m climbed, heading 30°": the figures a rider judges a climb by. */
export function segmentSummary(segment: Segment): string {
  const grade = segment.avg_grade_pct === undefined ? '' : ` at ${segment.avg_grade_pct}%`;
  return `${segment.length_km} km${grade}, ${segment.elevation_gain_m} m climbed, heading ${Math.round(segment.bearing_deg)}°`;
}

/** The shell's head with the segment's own title, description, canonical address and Open Graph tags. */
export function withSegmentHead(html: string, segment: Segment, pageUrl: string): string {
  const title = `${segment.name}: ${segmentSummary(segment)} · wind-on-segment`;
  const description = `${segment.name} (${segment.country}): ${segmentSummary(segment)}. Its map, elevation profile and the tailwind hour by hour for the next three days, with the best window.`;
  const tags = [
    `<link rel="canonical" href="${escape(pageUrl)}">`,
    `<meta property="og:url" content="${escape(pageUrl)}">`,
  ].join('');
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${escape(title)}</title>`)
    .replace(/(<meta name="?description"? content=)"[^"]*"/, `$1"${escape(description)}"`)
    .replace(/(<meta property="?og:title"? content=)"[^"]*"/, `$1"${escape(title)}"`)
    .replace(/(<meta property="?og:description"? content=)"[^"]*"/, `$1"${escape(description)}"`)
    .replace('</head>', `${tags}</head>`);
}

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

/** The lookup before the shell: 404 for an unknown id, the segment's head for a known one. */
export function segmentPages(
  reply: ApiReplier,
  notFound: (request: ServerRequest) => Response | Promise<Response>,
): ServerMiddleware {
  return async (request, next) => {
    const url = new URL(request.url);
    const match = /^\/segments\/([^/]+)\/?$/.exec(url.pathname);
    if (!match?.[1] || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    const answer = await reply('GET', `${url.origin}/v1/segments/${match[1]}`);
    if (answer.status === 404 || answer.status === 400) return notFound(request);
    const response = await next();
    if (answer.status !== 200 || !response.ok || typeof answer.body !== 'string') return response;
    const shell = await textOf(response);
    if (shell === undefined) return response;
    const { segment } = JSON.parse(answer.body) as SegmentDetailResult;
    const html = withSegmentHead(shell, segment, `${url.origin}/segments/${segment.id}`);
    const headers = new Headers(response.headers);
    for (const name of ['content-length', 'etag', 'content-encoding', 'last-modified']) headers.delete(name);
    return new Response(request.method === 'HEAD' ? null : html, { status: 200, headers });
  };
}
