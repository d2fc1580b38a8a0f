/**
 * The route calculator's axe checks with a route drawn, in both modes (typed wind, forecast), at
 * three widths and in both colour schemes: a file of its own (from calculator-route.test.ts), so the
 * two files run on two workers side by side.
 *
 * Each route is drawn once per mode, at a phone's width as a rider on a phone sees it, then the same
 * page is turned (narrower, wider; light, dark) and checked again: what a phone turned sideways or a
 * window resized shows, and a third of the draws the checks used to make. axe's full rule set runs in
 * each scheme's first look; the other widths of that scheme add the rules that read sizes and colours.
 */
import { describe, expect, it } from 'vitest';
import { COLOUR_RULES, expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { fixture, pickFile, waitForRoute } from './route-file.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();

/** The looks each drawn route is checked in, in order: the first is the one it is drawn in. */
const LOOKS = [
  { width: 320, height: 800, scheme: 'light' },
  { width: 390, height: 844, scheme: 'dark' },
  { width: 1280, height: 900, scheme: 'dark' },
  { width: 1280, height: 900, scheme: 'light' },
  { width: 320, height: 800, scheme: 'dark' },
] as const;

/** The rules a narrower or wider window of a scheme already checked can still fail. */
const SIZE_RULES = [...COLOUR_RULES, 'target-size', 'meta-viewport', 'scrollable-region-focusable'];

describe('the route calculator in Chromium, for everyone', () => {
  it.each([
    { file: 'switchbacks.gpx', name: 'Hairpin climb', mode: 'manual' as const },
    { file: 'switchbacks.gpx', name: 'Hairpin climb', mode: 'forecast' as const },
    { file: 'loop.gpx', name: 'Lake loop', mode: 'manual' as const },
    { file: 'loop.gpx', name: 'Lake loop', mode: 'forecast' as const },
  ])(
    'has no axe violations with $file drawn ($mode wind), at 320, 390 and 1280 px, light and dark',
    async ({ file, name, mode }) => {
      const [first] = LOOKS;
      const { page, context, close } = await newPage(env.browser, {
        viewport: { width: first.width, height: first.height },
        colorScheme: first.scheme,
      });
      // No request leaves the test server (the map then shows its plain drawing).
      const own = new URL(env.service.baseUrl).origin;
      await context.route(
        (url) => url.origin !== own,
        (route) => route.abort('internetdisconnected'),
      );
      await page.goto(`${env.service.baseUrl}/`);
      if (mode === 'manual') await page.locator('input[name="route-mode"][value="manual"]').check();
      await pickFile(page, file, Buffer.from(fixture(file)));
      await waitForRoute(page, name);
      if (mode === 'forecast')
        await expect
          .poll(() => page.locator('#route-forecast').getAttribute('data-state'), { timeout: 20_000 })
          .toBe('result');
      for (const summary of await page.locator('#route-result summary:visible').all()) await summary.click();
      await page.screenshot({
        path: `test-results/screenshots/home-route-${file.replace(/\W+/g, '-')}-${first.width}-${mode}.png`,
        fullPage: true,
      });
      const checked = new Set<string>();
      for (const { width, height, scheme } of LOOKS) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        // Two frames: resize observers run, then the layout they changed is painted.
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
        );
        const label = `/ with ${file} (${width} px, ${scheme}, ${mode})`;
        await expectNoAxeViolations(page, label, checked.has(scheme) ? SIZE_RULES : undefined);
        checked.add(scheme);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(
          width,
        );
        if (mode === 'forecast') {
          // The starts fit their box (stacked on a phone) instead of scrolling sideways in it.
          const box = await page
            .locator('#route-starts')
            .evaluate((table) => ({ table: table.scrollWidth, box: table.parentElement?.clientWidth ?? 0 }));
          expect(box.table, label).toBeLessThanOrEqual(box.box);
        }
      }
      if (mode === 'forecast') {
        // The lead sentence is on screen once: the status line announces it without showing it.
        const lead = (await page.locator('#route-forecast-lead').textContent()) ?? '';
        expect(lead).not.toBe('');
        expect(await page.locator('#route-status').textContent()).toContain(lead);
        expect(await page.locator('#route-status').boundingBox()).toMatchObject({ width: 1, height: 1 });
      }
      await close();
    },
    90_000,
  );
});
