/**
 * Issue 38's words, phones and segment pages in Chromium against the shared `npm start` (demo
 * weather, offline), at a phone's width and a desktop's: a list whose segments all lie beyond the
 * radius says so in its heading and headline; an island and a mountain range named alone are
 * searched at their own extent; the searched place is marked on the map; pricing lists only what
 * Pro adds; the top menu takes two rows on a phone; an unknown segment is a 404; a segment's page
 * names the climb in its title and link-preview tags; the sitemap lists the catalog; the MCP guide
 * tells cloud assistants they need the public address. Each page is checked with axe. What the
 * pages show is compared with the API's own answer where there is one.
 */
import { PNG } from 'pngjs';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { keepOffline } from '../../scripts/browser/offline.ts';
import { DEFAULT_MAP_STYLE_URL } from '../../src/components/map/map-style.ts';
import type { SegmentsNearResult } from '../../src/rest/schemas/segment-results.ts';
import { expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();
const WIDTHS = [390, 1280] as const;
/** MapLibre and its worker parse about 1.6 MB of JavaScript: slow on a loaded two-core machine. */
const MAP_TIMEOUT_MS = 30_000;

async function offline(context: BrowserContext): Promise<void> {
  await keepOffline(context, env.service.baseUrl, { mapStyle: 'local', styleUrl: DEFAULT_MAP_STYLE_URL });
}

async function nearby(query: string): Promise<SegmentsNearResult> {
  const response = await fetch(`${env.service.baseUrl}/v1/segments?${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as SegmentsNearResult;
}

async function open(path: string, width: number) {
  const opened = await newPage(env.browser, { viewport: { width, height: 900 } });
  await offline(opened.context);
  const response = await opened.page.goto(`${env.service.baseUrl}${path}`);
  return { ...opened, status: response?.status() };
}

describe.each(WIDTHS)('at %i px', (width) => {
  it('a list whose segments all lie beyond the radius says so in its heading, and marks the place searched', async () => {
    const result = await nearby('place=Girona');
    expect(result.segments.every((segment) => !segment.within_radius)).toBe(true);
    expect(result.headline).toMatch(
      /^No segment within 25 km of Girona, ES: the \d nearest are \d+–\d+ km away$/,
    );
    const { page, problems, close } = await open('/segments?place=Girona', width);
    await expect.poll(() => page.locator('#segments-status').textContent()).toBe(`${result.headline}.`);
    expect(await page.locator('h1').textContent()).toBe('Nearest segments to Girona, ES');
    await expect
      .poll(() => page.locator('#segments-map').getAttribute('data-map-state'), { timeout: MAP_TIMEOUT_MS })
      .toBe('map');
    const marker = page.locator('#segments-map .map-place-marker');
    expect(await marker.textContent()).toBe('Girona');
    expect(await marker.isVisible()).toBe(true);
    await expectNoAxeViolations(page, `/segments?place=Girona at ${width} px`);
    expect(problems()).toEqual([]);
    await close();
  });

  it('an island and a mountain range named alone are searched at their own extent', async () => {
    for (const place of ['Tenerife', 'Pyrenees']) {
      const result = await nearby(`place=${place}`);
      expect(result.radius_km, place).toBeGreaterThan(25);
      const { page, problems, close } = await open(`/segments?place=${place}`, width);
      await expect.poll(() => page.locator('#segments-status').textContent()).toBe(`${result.headline}.`);
      expect(await page.locator('#segments-status').textContent()).toMatch(
        new RegExp(`within ${result.radius_km} km of ${place}`),
      );
      expect(await page.locator('#segments-failed').isHidden()).toBe(true);
      expect(await page.locator('body').textContent()).not.toMatch(/radius_m/);
      expect(problems()).toEqual([]);
      await close();
    }
  });

  it('pricing lists only what Pro adds: the timeline every segment page shows is not sold as Pro', async () => {
    const { page, problems, close } = await open('/pricing', width);
    const pro = await page.locator('.plan[data-plan="pro_monthly"]').textContent();
    expect(pro).not.toMatch(/timeline on every segment/);
    expect(pro).toMatch(/timeline in your assistant’s answers/);
    await expectNoAxeViolations(page, `/pricing at ${width} px`);
    expect(problems()).toEqual([]);
    await close();
  });

  it('the top menu takes at most two rows, every item reachable and the account always in view', async () => {
    const { page, problems, close } = await open('/', width);
    const header = await page.locator('.site-header').boundingBox();
    expect(header?.height).toBeLessThanOrEqual(110);
    const tops = await page
      .locator('.site-header nav li:not(.account)')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect(tops).toHaveLength(7);
    // "Sign in" is never scrolled out of sight, nor drawn over the brand.
    const account = await page.locator('.site-header [data-account-link]').boundingBox();
    const brand = await page.locator('.site-header .brand').boundingBox();
    expect(account && brand).toBeTruthy();
    if (!account || !brand) return;
    expect(account.x).toBeGreaterThan(brand.x + brand.width);
    expect(account.x + account.width).toBeLessThanOrEqual(width);
    // The last item comes wholly into view once the menu is scrolled to its end.
    await page.locator('.site-header nav').evaluate((nav) => nav.scrollTo({ left: nav.scrollWidth }));
    const last = await page.locator('.site-header nav li:not(.account)').last().boundingBox();
    expect((last?.x ?? 0) + (last?.width ?? Infinity)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page, `/ at ${width} px`);
    expect(problems()).toEqual([]);
    await close();
  });

  it("a segment's source reads in a rider's words, its provenance folded into a 'Data and source' block", async () => {
    const { page, problems, close } = await open('/segments/ad-col-d-ordino-from-ordino', width);
    const source = page
      .locator('#segment-facts dt', { hasText: /^Source$/ })
      .locator('xpath=following-sibling::dd');
    await expect.poll(() => source.textContent()).toBe('From OpenStreetMap (2013) and NASA SRTM heights');
    const block = page.locator('#segment-facts details.data-and-source');
    expect(await block.locator('summary').textContent()).toBe('Data and source');
    expect(await block.getAttribute('open')).toBeNull();
    expect(await block.textContent()).toMatch(/6225803/);
    expect(await page.locator('#segment-facts > dl').textContent()).not.toMatch(/ways|climb rule|\.pbf/);
    await expectNoAxeViolations(page, `segment page at ${width} px`);
    expect(problems()).toEqual([]);
    await close();
  });

  it('an unknown segment answers 404 with the site’s not-found page', async () => {
    const { page, status, close } = await open('/segments/fr-col-de-nulle-part', width);
    expect(status).toBe(404);
    expect(await page.locator('h1').textContent()).toMatch(/not found/i);
    await expectNoAxeViolations(page, `/segments/<unknown> at ${width} px`);
    await close();
  });
});

describe('what a segment page and the site say before any script runs', () => {
  it("a segment's page carries its name and figures in the title, description and link-preview tags", async () => {
    const html = await (await fetch(`${env.service.baseUrl}/segments/fr-alpe-d-huez`)).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    expect(title).toMatch(/^Alpe d'Huez \(from Le Bourg-d'Oisans\): 13\.8 km at 8\.1%, 1120 m climbed/);
    expect(html).toContain(`<meta property="og:title" content="${title}"`);
    expect(html).toMatch(/<meta name="description" content="Alpe d'Huez [^"]*13\.8 km/);
    expect(html).toContain(
      `<meta property="og:url" content="${env.service.baseUrl}/segments/fr-alpe-d-huez">`,
    );
    expect(html.match(/property="og:image"/g)).toHaveLength(1);
    expect(html).toContain(
      `<meta property="og:image" content="${env.service.baseUrl}/segments/fr-alpe-d-huez/card.png">`,
    );
  });

  it("a segment's link-preview picture is its 1200 × 630 PNG; an unknown segment has none", async () => {
    const response = await fetch(`${env.service.baseUrl}/segments/ad-col-d-ordino-from-canillo/card.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
    expect([png.width, png.height]).toEqual([1200, 630]);
    const unknown = await fetch(`${env.service.baseUrl}/segments/fr-col-de-nulle-part/card.png`);
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
  });

  it('the sitemap lists the shipped catalog’s segments', async () => {
    const response = await fetch(`${env.service.baseUrl}/sitemap.xml`);
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toMatch(/<loc>[^<]*\/segments\/fr-alpe-d-huez<\/loc>/);
    expect(xml).toMatch(/<loc>[^<]*\/segments\/ad-col-d-ordino-from-ordino<\/loc>/);
  });

  it('the MCP guide says a cloud assistant needs the public address, and shows the deployed one', async () => {
    const html = await (await fetch(`${env.service.baseUrl}/docs/mcp`)).text();
    const note = /<p id="public-address">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    expect(note).toMatch(/cloud assistant needs a public address/);
    expect(note).toMatch(/<code data-as-built>https:\/\/[^<]+\/mcp<\/code>/);
  });
});
