import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.ts';

/**
 * Launches headless Chromium through playwright-core, which never downloads a browser: it drives
 * the Debian package that `ensureChromium` installs when missing.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: [...CHROMIUM_ARGS] });
}
