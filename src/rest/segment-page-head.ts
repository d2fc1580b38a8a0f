import type { SegmentDetailResult } from './schemas/segment-results.ts';
import { CARD_HEIGHT, CARD_WIDTH } from './segment-card.ts';

/**
 * A segment page's head: the shell page serves every segment, and before it
 * is sent (by `npm start`'s listener, or the REST function on Vercel) its
 * title, description, canonical address and Open Graph tags are made the
 * segment's own, so a link shared in a chat shows the climb, its figures and
 * its picture (`segment-card.ts`) rather than "Segment".
 */

/** Where a segment's page and its picture are. */
export const segmentPagePath = (id: string) => `/segments/${encodeURIComponent(id)}`;
export const segmentCardPath = (id: string) => `${segmentPagePath(id)}/card.png`;

type Segment = SegmentDetailResult['segment'];

const escape = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** "13.8 km at 8.1%, 1120 m climbed, heading 30°": the figures a rider judges a climb by. */
export function segmentSummary(segment: Segment): string {
  const grade = segment.avg_grade_pct === undefined ? '' : ` at ${segment.avg_grade_pct}%`;
  return `${segment.length_km} km${grade}, ${segment.elevation_gain_m} m climbed, heading ${Math.round(segment.bearing_deg)}°`;
}

/** The shell's head with the segment's own title, description, address, Open Graph tags and picture. */
export function withSegmentHead(html: string, segment: Segment, origin: string): string {
  const pageUrl = `${origin}${segmentPagePath(segment.id)}`;
  const imageUrl = `${origin}${segmentCardPath(segment.id)}`;
  const title = `${segment.name}: ${segmentSummary(segment)} · wind-on-segment`;
  const description = `${segment.name} (${segment.country}): ${segmentSummary(segment)}. Its map, elevation profile and the tailwind hour by hour for the next three days, with the best window.`;
  const tags = [
    `<link rel="canonical" href="${escape(pageUrl)}">`,
    `<meta property="og:url" content="${escape(pageUrl)}">`,
    `<meta property="og:image" content="${escape(imageUrl)}">`,
    `<meta property="og:image:width" content="${CARD_WIDTH}">`,
    `<meta property="og:image:height" content="${CARD_HEIGHT}">`,
    `<meta property="og:image:alt" content="${escape(`The road of ${segment.name} from above, and its elevation profile`)}">`,
  ].join('');
  return html
    .replace(/<meta property="?og:image(?::alt)?"? content="[^"]*"\s*\/?>/g, '')
    .replace(/<title>[^<]*<\/title>/, `<title>${escape(title)}</title>`)
    .replace(/(<meta name="?description"? content=)"[^"]*"/, `$1"${escape(description)}"`)
    .replace(/(<meta property="?og:title"? content=)"[^"]*"/, `$1"${escape(title)}"`)
    .replace(/(<meta property="?og:description"? content=)"[^"]*"/, `$1"${escape(description)}"`)
    .replace('</head>', `${tags}</head>`);
}
