/**
 * Where the basemap comes from. The default is OpenFreeMap's "liberty"
 * style: vector tiles with no key, no account and no request limit, its
 * style, sprites, glyphs and tiles all on one host. An operator serves their
 * own (for example a PMTiles extract behind a style document of their own) by setting
 * `PUBLIC_MAP_STYLE_URL` when the site is built: the pages are static, and
 * their Content-Security-Policy, which must name the style's host, is a meta
 * tag fixed at build time.
 */

export const DEFAULT_MAP_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

/**
 * The attribution the default tiles require (OpenFreeMap's terms, the
 * OpenMapTiles schema's CC-BY, and OpenStreetMap's ODbL), as HTML for
 * MapLibre's attribution control. An operator's own style brings its own
 * attribution in its sources, so none is added for it.
 */
export const DEFAULT_MAP_ATTRIBUTION =
  '<a href="https://openfreemap.org" target="_blank" rel="noopener">OpenFreeMap</a> ' +
  '<a href="https://www.openmaptiles.org/" target="_blank" rel="noopener">© OpenMapTiles</a> ' +
  'Data from <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">© OpenStreetMap contributors</a>';

/** The style URL of this build: the setting when given (trimmed), else the default. */
export function mapStyleUrl(setting: string | undefined): string {
  const value = setting?.trim();
  return value ? value : DEFAULT_MAP_STYLE_URL;
}

/**
 * The origin the map pages' `connect-src` must add for the style, or
 * undefined when the style is served by the site itself (a path such as
 * `/map/` on the site, which `'self'` already allows). Throws on a URL that
 * is neither, so a mistyped setting fails the build instead of every map.
 */
export function mapStyleOrigin(styleUrl: string): string | undefined {
  if (styleUrl.startsWith('/') && !styleUrl.startsWith('//')) return undefined;
  const url = new URL(styleUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`PUBLIC_MAP_STYLE_URL must be an http(s) URL or a path on this site, not ${styleUrl}`);
  }
  return url.origin;
}

/**
 * What a page with a map adds to its CSP, and nothing more: the style's
 * origin in `connect-src` (style, tiles, sprites and glyphs are fetched) and
 * `blob:` images (MapLibre decodes sprite sheets through object URLs). The
 * worker and the CSS are files of the site, which `'self'` already allows.
 * Astro merges these into the page's meta CSP; a page calls it from its
 * frontmatter (a component's `Astro.csp` does not reach the page's tag).
 */
export function mapCspDirectives(styleUrl: string): [`connect-src ${string}`, `img-src ${string}`] {
  const origin = mapStyleOrigin(styleUrl);
  return [`connect-src 'self'${origin ? ` ${origin}` : ''}`, "img-src 'self' data: blob:"];
}
