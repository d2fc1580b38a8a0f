/**
 * The segment pages in Chromium against `npm start` (demo forecast), with no
 * network: every request off the test server is refused, and the map style
 * URL is answered with the local style of scripts/browser/offline.ts (one
 * background layer), so MapLibre really loads, draws and reports `map`. What the pages show is compared with
 * the API's own answer, never with figures written here.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PLAYWRIGHT_CHROMIUM_ARGS, ensureChromium } from '../../scripts/browser/chromium.ts';
import { keepOffline, type MapStyleAnswer } from '../../scripts/browser/offline.ts';
import { DEFAULT_MAP_STYLE_URL } from '../../src/components/map/map-style.ts';
import type { SegmentDetailResult, SegmentsNearResult } from '../../src/rest/schemas/segment-results.ts';
import { expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();

/** A place with catalog segments around it (Alpe d'Huez and its neighbours). */
const PLACE = "Bourg-d'Oisans";
/** MapLibre and its worker parse about 1.6 MB of JavaScript: slow on a loaded two-core machine. */
const MAP_TIMEOUT_MS = 30_000;
/** A segment id that no catalog holds: the page asks for it on purpose and logs the API's 404. */
const MISSING = /status of 404/;

/** No request leaves the machine; the map style is answered locally, or refused to test the fallback. */
async function offline(context: BrowserContext, style: MapStyleAnswer): Promise<void> {
  await keepOffline(context, env.service.baseUrl, { mapStyle: style, styleUrl: DEFAULT_MAP_STYLE_URL });
}

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${env.service.baseUrl}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

async function mapState(page: Page, id: string): Promise<string | null> {
  return page.locator(`#${id}`).getAttribute('data-map-state');
}

async function nearby(): Promise<SegmentsNearResult> {
  const result = await api<SegmentsNearResult>(`/v1/segments?place=${encodeURIComponent(PLACE)}`);
  expect(result.segments.length).toBeGreaterThan(0);
  return result;
}

describe('/segments', () => {
  it('lists and maps the segments near a place, as GET /v1/segments answers, with the demo label and credits', async () => {
    const result = await nearby();
    const { page, context, problems, close } = await newPage(env.browser);
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/segments?place=${encodeURIComponent(PLACE)}`);
    const links = page.locator('#segments-list .segment-item h3 a');
    await expect.poll(() => links.count()).toBe(result.segments.length);
    expect(await links.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href')))).toEqual(
      result.segments.map((segment) => `/segments/${segment.id}`),
    );
    expect(await links.allTextContents()).toEqual(result.segments.map((segment) => segment.name));
    expect(await page.getByLabel('Place or coordinates').inputValue()).toBe(PLACE);
    if (result.forecast.demo) await expect.poll(() => page.locator('.demo-label').isVisible()).toBe(true);
    const credits = await page.locator('#segments-credits li').allTextContents();
    expect(credits).toEqual(expect.arrayContaining([result.forecast.attribution, ...result.attribution]));
    await expect.poll(() => mapState(page, 'segments-map'), { timeout: MAP_TIMEOUT_MS }).toBe('map');
    expect(await page.locator('#segments-map canvas.maplibregl-canvas').count()).toBe(1);
    // One start marker per segment, numbered as the list is.
    expect(await page.locator('#segments-map .map-end-marker').allTextContents()).toEqual(
      result.segments.map((_, index) => String(index + 1)),
    );
    expect(await page.locator('#segments-map .maplibregl-ctrl-attrib').textContent()).toMatch(
      /OpenStreetMap/,
    );
    await expectNoAxeViolations(page, '/segments with results');
    expect(problems()).toEqual([]);
    await close();
  });

  it('takes coordinates in the search box and keeps the search in the address', async () => {
    const { page, context, problems, close } = await newPage(env.browser);
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/segments`);
    await page.getByLabel('Place or coordinates').fill('45.0565, 6.0307');
    await page.getByRole('button', { name: 'Find segments' }).click();
    await page.waitForURL(/\/segments\?place=45\.0565%2C\+6\.0307$/);
    const result = await api<SegmentsNearResult>('/v1/segments?lat=45.0565&lon=6.0307');
    await expect
      .poll(() => page.locator('#segments-list .segment-item').count())
      .toBe(result.segments.length);
    expect(problems()).toEqual([]);
    await close();
  });

  it('says why nothing is listed and what to try, without a map', async () => {
    // Mid-Pacific: no road within any radius.
    const result = await api<SegmentsNearResult>('/v1/segments?lat=-30&lon=-140');
    expect(result.segments).toEqual([]);
    const { page, context, problems, close } = await newPage(env.browser);
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/segments?lat=-30&lon=-140`);
    await expect.poll(() => page.locator('#segments-list .empty').isVisible()).toBe(true);
    const words = (await page.locator('#segments-list .empty').textContent()) ?? '';
    expect(words).toContain(result.mapping ?? `${result.radius_km} km`);
    expect(await page.locator('#segments-list .empty a').getAttribute('href')).toContain('radius_km=100');
    expect(await page.locator('#segments-map').isHidden()).toBe(true);
    expect(problems()).toEqual([]);
    await close();
  });

  it('shows the API’s problem for a bad search, precisely', async () => {
    const { page, context, problems, close } = await newPage(env.browser, { allow: [/status of 400/] });
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/segments?lat=95&lon=6`);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/lat must be from -90 to 90/);
    expect(problems()).toEqual([]);
    await close();
  });
});

