import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../support/browser/launch.ts';
import { startService, type RunningService } from '../support/service.ts';

export interface SiteAndBrowser {
  readonly service: RunningService;
  readonly browser: Browser;
}

/**
 * One `npm start` and one Chromium per test file, started together before
 * its tests and stopped after them. Read the fields inside tests only.
 */
export function useSiteAndBrowser(): SiteAndBrowser {
  let service: RunningService | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started yet: use it inside a test`);
    return value;
  };
  return {
    get service() {
      return ready(service, 'npm start');
    },
    get browser() {
      return ready(browser, 'Chromium');
    },
  };
}
