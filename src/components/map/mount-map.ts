import { fallbackSvg } from './fallback-svg.ts';
import type { SegmentMapInput } from './map-input.ts';
import { planMap } from './map-plan.ts';

/**
 * The map module's one entry point for a page.
 *
 * ```ts
 * await mountSegmentMap(figure, { lines: [{ coordinates, values, name, loop }], details: true });
 * ```
 *
 * `figure` is the element `SegmentMap.astro` renders (it carries the style
 * URL and attribution chosen at build time, the legend and the note). The
 * input is [lon, lat] positions plus optional per-part signed tailwind
 * values (see `MapLine`). MapLibre itself is fetched with `import()` after
 * the page's first paint, once the box is near the viewport, so a page's own
 * script stays small; where WebGL is
 * missing, or the style or tiles fail or take longer than `timeoutMs`, the
 * same plan is drawn as a plain SVG with one sentence saying why. Resolves
 * with what is shown, also written to `figure.dataset.mapState`. Calling it
 * again replaces the previous drawing.
 */
export async function mountSegmentMap(
  figure: HTMLElement,
  input: SegmentMapInput,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): Promise<'map' | 'fallback'> {
  const canvas = figure.querySelector<HTMLElement>('[data-map-canvas]');
  const note = figure.querySelector<HTMLElement>('[data-map-note]');
  if (!canvas || !note) throw new Error('mountSegmentMap needs the markup of SegmentMap.astro');
  previous.get(figure)?.remove();
  previous.delete(figure);
  canvas.replaceChildren();
  note.hidden = true;
  figure.dataset['mapState'] = 'loading';
  const plan = planMap(input);
  const label = canvas.getAttribute('aria-label') ?? 'Map';
  const showFallback = (why: string): 'fallback' => {
    canvas.replaceChildren(fallbackSvg(plan, label));
    note.textContent = why;
    note.hidden = false;
    figure.dataset['mapState'] = 'fallback';
    return 'fallback';
  };
  if (!hasWebGl()) {
    return showFallback(
      'Your browser cannot draw the background map (WebGL is off or missing), so this is the line alone.',
    );
  }
  await nearViewAndIdle(canvas);
  try {
    const { showMapLibreMap } = await import('./maplibre-view.ts');
    const shown = await showMapLibreMap(canvas, plan, {
      styleUrl: figure.dataset['styleUrl'] ?? '',
      attribution: figure.dataset['attribution'] || undefined,
      timeoutMs,
    });
    previous.set(figure, shown);
    figure.dataset['mapState'] = 'map';
    return 'map';
  } catch {
    return showFallback(
      'The background map did not load (offline, blocked or too slow), so this is the line alone.',
    );
  }
}

/** The MapLibre map last shown in each figure, removed before the next drawing. */
const previous = new WeakMap<HTMLElement, { remove(): void }>();

/** Whether this browser can give MapLibre a WebGL context (MapLibre needs WebGL 2 from version 5). */
function hasWebGl(): boolean {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

/**
 * Resolves once the map's box is within a screen of the viewport and the
 * browser has a quiet moment (at most 2 s after that), never before the next
 * frame has painted: MapLibre's 290 KB gzip are fetched and parsed after the
 * page's text and charts, not in their way, and not at all for a reader who
 * never scrolls to a map far down the page.
 */
function nearViewAndIdle(box: HTMLElement): Promise<void> {
  const painted = new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const near = new Promise<void>((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(box);
  });
  return Promise.all([painted, near]).then(
    () => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })),
  );
}
