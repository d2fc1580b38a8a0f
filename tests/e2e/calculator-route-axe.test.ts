/**
 * The route calculator's axe checks, with a route drawn, in both modes, at three widths and both
 * colour schemes: a file of their own (from calculator-route.test.ts), so the two files, about two
 * minutes each under load, run on two workers side by side.
 */
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { fixture, pickFile, waitForRoute } from './route-file.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();

describe('the route calculator in Chromium, for everyone', () => {
  it.each([
    { width: 320, height: 800, scheme: 'light' as const, file: 'switchbacks.gpx', name: 'Hairpin climb' },
    { width: 390, height: 844, scheme: 'dark' as const, file: 'switchbacks.gpx', name: 'Hairpin climb' },
    { width: 1280, height: 900, scheme: 'light' as const, file: 'switchbacks.gpx', name: 'Hairpin climb' },
    { width: 1280, height: 900, scheme: 'dark' as const, file: 'switchbacks.gpx', name: 'Hairpin climb' },
    { width: 320, height: 800, scheme: 'dark' as const, file: 'loop.gpx', name: 'Lake loop' },
    { width: 1280, height: 900, scheme: 'light' as const, file: 'loop.gpx', name: 'Lake loop' },
  ])(
    'has no axe violations with a route drawn, $width px wide in $scheme mode ($file), typed wind and forecast',
    async ({ width, height, scheme, file, name }) => {
      for (const mode of ['manual', 'forecast'] as const) {
        const { page, context, close } = await newPage(env.browser, {
          viewport: { width, height },
          colorScheme: scheme,
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
        for (const summary of await page.locator('#route-result summary:visible').all())
          await summary.click();
        await expectNoAxeViolations(page, `/ with ${file} (${width} px, ${scheme}, ${mode})`);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        if (mode === 'forecast') {
          // The starts fit their box (stacked on a phone) instead of scrolling sideways in it.
          const box = await page
            .locator('#route-starts')
            .evaluate((table) => ({ table: table.scrollWidth, box: table.parentElement?.clientWidth ?? 0 }));
          expect(box.table).toBeLessThanOrEqual(box.box);
          // The lead sentence is on screen once: the status line announces it without showing it.
          const lead = (await page.locator('#route-forecast-lead').textContent()) ?? '';
          expect(lead).not.toBe('');
          expect(await page.locator('#route-status').textContent()).toContain(lead);
          expect(await page.locator('#route-status').boundingBox()).toMatchObject({ width: 1, height: 1 });
        }
        await page.screenshot({
          path: `test-results/screenshots/home-route-${file.replace(/\W+/g, '-')}-${width}-${scheme}-${mode}.png`,
          fullPage: true,
        });
        await close();
      }
    },
    90_000,
  );
});
