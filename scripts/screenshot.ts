/**
 * `npm run screenshot`: pictures of the built site, taken in the Chromium the
 * browser tests use, from `npm start` on a free port (which builds whatever
 * is stale first). With no options it writes the README's picture,
 * `.github/readme/home-desktop.png`: the home page at 1280 px, as a new
 * visitor sees it, so the picture is made from the site and never drawn by
 * hand. Run it after changing the home page and commit the PNG.
 *
 * It needs no network: every request off the site fails, and the map style
 * is answered with a plain local one (scripts/browser/offline.ts), so a map
 * draws its line over a blank ground. It waits for each map on show to say
 * it drew the map or its fallback (`data-map-state`), not for network
 * silence, and fails with the map's id when one does not within a minute.
 *
 *   npm run screenshot [-- --path=/pricing --width=390 --dark --out=/tmp/pricing.png]
 *   npm run screenshot -- --route=tests/fixtures/routes/loop.gpx --out=/tmp/route.png
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from './browser/launch.ts';
import { dropFile } from './browser/drop-file.ts';
import { keepOffline } from './browser/offline.ts';
import { watchPage } from './browser/settled.ts';
import { freePort, launchOnFreePort, type RunningService } from './service/launch.ts';

const README_PICTURE = fileURLToPath(new URL('../.github/readme/home-desktop.png', import.meta.url));

const USAGE = `Usage: npm run screenshot [-- options]
  --path=/docs     the page (default /)
  --width=1280     the window's width in CSS pixels (default 1280; the height follows the page)
  --dark           the dark colour scheme
  --out=FILE       where to write the PNG (default .github/readme/home-desktop.png)
  --route=FILE     drop this GPX, TCX or GeoJSON file on the route calculator first (home page)`;

function options() {
  try {
    return parseArgs({
      options: {
        path: { type: 'string', default: '/' },
        width: { type: 'string', default: '1280' },
        dark: { type: 'boolean', default: false },
        out: { type: 'string' },
        route: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

const args = options();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const width = Number(args.width);
if (!Number.isInteger(width) || width < 200 || width > 4000 || !args.path.startsWith('/')) {
  console.error(`--width must be a whole number from 200 to 4000 and --path must start with /.\n\n${USAGE}`);
  process.exit(2);
}
const out = resolve(args.out ?? README_PICTURE);
const route = args.route === undefined ? undefined : readRoute(args.route);

function readRoute(file: string): { name: string; text: string } {
  try {
    return { name: file.split('/').at(-1) ?? file, text: readFileSync(file, 'utf8') };
  } catch (error) {
    console.error(`--route: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}

/**
 * Drops the route on the calculator as a rider would, then waits for its
 * answer (the forecast's, or the typed wind's) before the page settles.
 */
async function dropRoute(page: Page, { name, text }: { name: string; text: string }): Promise<void> {
  if ((await page.locator('#route-drop').count()) === 0)
    throw new Error(`--route: ${args.path} has no route calculator`);
  await dropFile(page, name, text);
  await page.waitForFunction(
    () => {
      const result = document.getElementById('route-result');
      const forecast = document.getElementById('route-forecast');
      const error = document.getElementById('route-error')?.textContent ?? '';
      if (error.trim() !== '') return true;
      return (
        result?.hidden === false && (forecast?.hidden !== false || forecast.dataset['state'] !== 'loading')
      );
    },
    undefined,
    { timeout: 60_000 },
  );
}

/**
 * `npm start` on port 3000, so the page's own addresses (the curl line) read
 * `http://localhost:3000` as the README says; on a free port when 3000 is
 * taken. It gets a rider store of its own, so the picture shows no one's account.
 */
async function serve(): Promise<{ service: RunningService; origin: string }> {
  const database = join(mkdtempSync(join(tmpdir(), 'wos-screenshot-')), 'wind-on-segment.sqlite');
  const service = await launchOnFreePort('npm', ['start', '--silent'], {
    env: (port) => ({ ...process.env, WOS_DATABASE_PATH: database, PORT: String(port), HOST: '127.0.0.1' }),
    pickPort: async () => ((await portFree(3000)) ? 3000 : freePort()),
  });
  return { service, origin: service.baseUrl.replace('127.0.0.1', 'localhost') };
}

async function portFree(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1_000) }).then(
    () => false,
    () => true,
  );
}

const { service, origin } = await serve();
try {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width, height: 800 },
      colorScheme: args.dark ? 'dark' : 'light',
    });
    await keepOffline(context, origin, { mapStyle: 'local' });
    const page = await context.newPage();
    const watched = watchPage(page, origin);
    await page.goto(`${origin}${args.path}`);
    let { maps } = await watched.settled();
    if (route) {
      await dropRoute(page, route);
      ({ maps } = await watched.settled());
    }
    for (const box of maps.filter((map) => map.visible)) console.log(`map #${box.id}: ${box.state}`);
    // Fonts too: what a visitor sees once the page has loaded.
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out, fullPage: true });
  } finally {
    await browser.close();
  }
} finally {
  await service.stop();
}
console.log(`wrote ${out}`);