describe('/segments/<id>', () => {
  it('shows the segment on a map, its profile and the three-day timeline, as GET /v1/segments/{id} answers', async () => {
    const id = (await nearby()).segments[0]?.id ?? '';
    const detail = await api<SegmentDetailResult>(`/v1/segments/${id}`);
    const { page, context, problems, close } = await newPage(env.browser);
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/segments/${id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(detail.segment.name);
    // The timeline: one bar per hour, and a table row per hour for screen readers.
    await expect
      .poll(() => page.locator('#segment-timeline-table tbody tr').count())
      .toBe(detail.hours.length);
    expect(
      await page.locator('#segment-timeline-svg rect.chart-bar, #segment-timeline-svg .chart-bar').count(),
    ).toBeGreaterThanOrEqual(detail.hours.length);
    const best = page.locator('#segment-timeline-svg .chart-band-best');
    expect(await best.count()).toBe(detail.best_window ? 1 : 0);
    if (detail.hours.some((hour) => !hour.daylight))
      expect(await page.locator('#segment-timeline-svg .chart-band-dark').count()).toBeGreaterThan(0);
    // The profile, or the sentence saying there are no heights.
    if (detail.segment.profile) {
      expect(await page.locator('#segment-profile-table tbody tr').count()).toBe(
        detail.segment.profile.length,
      );
    } else {
      expect(await page.locator('#segment-profile-none').isVisible()).toBe(true);
    }
    // The Pro note in the page's words: a link, no raw address, no tool names (the API's note is for integrators).
    const ensemble = page.locator('#segment-ensemble-locked');
    expect(await ensemble.isVisible()).toBe(detail.ensemble.locked);
    expect(await ensemble.locator('a').getAttribute('href')).toBe('/pricing');
    expect(await ensemble.textContent()).not.toMatch(/https?:|get_segment|find_tailwind|MCP/);
    // A visitor who never signed in gets a link that brings them back here.
    expect(await page.locator('#segment-watch a').getAttribute('href')).toBe(
      `/login?return=${encodeURIComponent(`/segments/${id}`)}`,
    );
    await expect.poll(() => mapState(page, 'segment-map'), { timeout: MAP_TIMEOUT_MS }).toBe('map');
    expect(await page.locator('#segment-map .map-km-marker').count()).toBeGreaterThan(0);
    expect(await page.locator('#segment-map .map-arrow-marker').count()).toBe(6);
    expect(await page.locator('#segment-map .map-end-marker').count()).toBeGreaterThanOrEqual(1);
    await expectNoAxeViolations(page, `/segments/${id}`);
    expect(problems()).toEqual([]);
    await close();
  });

  it('keeps every bar inside the plot and every axis title inside the chart at 320 px', async () => {
    const id = (await nearby()).segments[0]?.id ?? '';
    const { page, context, problems, close } = await newPage(env.browser);
    await page.setViewportSize({ width: 320, height: 800 });
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/segments/${id}`);
    await expect.poll(() => page.locator('#segment-timeline-svg .chart-bar').count()).toBeGreaterThan(0);
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll<SVGSVGElement>('svg.chart-svg')].flatMap((svg) => {
        const box = svg.getBoundingClientRect();
        const axis = svg.querySelector('.chart-axis')?.getBoundingClientRect();
        const grid = [...svg.querySelectorAll('.chart-grid, .chart-zero')].map(
          (l) => l.getBoundingClientRect().top,
        );
        const top = Math.min(...grid);
        const bad: string[] = [];
        for (const title of svg.querySelectorAll('.chart-label')) {
          const r = title.getBoundingClientRect();
          if (
            r.left < box.left - 0.5 ||
            r.right > box.right + 0.5 ||
            r.top < box.top - 0.5 ||
            r.bottom > box.bottom + 0.5
          )
            bad.push(`${svg.id}: title "${title.textContent}" outside`);
        }
        for (const bar of svg.querySelectorAll('.chart-bar')) {
          const r = bar.getBoundingClientRect();
          if (axis && (r.bottom > axis.bottom + 0.5 || r.top < top - 0.5))
            bad.push(`${svg.id}: bar outside the ticks`);
        }
        return bad;
      }),
    );
    expect(outside).toEqual([]);
    expect(problems()).toEqual([]);
    await close();
  });

  it('answers an unknown id with a 404 and a way back to the search', async () => {
    const { page, context, problems, close } = await newPage(env.browser, { allow: [MISSING] });
    await offline(context, 'local');
    // Since 1.8 the server looks the id up before it sends the page: an unknown one is the site's 404.
    const response = await page.goto(`${env.service.baseUrl}/segments/zz-no-such-segment`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    expect(await page.locator('main a[href="/segments"]').count()).toBe(1);
    await expectNoAxeViolations(page, 'an unknown segment');
    expect(problems()).toEqual([]);
    await close();
  });

  it('lets a signed-in rider watch the segment and stop watching it', async () => {
    const id = (await nearby()).segments[0]?.id ?? '';
    const { page, context, problems, close } = await newPage(env.browser);
    await offline(context, 'local');
    await page.goto(`${env.service.baseUrl}/signup`);
    await page.getByLabel('Email').fill(`watch-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a watching passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/settings$/);
    await page.goto(`${env.service.baseUrl}/segments/${id}`);
    const button = page.getByRole('button', { name: 'Watch this segment' });
    await button.click();
    await expect.poll(() => page.locator('#segment-watch-status').textContent()).toMatch(/on your watchlist/);
    expect(await page.locator('#segment-watch button').getAttribute('aria-pressed')).toBe('true');
    const me = (await (await context.request.get(`${env.service.baseUrl}/api/rider/me`)).json()) as {
      watchlist: { segment_id: string }[];
    };
    expect(me.watchlist.map((entry) => entry.segment_id)).toContain(id);
    await page.reload();
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await expect.poll(() => page.locator('#segment-watch-status').textContent()).toMatch(/no longer watched/);
    expect(problems()).toEqual([]);
    await close();
  });
});

