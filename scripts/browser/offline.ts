import type { BrowserContext } from 'playwright-core';
import { mapStyleOrigin, mapStyleUrl } from '../../src/components/map/map-style.ts';

/**
 * A map style with no sources and one background layer: MapLibre loads it
 * without a tile, a sprite or a glyph, so a page's map really draws (its
 * line, markers and attribution over a plain ground) on a machine with no
 * network. The browser tests and `npm run screenshot` answer the style URL
 * with it, so their pictures and assertions never depend on a tile server.
 */
export const LOCAL_MAP_STYLE = {
  version: 8,
  sources: {},
  layers: [{ id: 'paper', type: 'background', paint: { 'background-color': '#eef1f4' } }],
} as const;

/** What the map style URL gets: the local style, or a refusal (to see the map's fallback drawing). */
export type MapStyleAnswer = 'local' | 'refused';

/**
 * Keeps a browser context off the network: every request to an origin other
 * than `ownOrigin` fails as a disconnected machine's would, except the map
 * style at `styleUrl` (by default the one a build in this environment
 * uses), which is answered per `mapStyle`. A style served by the site
 * itself (a path) is left to the site. Routes added later take
 * precedence, so a caller can still answer one URL its own way.
 */
export async function keepOffline(
  context: BrowserContext,
  ownOrigin: string,
  {
    mapStyle,
    styleUrl = mapStyleUrl(process.env['PUBLIC_MAP_STYLE_URL']),
  }: { mapStyle: MapStyleAnswer; styleUrl?: string },
): Promise<void> {
  const own = new URL(ownOrigin).origin;
  await context.route(
    (url) => url.origin !== own,
    (route) => route.abort('internetdisconnected'),
  );
  if (mapStyleOrigin(styleUrl) === undefined) return;
  await context.route(styleUrl, (route) =>
    mapStyle === 'local' ? route.fulfill({ json: LOCAL_MAP_STYLE }) : route.abort('internetdisconnected'),
  );
}
