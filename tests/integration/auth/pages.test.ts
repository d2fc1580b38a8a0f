/**
 * The rider pages in the states the site-wide checks never reach (those load
 * every page signed out): the login page continuing an authorization, the
 * consent page with a request, settings with assistants, records and
 * alerts, and settings right after saving a webhook. Each must pass axe (WCAG 2.2 AA) in both colour schemes, log
 * nothing red, and fit a phone without sideways scrolling.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAlertOnce } from '../../../src/store/repositories/alerts.ts';
import { findRiderById } from '../../../src/store/repositories/riders.ts';
import { watchSegment } from '../../../src/store/repositories/watchlist.ts';
import { expectAccessibleInBothSchemes } from '../../support/browser/axe.ts';
import { launchBrowser, newPage } from '../../support/browser/launch.ts';
import { metadataOf, registerClient, signedUp, tokensFor } from '../../auth/support/grants.ts';
import { authorizeUrl, type AsMetadata } from '../../auth/support/oauth.ts';
import { startPageHost, type PageHost } from '../../auth/support/pages.ts';
import {
  CIMD_HOST,
  startAuthServer,
  startCallbackServer,
  type AuthServer,
  type CallbackServer,
} from '../../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';

const RIDER = { email: 'pages@example.com', password: 'pages passphrase' };
const LONG_NAME = 'An assistant with a rather long name <em>and markup</em> that must wrap on a phone screen';
/** Vite's dev client cannot open its reload socket through the test proxy; harmless there. */
const DEV_NOISE = [/WebSocket|\[vite\]|@vite\/client/];

let db: TestStore;
let server: AuthServer;
let callback: CallbackServer;
let pages: PageHost;
let browser: Browser;
let metadata: AsMetadata;
let cookie: { name: string; value: string };
let riderId: string;

beforeAll(async () => {
  db = await sqliteTestStore();
  [pages, browser, callback] = await Promise.all([startPageHost(), launchBrowser(), startCallbackServer()]);
  // Fake DNS: every webhook host resolves to one public address.
  const webhookUrl = { lookup: async () => ['93.184.215.14'] };
  server = await startAuthServer({ store: db.store, pages: pages.handle, webhookUrl });
  metadata = await metadataOf(server.origin);
  const connected = await registerClient(metadata, callback.redirectUri, LONG_NAME);
  const agent = await signedUp(server.origin, RIDER);
  const tokens = await tokensFor(agent, metadata, RIDER, {
    clientId: connected,
    redirectUri: callback.redirectUri,
  });
  riderId = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString())
    .sub as string;
  await watchSegment(db.store.db, riderId, 'fr-alpe-d-huez', { recordS: 2712, thresholdKmh: 20 });
  await watchSegment(db.store.db, riderId, 'it-stelvio', { alertsOn: false });
  await recordAlertOnce(db.store.db, riderId, {
    segmentId: 'fr-alpe-d-huez',
    windowStart: 1_795_400_000,
    windowEnd: 1_795_407_200,
    peakTailwindKmh: 24.5,
  });
  const [name = '', value = ''] = agent.cookieHeader.split(';')[0]?.split('=') ?? [];
  cookie = { name, value };
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.close(), callback?.close(), pages?.stop()]);
  await db?.dispose();
});

async function signedInContext(width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  await context.addCookies([{ ...cookie, url: server.origin }]);
  return context;
}

