/**
 * The route calculator's forecast mode in Chromium against `npm start` (demo
 * forecast), with no network beyond the test server: a dropped GPX loop is
 * judged against `GET /v1/wind` per grid cell and shows its best starts in the
 * place's local time, both ways round, two charts with their tables and the
 * map (here its plain drawing: the map style is refused). Figures are held
 * against the core judging the same cells' answers, never written here. Every
 * request the page makes is recorded: none carries the route.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dropFile } from '../../scripts/browser/drop-file.ts';
import { keepOffline } from '../../scripts/browser/offline.ts';
import { judgeInForecast, routeCells } from '../../src/components/calculator/route/route-forecast-model.ts';
import { readRouteText } from '../../src/components/calculator/route/route-source.ts';
import { readWindAnswer } from '../../src/components/calculator/route/wind-answer.ts';
import { localDateTime } from '../../src/core/local-time.ts';
import { prepareRoute } from '../../src/core/route/route-prepare.ts';
import { hourStart } from '../../src/core/time.ts';
import { expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();

const LOOP = readFileSync(new URL('../fixtures/routes/loop.gpx', import.meta.url), 'utf8');

/** Nothing leaves the machine: every request off the test server is refused (so the map shows its drawing). */
async function offline(context: BrowserContext): Promise<void> {
  await keepOffline(context, env.service.baseUrl, { mapStyle: 'refused' });
}

/** What the core makes of the loop in the cells' answers as the API gives them now. */
async function expected(nowMs: number) {
  const route = prepareRoute(readRouteText(LOOP));
  const cells = routeCells(route);
  const answers = await Promise.all(
    cells.cells.map(async (cell) => {
      const response = await fetch(
        `${env.service.baseUrl}/v1/wind?lat=${cell.center.lat}&lon=${cell.center.lon}`,
      );
      expect(response.status).toBe(200);
      return readWindAnswer(await response.json());
    }),
  );
  const result = judgeInForecast(route, cells, answers, nowMs);
  if (result === null) throw new Error('the demo forecast judged nothing');
  return { route, cells, result };
}

/** Every coordinate of the route as its file writes it, and as a request could carry it (4+ decimals). */
function routeCoordinateTexts(): string[] {
  const texts = new Set<string>();
  for (const match of LOOP.matchAll(/(?:lat|lon)="(-?[\d.]+)"/g)) {
    const value = match[1] ?? '';
    texts.add(value);
    texts.add(String(Number(value)));
    texts.add(Number(value).toFixed(4));
  }
  // A grid-cell centre such as 45.9 or 6.2 is not the route's: keep only figures finer than the grid.
  return [...texts].filter((text) => !/^-?\d+(\.\d{0,2})?$/.test(text) && !/^-?\d+\.\d[05]?0*$/.test(text));
}