describe('the map’s fallback', () => {
  it('draws the plain line with its sentence when the style cannot be loaded (offline)', async () => {
    const id = (await nearby()).segments[0]?.id ?? '';
    const { page, context, problems, close } = await newPage(env.browser, {
      allow: [/ERR_INTERNET_DISCONNECTED/, /internetdisconnected/],
    });
    await offline(context, 'refused');
    await page.goto(`${env.service.baseUrl}/segments/${id}`);
    await expect.poll(() => mapState(page, 'segment-map'), { timeout: MAP_TIMEOUT_MS }).toBe('fallback');
    expect(await page.locator('#segment-map [data-map-note]').textContent()).toMatch(/did not load/);
    expect(await page.locator('#segment-map svg.map-fallback path.map-run').count()).toBeGreaterThan(0);
    expect(await page.locator('#segment-map canvas').count()).toBe(0);
    expect(problems().filter((problem) => !problem.includes('tiles.openfreemap.org'))).toEqual([]);
    await close();
  });

  it('draws the plain line with its sentence where WebGL is off, on both map pages', async () => {
    const browser = await chromium.launch({
      executablePath: ensureChromium(),
      args: [...PLAYWRIGHT_CHROMIUM_ARGS, '--disable-webgl'],
    });
    try {
      const { page, context, problems, close } = await newPage(browser, {
        viewport: { width: 390, height: 844 },
      });
      await offline(context, 'local');
      const result = await nearby();
      await page.goto(`${env.service.baseUrl}/segments?place=${encodeURIComponent(PLACE)}`);
      await expect.poll(() => mapState(page, 'segments-map'), { timeout: MAP_TIMEOUT_MS }).toBe('fallback');
      expect(await page.locator('#segments-map [data-map-note]').textContent()).toMatch(/WebGL/);
      expect(await page.locator('#segments-map svg.map-fallback .map-end').count()).toBe(
        result.segments.length,
      );
      await expectNoAxeViolations(page, '/segments without WebGL');
      await page.goto(`${env.service.baseUrl}/segments/${result.segments[0]?.id ?? ''}`);
      await expect.poll(() => mapState(page, 'segment-map'), { timeout: MAP_TIMEOUT_MS }).toBe('fallback');
      expect(await page.locator('#segment-map svg.map-fallback .map-arrow').count()).toBe(6);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page, '/segments/<id> without WebGL');
      expect(problems()).toEqual([]);
      await close();
    } finally {
      await browser.close();
    }
  });
});

describe('dark mode', () => {
  it('passes axe on both map pages in dark mode', async () => {
    const id = (await nearby()).segments[0]?.id ?? '';
    const { page, context, problems, close } = await newPage(env.browser, { colorScheme: 'dark' });
    await offline(context, 'local');
    for (const [path, map] of [
      [`/segments?place=${encodeURIComponent(PLACE)}`, 'segments-map'],
      [`/segments/${id}`, 'segment-map'],
    ] as const) {
      await page.goto(`${env.service.baseUrl}${path}`);
      await expect.poll(() => mapState(page, map), { timeout: MAP_TIMEOUT_MS }).toBe('map');
      await expectNoAxeViolations(page, `${path} (dark)`);
    }
    expect(problems()).toEqual([]);
    await close();
  });
});
