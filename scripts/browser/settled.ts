import type { Page, Request } from 'playwright-core';

/** A map box of the page (`SegmentMap.astro`) and the state its script last wrote (`data-map-state`). */
export interface MapBox {
  readonly id: string;
  /** `waiting` (nothing asked yet), `loading`, `map` (MapLibre drew the line) or `fallback` (the plain drawing). */
  readonly state: string;
  readonly visible: boolean;
}

/** What a settled page showed: its map boxes, for the caller to report. */
export interface Settled {
  readonly maps: readonly MapBox[];
}

export interface SettleOptions {
  /** Give up (with an error naming what was still pending) after this long. */
  readonly timeoutMs?: number;
  /** How long the page must stay settled before it counts, to bridge the step between two requests. */
  readonly quietMs?: number;
}

/** A map box counts as done once it shows the map or its fallback; a hidden one the page never filled is left. */
function pending(box: MapBox): boolean {
  return box.state === 'loading' || (box.visible && box.state === 'waiting');
}

function mapBoxes(page: Page): Promise<MapBox[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-map-state]')].map((figure) => ({
      id: figure.id,
      state: figure.dataset['mapState'] ?? '',
      visible: figure.checkVisibility(),
    })),
  );
}

/**
 * Watches a page from before its first request, so a caller can wait until
 * it has settled: no request to the site still under way (the page's own
 * data, which may reveal a map) and every map box on show in its final
 * state, `map` or `fallback`, steadily for `quietMs`. That is the map's own
 * word that it drew, not a guess from network silence, which a map never
 * reaches while it loads tiles and which a refused style ends only by a
 * timeout. A map box still pending is scrolled to (maps load when near the
 * view), and the page is scrolled back to its top at the end.
 */
export function watchPage(
  page: Page,
  origin: string,
): { settled(options?: SettleOptions): Promise<Settled> } {
  const own = new URL(origin).origin;
  const open = new Set<Request>();
  const isOwn = (request: Request) => new URL(request.url()).origin === own;
  page.on('request', (request) => {
    if (isOwn(request)) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));

  async function settled({ timeoutMs = 60_000, quietMs = 500 }: SettleOptions = {}): Promise<Settled> {
    const deadline = Date.now() + timeoutMs;
    let quietSince: number | undefined;
    for (;;) {
      const maps = await mapBoxes(page);
      const waiting = maps.filter(pending);
      if (open.size === 0 && waiting.length === 0) {
        quietSince ??= Date.now();
        if (Date.now() - quietSince >= quietMs) {
          await page.evaluate(() => window.scrollTo(0, 0));
          return { maps };
        }
      } else {
        quietSince = undefined;
      }
      if (Date.now() > deadline) throw new Error(notSettled(timeoutMs, waiting, open));
      // A map loads once its box is near the view: bring the first one still pending there.
      const next = waiting.find((box) => box.visible)?.id;
      if (next !== undefined) {
        await page.evaluate((id) => document.getElementById(id)?.scrollIntoView({ block: 'center' }), next);
      }
      await page.waitForTimeout(100);
    }
  }
  return { settled };
}

function notSettled(timeoutMs: number, waiting: readonly MapBox[], open: ReadonlySet<Request>): string {
  const why = [
    ...waiting.map(
      (box) => `map #${box.id} is still '${box.state}': neither the map nor its fallback drawing was shown`,
    ),
    ...[...open].slice(0, 3).map((request) => `${request.method()} ${request.url()} is still under way`),
  ];
  return `The page did not settle within ${timeoutMs / 1000} s: ${why.join('; ')}.`;
}
