/**
 * Issue #12's "done when", in Chromium: a rider picks a GPX file on
 * /settings, sees its line and the figures src/core computes, saves it, and
 * an assistant connected to the rider address (a real OAuth grant, the real
 * endpoint) then finds it in get_my_watchlist and get_my_tailwind_windows.
 * A bad file gets a precise message on the page and stores nothing.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareOwnSegment } from '../../../src/core/own-segment.ts';
import { figureTexts } from '../../../src/components/rider/own-segment-preview.ts';
import { UPLOAD_MAX_BYTES } from '../../../src/components/rider/own-segments-section.ts';
import { OWN_SEGMENT_UPLOAD_MAX_BYTES } from '../../../src/account/own-segments-api.ts';
import {
  GetMyTailwindWindowsOutputSchema,
  GetMyWatchlistOutputSchema,
} from '../../../src/mcp/schemas/rider.ts';
import { countRiderSegments } from '../../../src/store/repositories/rider-segments.ts';
import { expectNoAxeViolations } from '../../support/browser/axe.ts';
import { launchBrowser } from '../../support/browser/launch.ts';
import { testDeps } from '../../support/mcp-deps.ts';
import { climbGpx } from '../../mcp/own-segment-fixtures.ts';
import { metadataOf, registerClient, signedUp, tokensFor } from '../../auth/support/grants.ts';
import { startPageHost, type PageHost } from '../../auth/support/pages.ts';
import {
  startAuthServer,
  startCallbackServer,
  type AuthServer,
  type CallbackServer,
} from '../../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';

const RIDER = { email: 'own-segments@example.com', password: 'own segments passphrase' };

let db: TestStore;
let server: AuthServer;
let callback: CallbackServer;
let pages: PageHost;
let browser: Browser;
let cookie: { name: string; value: string };
let accessToken: string;
let riderId: string;

beforeAll(async () => {
  db = await sqliteTestStore();
  [pages, browser, callback] = await Promise.all([startPageHost(), launchBrowser(), startCallbackServer()]);
  server = await startAuthServer({ store: db.store, pages: pages.handle, mcp: testDeps() });
  const metadata = await metadataOf(server.origin);
  const clientId = await registerClient(metadata, callback.redirectUri, 'Upload test assistant');
  const agent = await signedUp(server.origin, RIDER);
  const tokens = await tokensFor(agent, metadata, RIDER, { clientId, redirectUri: callback.redirectUri });
  accessToken = tokens.access_token;
  riderId = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sub as string;
  const [name = '', value = ''] = agent.cookieHeader.split(';')[0]?.split('=') ?? [];
  cookie = { name, value };
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.close(), callback?.close(), pages?.stop()]);
  await db?.dispose();
});

async function signedIn(width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ ...cookie, url: server.origin }]);
  return context;
}

async function riderTool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const client = new Client({ name: 'upload-test-assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp/rider`), {
      requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
    }),
  );
  try {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent;
  } finally {
    await client.close();
  }
}

describe('uploading an own segment on /settings', () => {
  it('the page and the server take the same upload size', () => {
    expect(UPLOAD_MAX_BYTES).toBe(OWN_SEGMENT_UPLOAD_MAX_BYTES);
  });

  it('refuses a bad file with a precise message and stores nothing', async () => {
    const context = await signedIn(390);
    const page = await context.newPage();
    await page.goto(`${server.origin}/settings`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe(RIDER.email);
    await page.locator('#own-segment-file').setInputFiles({
      name: 'broken.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from('<gpx><trk><trkseg><trkpt lat="45.1" lon="6.1"/></trkseg></trk></gpx>'),
    });
    const error = page.locator('#own-segment-error');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await error.textContent()).toMatch(/^broken\.gpx: .*1 point/);
    expect(await page.locator('#own-segment-save').isDisabled()).toBe(true);
    await expectNoAxeViolations(page, '/settings with a refused file (phone)');
    await page.locator('#own-segment-file').setInputFiles({
      name: 'huge.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.alloc(UPLOAD_MAX_BYTES + 1, 0x20),
    });
    await expect.poll(() => error.textContent()).toMatch(/^huge\.gpx is 4\.0 MB; files of up to 4 MB/);
    expect(await countRiderSegments(db.store.db, riderId)).toBe(0);
    await context.close();
  });

  it('previews a GPX with src/core figures, saves it, and an assistant sees it in both rider tools', async () => {
    const gpx = climbGpx();
    const expected = figureTexts(prepareOwnSegment('gpx', gpx));
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${server.origin}/settings`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe(RIDER.email);
    expect(await page.locator('#own-segments-empty').isVisible()).toBe(true);

    await page.locator('#own-segment-file').setInputFiles({
      name: 'hairpins.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from(gpx),
    });
    await expect.poll(() => page.locator('#own-segment-preview').isVisible()).toBe(true);
    expect(await page.locator('#own-segment-distance').textContent()).toBe(expected.distance);
    expect(await page.locator('#own-segment-climbing').textContent()).toBe(expected.climbing);
    expect(await page.locator('#own-segment-grade').textContent()).toBe(expected.grade);
    expect(await page.locator('#own-segment-bearing').textContent()).toBe(expected.bearing);
    expect(await page.locator('#own-segment-figure svg polyline').count()).toBe(1);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Hairpins above the valley');
    await expectNoAxeViolations(page, '/settings with a file previewed');

    await page.getByLabel('Personal record (optional)').fill('25:00');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await expect.poll(() => page.locator('#own-segment-status').textContent()).toMatch(/saved and watched/);
    await expect.poll(() => page.locator('#own-segments li').count()).toBe(1);
    expect(await page.locator('#own-segments li').textContent()).toContain('Hairpins above the valley');
    await expectNoAxeViolations(page, '/settings with an own segment');
    await context.close();

    const watchlist = GetMyWatchlistOutputSchema.parse(await riderTool('get_my_watchlist'));
    const watched = watchlist.watchlist?.find((w) => w.catalog_status === 'own_segment');
    expect(watched?.segment?.name).toBe('Hairpins above the valley');
    expect(watched?.record_s).toBe(1500);
    const windows = GetMyTailwindWindowsOutputSchema.parse(await riderTool('get_my_tailwind_windows'));
    const entry = windows.segments?.find((s) => s.segment_id === watched?.segment_id);
    expect(entry?.segment_name).toBe('Hairpins above the valley');
    expect(entry?.record_s).toBe(1500);
    expect(entry?.window_status).not.toBe('no_forecast');
  });
});
