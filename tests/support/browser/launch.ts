import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser as launchOwnBrowser } from '../../../scripts/browser/launch.ts';

/**
 * The run's shared Chromium (tests/support/browser.global.ts), connected to; a Chromium of its own
 * where no setup provided one. `close()` on the answer closes this file's contexts, never the shared
 * browser.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromium');
  return typeof endpoint === 'string' && endpoint !== '' ? chromium.connect(endpoint) : launchOwnBrowser();
}

export interface PageOptions {
  readonly colorScheme?: 'light' | 'dark';
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Problems matching one of these are not reported (e.g. a 400 the page asks for on purpose). */
  readonly allow?: readonly RegExp[];
}

export interface CheckedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors, uncaught page errors and failed requests seen so far, one line each. */
  problems(): readonly string[];
  close(): Promise<void>;
}

/**
 * Opens a page in its own context (so colour scheme and viewport never leak between tests) and
 * records everything that would show up red in DevTools. Tests end with
 * `expect(problems()).toEqual([])`: a page that works but logs errors is still broken.
 */
export async function newPage(browser: Browser, options: PageOptions = {}): Promise<CheckedPage> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const seen: string[] = [];
  const record = (problem: string) => {
    if (!options.allow?.some((pattern) => pattern.test(problem))) seen.push(problem);
  };
  // Every page of the context, the tabs a test opens beside the first one too.
  const watch = (tab: Page) => {
    tab.on('console', (message) => {
      if (message.type() !== 'error') return;
      const { url, lineNumber } = message.location();
      record(`console error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
    });
    tab.on('pageerror', (error) => record(`page error: ${error.stack ?? error.message}`));
    tab.on('requestfailed', (request) =>
      record(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'})`),
    );
  };
  watch(page);
  context.on('page', watch);
  return { page, context, problems: () => [...seen], close: () => context.close() };
}
