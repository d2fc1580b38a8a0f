import { describe, expect, it } from 'vitest';
import { segmentSummary, withSegmentHead } from '../../src/rest/segment-page-head.ts';
import type { SegmentDetailResult } from '../../src/rest/schemas/segment-results.ts';

const SHELL =
  '<html><head><title>Segment · wind-on-segment</title><meta property="og:image" content="https://example.org/og.png"><meta property="og:image:alt" content="A compass"><meta name="description" content="A cycling segment"><meta property="og:title" content="Segment · wind-on-segment"><meta property="og:description" content="A cycling segment"></head><body></body></html>';

const segment = {
  id: 'fr-alpe-d-huez',
  name: 'Alpe d\'Huez (from Le Bourg-d"Oisans)',
  country: 'FR',
  length_km: 13.8,
  avg_grade_pct: 8.1,
  elevation_gain_m: 1120,
  bearing_deg: 30.4,
} as SegmentDetailResult['segment'];

describe("a segment page's head", () => {
  it('carries the name and figures in the title, description and Open Graph tags, escaped', () => {
    const html = withSegmentHead(SHELL, segment, 'http://localhost:3000');
    const title = `Alpe d'Huez (from Le Bourg-d&quot;Oisans): 13.8 km at 8.1%, 1120 m climbed, heading 30° · wind-on-segment`;
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<meta property="og:title" content="${title}"`);
    expect(html).toMatch(
      /<meta name="description" content="Alpe d'Huez \(from Le Bourg-d&quot;Oisans\) \(FR\): 13\.8 km at 8\.1%/,
    );
    expect(html).toMatch(/<meta property="og:description" content="Alpe d'Huez .*hour by hour/);
    expect(html).toContain(
      '<meta property="og:url" content="http://localhost:3000/segments/fr-alpe-d-huez">',
    );
    expect(html).toContain('<link rel="canonical" href="http://localhost:3000/segments/fr-alpe-d-huez">');
    expect(html).not.toContain('Segment · wind-on-segment');
    // Its own picture replaces the site's: one og:image, the segment's card at its stated size.
    expect(html.match(/property="og:image"/g)).toHaveLength(1);
    expect(html).toContain(
      '<meta property="og:image" content="http://localhost:3000/segments/fr-alpe-d-huez/card.png">',
    );
    expect(html).toContain('<meta property="og:image:width" content="1200">');
    expect(html).toMatch(
      /<meta property="og:image:alt" content="The road of Alpe d'Huez .* elevation profile">/,
    );
  });

  it('leaves out a grade it does not know', () => {
    expect(segmentSummary({ ...segment, avg_grade_pct: undefined })).toBe(
      '13.8 km, 1120 m climbed, heading 30°',
    );
  });
});
