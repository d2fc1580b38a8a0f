import { readFileSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYWRIGHT_CHROMIUM_ARGS, ensureChromium } from '../../../scripts/browser/chromium.ts';

/** The `--disable-features` lists of a running Chromium's command line, in their order. */
function disabledFeatureLists(pid: number): string[][] {
  // Chromium rewrites its command line as one line, so spaces separate arguments as NULs do.
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  return args
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
}

/**
 * Chromium honours only the last `--disable-features` of its command line, and playwright-core puts
 * its own list before ours: `PLAYWRIGHT_CHROMIUM_ARGS` (scripts/browser/chromium.ts) must repeat it,
 * and must keep the address bar's popup from being built for every new window, which cost each
 * browser context a renderer's worth of CPU (decision 0044, follow-up). Runs Chromium, so it lives
 * with the integration tests.
 */
describe('the Chromium the tests launch', () => {
  let server: BrowserServer;

  beforeAll(async () => {
    server = await chromium.launchServer({
      executablePath: ensureChromium(),
      args: [...PLAYWRIGHT_CHROMIUM_ARGS],
    });
  });
  afterAll(async () => server?.close());

  it('keeps every feature playwright-core switches off, in the one list Chromium reads', () => {
    const lists = disabledFeatureLists(server.process().pid ?? 0);
    expect(lists.length).toBeGreaterThan(1);
    const last = lists.at(-1) ?? [];
    for (const feature of lists.slice(0, -1).flat()) expect(last).toContain(feature);
  });

  it("builds no address-bar popup beside a new context's page", async () => {
    const browser = await chromium.connect(server.wsEndpoint());
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent('<p>one page</p>');
    // When built, the popup's targets appear within a few hundred milliseconds of the window.
    await page.waitForTimeout(1000);
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    expect(targetInfos.map((target) => `${target.type} ${target.url}`)).not.toContainEqual(
      expect.stringMatching(/^browser_ui /),
    );
    await context.close();
    await browser.close();
  });
});
