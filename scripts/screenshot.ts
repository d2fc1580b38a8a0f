/**
 * `npm run screenshot`: pictures of the built site, taken in the Chromium the
 * browser tests use, from `npm start` on a free port (which builds whatever
 * is stale first). With no options it writes the README's picture,
 * `.github/readme/home-desktop.png`: the home page at 1280 px, as a new
 * visitor sees it, so the picture is made from the site and never drawn by
 * hand. Run it after changing the home page and commit the PNG.
 *
 *   npm run screenshot [-- --path=/pricing --width=390 --dark --out=/tmp/pricing.png]
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchBrowser } from './browser/launch.ts';
import { freePort, launch, type RunningService } from './service/launch.ts';

const README_PICTURE = fileURLToPath(new URL('../.github/readme/home-desktop.png', import.meta.url));

const USAGE = `Usage: npm run screenshot [-- options]
  --path=/docs     the page (default /)
  --width=1280     the window's width in CSS pixels (default 1280; the height follows the page)
  --dark           the dark colour scheme
  --out=FILE       where to write the PNG (default .github/readme/home-desktop.png)`;

function options() {
  try {
    return parseArgs({
      options: {
        path: { type: 'string', default: '/' },
        width: { type: 'string', default: '1280' },
        dark: { type: 'boolean', default: false },
        out: { type: 'string' },
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

/**
 * `npm start` on port 3000, so the page's own addresses (the curl line) read
 * `http://localhost:3000` as the README says; on a free port when 3000 is
 * taken. It gets a rider store of its own, so the picture shows no one's account.
 */
async function serve(): Promise<{ service: RunningService; origin: string }> {
  const port = (await portFree(3000)) ? 3000 : await freePort();
  const database = join(mkdtempSync(join(tmpdir(), 'wos-screenshot-')), 'wind-on-segment.sqlite');
  const env = { ...process.env, WOS_DATABASE_PATH: database, PORT: String(port), HOST: '127.0.0.1' };
  const service = await launch('npm', ['start', '--silent'], { port, env });
  return { service, origin: `http://localhost:${port}` };
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
    const page = await browser.newPage({
      viewport: { width, height: 800 },
      colorScheme: args.dark ? 'dark' : 'light',
    });
    await page.goto(`${origin}${args.path}`, { waitUntil: 'networkidle' });
    // Fonts and the page's own script have settled: what a visitor sees once it has loaded.
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
