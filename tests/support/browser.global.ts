/**
 * Global setup of the `npm-start` and `integration` projects (vitest.config.ts): one headless
 * Chromium for every browser test of the run, instead of one per file. Its address is provided as
 * `chromium`; `launchBrowser()` (tests/support/browser/launch.ts) connects to it, and a file's
 * `browser.close()` then closes only that file's contexts and connection.
 *
 * Both projects' setups run in Vitest's main process: the first starts the browser and the last to
 * finish closes it (kept on `globalThis`, which the projects share where their modules are not).
 */
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { PLAYWRIGHT_CHROMIUM_ARGS, ensureChromium } from '../../scripts/browser/chromium.ts';

declare module 'vitest' {
  /** The WebSocket address of the run's shared Chromium (playwright-core's `launchServer`). */
  export interface ProvidedContext {
    chromium: string;
  }
}

interface SharedChromium {
  readonly server: Promise<BrowserServer>;
  users: number;
}

const KEY = Symbol.for('wind-on-segment.tests.chromium');
const shared = globalThis as typeof globalThis & { [KEY]?: SharedChromium | undefined };

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const held = (shared[KEY] ??= {
    server: chromium.launchServer({ executablePath: ensureChromium(), args: [...PLAYWRIGHT_CHROMIUM_ARGS] }),
    users: 0,
  });
  held.users += 1;
  project.provide('chromium', (await held.server).wsEndpoint());
  return async () => {
    held.users -= 1;
    if (held.users > 0) return;
    shared[KEY] = undefined;
    await (await held.server).close();
  };
}
