import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where Debian's `chromium` package puts its launcher. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const INSTALL = 'apt-get update && apt-get install -y chromium';

/**
 * Flags for Debian's Chromium in a container with no internet: no sandbox (we run as root), no GPU,
 * and none of the background traffic to Google hosts (component updates, sync, QUIC probes) that
 * would only time out here and add noise. Shared by the browser tests, Lighthouse and the scripts.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/**
 * The features playwright-core 1.6x switches off itself (its `chromiumSwitches`). Chromium honours
 * only the last `--disable-features` on its command line, so a launch that adds features of its own
 * must name these again: `PLAYWRIGHT_CHROMIUM_ARGS` does. A browser test
 * (`tests/integration/browser/chromium-switches.test.ts`) reads the launched browser's command line
 * and fails when a Playwright upgrade adds one that is missing here.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'BlockOriginHeaderModificationOnRedirect',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'Translate',
  'AutoDeElevate',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's WebUI popup, which Chromium 15x builds in a renderer of its own for every new
 * window, headless included: every browser context a test opens paid for it. Measured on this
 * machine: a blank page in a new context cost 1.0 s of Chromium CPU with it and 0.25 s without
 * (a map page 1.5 s and 0.9 s); the popup is never shown to a test (decision 0044, follow-up).
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

/** `CHROMIUM_ARGS` for a Chromium that playwright-core launches: its own features kept off, and ours. */
export const PLAYWRIGHT_CHROMIUM_ARGS: readonly string[] = [
  ...CHROMIUM_ARGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

/**
 * Returns the path of Debian's Chromium, installing the package first when it is missing.
 *
 * Why Debian's: Playwright's own browser download cannot be reached from our machines (only the
 * npm registry and Debian's archive are), and a fresh CI machine has no browser, so the tests
 * install one themselves. The install runs under `flock` so parallel Vitest workers do not fight
 * over the apt lock, and re-checks inside the lock so only the first worker installs.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}; install it with: sudo sh -c '${INSTALL}'`,
    );
  }
  console.log(`Installing Debian's chromium package (${INSTALL}) for the browser tests…`);
  const result = spawnSync(
    'flock',
    ['/tmp/wind-on-segment-chromium.lock', 'sh', '-c', `test -x ${CHROMIUM_PATH} || { ${INSTALL}; }`],
    { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8', timeout: 600_000 },
  );
  if (result.status !== 0 || !existsSync(CHROMIUM_PATH)) {
    const why =
      result.error?.message ??
      (result.status === 0 ? `${CHROMIUM_PATH} still missing` : `exit ${result.status}`);
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`Installing chromium failed (${why}):\n${output}`);
  }
  return CHROMIUM_PATH;
}
