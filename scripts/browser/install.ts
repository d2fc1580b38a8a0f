/**
 * Installs Debian's Chromium when it is missing (CI calls this before the
 * tests, so the install never runs inside a test's time limit).
 */
import { ensureChromium } from './chromium.ts';

console.log(`Chromium: ${ensureChromium()}`);
