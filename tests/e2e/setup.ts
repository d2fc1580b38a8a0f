import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../support/browser/launch.ts';
import { sharedService, type SharedService } from '../support/service.ts';

export interface SiteAndBrowser {
  readonly service: SharedService;
  readonly browser: Browser;
}

/**
 * The `npm start` every file of the npm-start project shares, and a connection to the run's one
 * Chromium (tests/support/browser.global.ts), opened before the file's tests and closed after them.
 * Read the fields inside tests only.
 */
export function useSiteAndBrowser(): SiteAndBrowser {
  const service = sharedService();
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    service,
    get browser() {
      if (browser === undefined) throw new Error('Chromium is not started yet: use it inside a test');
      return browser;
    },
  };
}
