import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRoute } from 'astro';

/**
 * `/sitemap.xml`: the site's pages and every segment of the catalog it ships (the hand-traced ones
 * and those discovered from the shipped OpenStreetMap extracts), each at `/segments/<id>`, so search
 * engines find the climbs. Built with the site, from the catalog files themselves (the build runs
 * from the repository root, and a bundled page has no file beside it to read by its own URL);
 * segments discovered on demand later live in a deployment's store, not in the build, and are not listed.
 */
const PAGES = [
  '/',
  '/segments',
  '/docs',
  '/docs/mcp',
  '/docs/routes',
  '/pricing',
  '/reference',
  '/changelog',
];

const CATALOGS = ['src/data/segments/catalog.geojson', 'src/data/segments/discovered.generated.geojson'];

function idsOf(file: string): string[] {
  const collection = JSON.parse(readFileSync(join(process.cwd(), file), 'utf8')) as {
    features: { properties: { id: string } }[];
  };
  return collection.features.map((feature) => feature.properties.id);
}

export const GET: APIRoute = ({ site }) => {
  const origin = (site ?? new URL('http://localhost:3000')).origin;
  const segments = CATALOGS.flatMap(idsOf).map((id) => `/segments/${encodeURIComponent(id)}`);
  const urls = [...PAGES, ...segments].map((path) => `  <url><loc>${origin}${path}</loc></url>`);
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