describe('the route calculator with the forecast, in Chromium', () => {
  it('judges a dropped GPX loop in the forecast: best starts in local time, both ways round, charts, no route sent', async () => {
    const { page, context, problems, close } = await newPage(env.browser, {
      allow: [/net::ERR_INTERNET_DISCONNECTED/, /Failed to load resource/],
    });
    await offline(context);
    await page.goto(`${env.service.baseUrl}/`);
    await page.waitForLoadState('networkidle');
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    expect(await page.locator('input[name="route-mode"][value="forecast"]').isChecked()).toBe(true);
    const hourBefore = hourStart(Date.now());
    await dropFile(page, 'loop.gpx', LOOP);
    await expect
      .poll(() => page.locator('#route-forecast').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('result');
    const nowMs = Date.now();
    const { cells, result } = await expected(nowMs);

    // Only cell centres went to /v1/wind, each once, and no request carries a coordinate of the route.
    const windRequests = requests.filter((r) => new URL(r.url()).pathname === '/v1/wind');
    const asked = windRequests.map((r) => {
      const url = new URL(r.url());
      expect([...url.searchParams.keys()].sort()).toEqual(['lat', 'lon']);
      return `${url.searchParams.get('lat')},${url.searchParams.get('lon')}`;
    });
    expect(asked.sort()).toEqual(cells.cells.map((c) => `${c.center.lat},${c.center.lon}`).sort());
    const forbidden = routeCoordinateTexts();
    expect(forbidden.length).toBeGreaterThan(100);
    for (const request of requests) {
      expect(request.method(), request.url()).toBe('GET');
      const sent = `${request.url()} ${request.postData() ?? ''}`;
      for (const text of forbidden) expect(sent, `${request.url()} carries ${text}`).not.toContain(text);
    }

    // The figures are the core's for this forecast (skipped only if an hour turned while the page worked).
    const best = result.starts[0];
    expect(best).toBeDefined();
    expect(result.judgement.shape).toBe('loop');
    const rows = page.locator('#route-starts tbody tr');
    await expect.poll(() => rows.count()).toBe(result.starts.length);
    const firstRow = await rows.first().locator('th, td').allTextContents();
    if (hourStart(nowMs) === hourBefore && best) {
      const local = localDateTime(Date.parse(best.start) / 1000, result.timeZone);
      // Local time of the place, with its zone's name (CET or CEST at Annecy).
      expect(firstRow[0]).toBe(local);
      expect(firstRow[0]).toMatch(/ \d{2}:00 CES?T$/);
      expect(firstRow[1]).toBe(best.direction === 'reversed' ? 'reversed' : 'as given');
      expect(await page.locator('[data-figure="forecast-headwind-share"]').textContent()).toBe(
        `${best.headwind_share_pct}% of the length`,
      );
      const lead = (await page.locator('#route-forecast-lead').textContent()) ?? '';
      // Words agree with figures: the lead names the faster way, the best start and both ways' times.
      expect(lead).toContain(`Faster ${best.direction === 'reversed' ? 'reversed' : 'as given'}`);
      expect(lead).toContain(local);
      expect(lead).toContain('the other way round');
      expect(lead).toContain(best.time_gained_s >= 0 ? 'the wind gains' : 'the wind costs');
    }
    // Both ways round: a column for the way and one for the other way, and two lines on the chart.
    expect(await page.locator('#route-starts thead th').allTextContents()).toEqual(
      expect.arrayContaining(['Way round', 'The other way round']),
    );
    expect(await page.locator('#route-gain-chart-svg .chart-series-line').count()).toBe(2);
    expect(await page.locator('#route-gain-chart-svg .chart-marker-best').count()).toBe(1);
    expect(await page.locator('#route-gain-chart-table thead th').allTextContents()).toEqual([
      expect.stringMatching(/^Start \(CES?T\)$/),
      'As given',
      'Reversed',
      'Marked',
    ]);
    expect(await page.locator('#route-gain-chart-table tbody tr').count()).toBe(
      result.judgement.asGiven.length,
    );
    // The wind per km: one bar per km, coloured by its sign, and a table row each.
    const bars = await page
      .locator('#route-km-chart-svg .chart-bar')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('class') ?? ''));
    expect(bars).toHaveLength(result.perKm.length);
    bars.forEach((className, i) =>
      expect(className).toContain(
        (result.perKm[i]?.tailwind_kmh ?? 0) >= 0 ? 'chart-positive' : 'chart-negative',
      ),
    );
    expect(await page.locator('#route-km-chart-table tbody tr').count()).toBe(result.perKm.length);
    // The forecast is named, dated and credited; the demo is said to be one.
    expect(await page.locator('#route-forecast-source').textContent()).toMatch(
      /^Forecast: the demo forecast, issued /,
    );
    expect(await page.locator('#route-forecast-demo').isVisible()).toBe(result.forecast.demo);
    expect(await page.locator('#route-forecast-attribution').textContent()).toBe(result.forecast.attribution);
    // The map: the tiles are refused here, so its plain drawing with one sentence saying why (it loads near the view).
    await page.locator('#route-live-map').scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.locator('#route-live-map').getAttribute('data-map-state'), { timeout: 30_000 })
      .toMatch(/^(fallback|map)$/);
    if ((await page.locator('#route-live-map').getAttribute('data-map-state')) === 'fallback')
      expect(await page.locator('#route-live-map [data-map-note]').textContent()).toMatch(/\.$/);
    await expectNoAxeViolations(page, '/ with a loop judged in the forecast');
    // The manual switch still works on the same route, and the forecast comes back without asking again.
    await page.locator('input[name="route-mode"][value="manual"]').check();
    await page.getByLabel('Wind speed', { exact: true }).fill('20');
    await page.getByLabel('Wind direction', { exact: true }).fill('250');
    await expect.poll(() => page.locator('[data-figure="time-as-given"]').isVisible()).toBe(true);
    expect(await page.locator('#route-forecast').isHidden()).toBe(true);
    await expectNoAxeViolations(page, '/ with a loop judged against a typed wind');
    const asked1 = requests.filter((r) => new URL(r.url()).pathname === '/v1/wind').length;
    await page.locator('input[name="route-mode"][value="forecast"]').check();
    await expect.poll(() => page.locator('#route-forecast').getAttribute('data-state')).toBe('result');
    expect(requests.filter((r) => new URL(r.url()).pathname === '/v1/wind').length).toBe(asked1);
    expect(problems()).toEqual([]);
    await close();
  }, 90_000);

  it.each([
    {
      what: 'a 503',
      answer: 503,
      sentence: /^The forecast service is unavailable right now; try again in a few minutes\./,
    },
    {
      what: 'a 429',
      answer: 429,
      sentence: /^The forecast service has had too many requests from this address just now/,
    },
    {
      what: 'no network',
      answer: 'abort',
      sentence: /^The forecast could not be reached: check the connection and try again\./,
    },
  ] as const)(
    'says in one sentence when the forecast fails ($what), and the typed wind still works',
    async ({ answer, sentence }) => {
      const { page, context, close } = await newPage(env.browser);
      await offline(context);
      await context.route('**/v1/wind?**', (route) =>
        answer === 'abort'
          ? route.abort('internetdisconnected')
          : route.fulfill({
              status: answer,
              contentType: 'application/problem+json',
              headers: { 'retry-after': '30' },
              body: JSON.stringify({ type: 'about:blank', title: 'Unavailable', status: answer }),
            }),
      );
      await page.goto(`${env.service.baseUrl}/`);
      await dropFile(page, 'loop.gpx', LOOP);
      await expect
        .poll(() => page.locator('#route-forecast').getAttribute('data-state'), { timeout: 20_000 })
        .toBe('problem');
      const problem = (await page.locator('#route-forecast-problem').textContent()) ?? '';
      expect(problem).toMatch(sentence);
      expect(problem).toContain('The typed wind still works');
      await expectNoAxeViolations(page, `/ with the forecast failing (${String(answer)})`);
      await page.locator('input[name="route-mode"][value="manual"]').check();
      await page.getByLabel('Wind speed', { exact: true }).fill('20');
      await page.getByLabel('Wind direction', { exact: true }).fill('250');
      await expect
        .poll(() => page.locator('[data-figure="faster-direction"]').textContent())
        .toMatch(/faster|same time/);
      expect(await page.locator('#route-forecast').isHidden()).toBe(true);
      await close();
    },
    60_000,
  );
});
