import { chromium, type Browser } from 'playwright-core';
import { PLAYWRIGHT_CHROMIUM_ARGS, ensureChromium } from './chromium.ts';

/**
 * Launches headless Chromium through playwright-core, which never downloads a browser: it drives
 * the Debian package that `ensureChromium` installs when missing.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: [...PLAYWRIGHT_CHROMIUM_ARGS] });
}