describe('rider pages, in light and dark mode', () => {
  it('continues an authorization on the login and sign-up pages', async () => {
    const { page, problems, close } = await newPage(browser, { allow: DEV_NOISE });
    const client = await registerClient(metadata, callback.redirectUri, 'Login page client');
    await page.goto(
      authorizeUrl(metadata, {
        clientId: client,
        redirectUri: callback.redirectUri,
        resource: `${server.origin}/mcp/rider`,
      }),
    );
    await page.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => page.locator('#oauth-note').isVisible()).toBe(true);
    await expectAccessibleInBothSchemes(page, `/login with a request`);
    await page.getByRole('link', { name: 'Create a rider account' }).click();
    await page.waitForURL((url) => url.pathname === '/signup' && url.searchParams.has('sig'));
    await page.getByRole('button', { name: 'Create account' }).click(); // empty: the browser's own validation stops it
    await page.getByLabel('Email', { exact: true }).fill(RIDER.email); // taken: the server refuses it
    await page.getByLabel('Password', { exact: true }).fill('long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('#account-error').textContent()).not.toBe('');
    await expectAccessibleInBothSchemes(page, `/signup with an error`);
    expect(problems().filter((line) => !/status of 422/.test(line))).toEqual([]);
    await close();
  });

  it('shows a consent request and settings with assistants, records and alerts', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    const client = await registerClient(metadata, callback.redirectUri, 'Consent client');
    await page.goto(
      authorizeUrl(metadata, {
        clientId: client,
        redirectUri: callback.redirectUri,
        resource: `${server.origin}/mcp/rider`,
      }),
    );
    await page.waitForURL((url) => url.pathname === '/consent');
    await expect.poll(() => page.locator('#consent-client').textContent()).toBe('Consent client');
    expect(await page.locator('#consent-scopes li').count()).toBe(2);
    await expectAccessibleInBothSchemes(page, `/consent with a request`);
    await page.goto(`${server.origin}/settings`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe(RIDER.email);
    expect(await page.locator('#records tr').allTextContents()).toEqual([
      "Alpe d'Huez45:12from 20 km/h",
      'it-stelvio—off',
    ]);
    expect(await page.locator('#alerts li').count()).toBe(1);
    await expectAccessibleInBothSchemes(page, `/settings signed in`);
    await context.close();
  });

  it('saves a webhook in settings and shows its secret once, then removes it', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/settings`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe(RIDER.email);
    const url = 'https://hooks.example.com/wos/settings';
    await page.getByLabel('Webhook URL', { exact: true }).fill(url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const secret = page.locator('#webhook-secret');
    await expect.poll(() => secret.isVisible()).toBe(true);
    const stored = await findRiderById(db.store.db, riderId);
    expect(stored?.webhook?.url).toBe(url);
    expect(await secret.textContent()).toBe(stored?.webhook?.secret);
    expect(await page.locator('#webhook-status').textContent()).toMatch(/^Webhook saved\./);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('webhook-secret-title');
    expect(await page.locator('#webhook-current').textContent()).toBe(`Alerts are sent to ${url}`);
    await expectAccessibleInBothSchemes(page, `/settings after saving a webhook`);
    // A refusal shows the problem document's detail, in the page's words; nothing is stored.
    await page.getByLabel('Webhook URL', { exact: true }).fill('http://hooks.example.com/plain');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => page.locator('#webhook-status').textContent())
      .toBe('Not saved: the webhook URL must use https.');
    expect((await findRiderById(db.store.db, riderId))?.webhook?.url).toBe(url);

    await page.reload();
    await expect.poll(() => page.getByLabel('Webhook URL', { exact: true }).inputValue()).toBe(url);
    expect(await secret.isVisible()).toBe(false);
    expect(await page.content()).not.toContain(stored?.webhook?.secret ?? 'no secret');
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => page.locator('#webhook-status').textContent()).toMatch(/^Webhook removed\./);
    expect((await findRiderById(db.store.db, riderId))?.webhook).toBeNull();
    expect(await page.getByRole('button', { name: 'Remove', exact: true }).isVisible()).toBe(false);
    await context.close();
  });

  it('explains a refused assistant on a page of the site, not in raw JSON', async () => {
    const { page, problems, close } = await newPage(browser, { allow: DEV_NOISE });
    const refused = [
      ['https://10.20.30.40/client.json', /private or reserved network address/],
      [`https://${CIMD_HOST}/gone.json`, /answered with an error/],
    ] as const;
    for (const [clientId, message] of refused) {
      await page.goto(
        authorizeUrl(metadata, {
          clientId,
          redirectUri: callback.redirectUri,
          resource: `${server.origin}/mcp/rider`,
        }),
      );
      await page.waitForURL((url) => url.pathname === '/connect-error');
      await expect.poll(() => page.locator('#refusal-message').textContent()).toMatch(message);
      expect(await page.locator('.connect-error-page h1').textContent()).toBe(
        'The assistant could not connect',
      );
      expect(await page.locator('#refusal-client-id').textContent()).toBe(clientId);
      expect(await page.locator('#refusal-error').textContent()).toBe('invalid_client');
      await expectAccessibleInBothSchemes(page, `/connect-error for ${clientId}`);
    }
    expect(callback.received).toEqual([]);
    expect(problems()).toEqual([]);
    await close();
  });

  it('shows settings and consent signed out, with nothing to approve', async () => {
    const { page, problems, close } = await newPage(browser, { allow: DEV_NOISE });
    await page.goto(`${server.origin}/settings`);
    await expect.poll(() => page.locator('#settings-signed-out').isVisible()).toBe(true);
    await expectAccessibleInBothSchemes(page, '/settings signed out');
    await page.goto(`${server.origin}/consent`);
    expect(await page.locator('#consent-missing').isVisible()).toBe(true);
    await expectAccessibleInBothSchemes(page, '/consent without a request');
    expect(problems()).toEqual([]);
    await close();
  });
});

it('fits settings with a long assistant name on a phone', async () => {
  const context = await signedInContext(360);
  const page = await context.newPage();
  await page.goto(`${server.origin}/settings`);
  await expect.poll(() => page.locator('.connection strong').first().textContent()).toBe(LONG_NAME);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await context.close();
});
