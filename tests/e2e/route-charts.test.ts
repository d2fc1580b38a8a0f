/**
 * Issue 38's charts on a phone and a desktop, in Chromium against the shared `npm start` (demo
 * weather, offline): the route calculator's "time gained by start" chart reads in minutes, marks the
 * best start, and shades each reason a start is withheld in its own colour; no axis title overlaps a
 * tick label, from 320 to 1280 px, on the route's two charts and a segment's timeline; every page is
 * checked with axe.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dropFile } from '../../scripts/browser/drop-file.ts';
import { keepOffline } from '../../scripts/browser/offline.ts';
import { DEFAULT_MAP_STYLE_URL } from '../../src/components/map/map-style.ts';
import { expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();
const LOOP = readFileSync(new URL('../fixtures/routes/loop.gpx', import.meta.url), 'utf8');

interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** The y axis title's box and every y tick label's box, as drawn, of one chart. */
async function axisBoxes(page: Page, chartId: string): Promise<{ title: Box; ticks: Box[] }> {
  return page.locator(`#${chartId}`).evaluate((svg) => {
    const box = (node: Element) => {
      const { left, right, top, bottom } = node.getBoundingClientRect();
      return { left, right, top, bottom };
    };
    const title = svg.querySelector('.chart-label-y');
    if (!title) throw new Error('no y axis title');
    return { title: box(title), ticks: [...svg.querySelectorAll('.chart-tick-y')].map(box) };
  });
}

const overlap = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

async function expectTitleClear(page: Page, chartId: string): Promise<void> {
  const { title, ticks } = await axisBoxes(page, chartId);
  expect(ticks.length).toBeGreaterThan(1);
  for (const tick of ticks) expect(overlap(title, tick), `${chartId}: title over a tick label`).toBe(false);
}

describe.each([320, 390, 1280])('at %i px', (width) => {
  it('the time-gained chart reads in minutes with the best start marked, each withheld reason its own colour, and no axis title over a tick', async () => {
    const { page, context, problems, close } = await newPage(env.browser, {
      viewport: { width, height: 900 },
    });
    await keepOffline(context, env.service.baseUrl, { mapStyle: 'local', styleUrl: DEFAULT_MAP_STYLE_URL });
    await page.goto(env.service.baseUrl);
    await page.waitForLoadState('networkidle');
    await dropFile(page, 'loop.gpx', LOOP);
    await expect
      .poll(() => page.locator('#route-forecast').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('result');
    expect(await page.locator('#route-gain-chart-svg .chart-label-y').textContent()).toMatch(
      /^Minutes gained/,
    );
    expect(await page.locator('#route-gain-chart-svg .chart-marker-best').count()).toBe(1);
    // Every tick a whole or tenth of a minute, never hundreds of seconds.
    for (const tick of await page.locator('#route-gain-chart-svg .chart-tick-y').allTextContents()) {
      expect(Math.abs(Number(tick.replace('−', '-')))).toBeLessThan(120);
    }
    const swatches = await page
      .locator('#route-gain-chart-legend .chart-swatch-band')
      .evaluateAll((nodes) =>
        nodes.map((node) => [
          node.parentElement?.textContent?.trim(),
          getComputedStyle(node).backgroundColor,
        ]),
      );
    const reasons = swatches.filter(([label]) => label?.startsWith('Not offered'));
    expect(reasons.length).toBeGreaterThan(0);
    expect(new Set(reasons.map(([, colour]) => colour)).size).toBe(reasons.length);
    await expectTitleClear(page, 'route-gain-chart-svg');
    await expectTitleClear(page, 'route-km-chart-svg');
    await expectNoAxeViolations(page, `route result at ${width} px`);
    expect(problems()).toEqual([]);
    await close();
  }, 60_000);

  it("a segment's timeline has no axis title or marker label over a tick label", async () => {
    const { page, context, problems, close } = await newPage(env.browser, {
      viewport: { width, height: 900 },
    });
    await keepOffline(context, env.service.baseUrl, { mapStyle: 'local', styleUrl: DEFAULT_MAP_STYLE_URL });
    await page.goto(`${env.service.baseUrl}/segments/fr-alpe-d-huez`);
    await expect.poll(() => page.locator('#segment-timeline-svg .chart-tick-y').count()).toBeGreaterThan(1);
    await expectTitleClear(page, 'segment-timeline-svg');
    const { ticks } = await axisBoxes(page, 'segment-timeline-svg');
    const labels = await page.locator('#segment-timeline-svg .chart-marker-label').evaluateAll((nodes) =>
      nodes.map((node) => {
        const { left, right, top, bottom } = node.getBoundingClientRect();
        return { left, right, top, bottom };
      }),
    );
    for (const label of labels) {
      for (const tick of ticks) expect(overlap(label, tick), 'a marker label over a tick label').toBe(false);
    }
    expect(problems()).toEqual([]);
    await close();
  });
});
